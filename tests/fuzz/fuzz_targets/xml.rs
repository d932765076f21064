//! The xml parser path on arbitrary text: `None` or a xml synopsis, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tool_stub::xml;

mod common;

fuzz_target!(|data: &[u8]| {
    let output = common::text(data);
    if let Some(synopsis) = xml::synopsis(&output) {
        assert_eq!(synopsis.kind, "xml");
    }
});
