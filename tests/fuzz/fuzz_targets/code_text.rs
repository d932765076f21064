//! The code and plain-text paths (and the code sniffer) on arbitrary text.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tool_stub::kinds::{code, text};

mod common;

fuzz_target!(|data: &[u8]| {
    let output = common::text(data);
    let _ = code::looks_like_code(&output);
    assert_eq!(code::synopsis(&output).kind, "code");
    assert_eq!(text::synopsis(&output).kind, "text");
});
