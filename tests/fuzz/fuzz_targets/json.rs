//! The json parser path on arbitrary text: `None` or a json synopsis, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tool_stub::json;

mod common;

fuzz_target!(|data: &[u8]| {
    let output = common::text(data);
    if let Some(synopsis) = json::synopsis(&output) {
        assert_eq!(synopsis.kind, "json");
    }
});
