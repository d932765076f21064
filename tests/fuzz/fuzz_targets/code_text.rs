//! The code and plain-text paths (and the code sniffer) on arbitrary text, and the byte-level
//! text helpers and the position index's counts checked against their char-level definitions.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tool_stub::output_index;
use tool_stub::{code, text};
use tool_stub::{is_py_space, py_lstrip, py_strip, py_word_count, py_words};

mod common;

fuzz_target!(|data: &[u8]| {
    let output = common::text(data);
    let _ = code::looks_like_code(&output);
    assert_eq!(code::synopsis(&output).kind, "code");
    assert_eq!(text::synopsis(&output).kind, "text");
    assert_eq!(py_word_count(&output), py_words(&output).count());
    assert_eq!(py_strip(&output), output.trim_matches(is_py_space));
    assert_eq!(py_lstrip(&output), output.trim_start_matches(is_py_space));
    let index = output_index(&output, true);
    assert_eq!(index.chars, output.chars().count());
    assert_eq!(index.utf16, output.encode_utf16().count());
});
