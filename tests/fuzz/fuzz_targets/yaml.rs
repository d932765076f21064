//! The yaml parser path on arbitrary text: `None` or a yaml synopsis, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tool_stub::yaml;

mod common;

fuzz_target!(|data: &[u8]| {
    let output = common::text(data);
    if let Some(synopsis) = yaml::synopsis(&output) {
        assert_eq!(synopsis.kind, "yaml");
    }
});
