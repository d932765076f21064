//! Detection + synopsis of arbitrary bytes under arbitrary MIME types.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tool_stub::generate;

mod common;

fuzz_target!(|data: &[u8]| {
    let (output, mime) = common::output_and_mime(data);
    let preview = i64::from(data.first().copied().unwrap_or(0)) * 37 - 500;
    let synopsis = generate(&output, &mime, preview);
    assert!(
        common::KINDS.contains(&synopsis.kind.as_str()),
        "kind {}",
        synopsis.kind
    );
    assert!(!synopsis.title.is_empty());
});
