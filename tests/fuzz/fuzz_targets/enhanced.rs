//! Enhanced synopses (synopsisMode "enhanced", every detector of src/enhanced/) of arbitrary bytes
//! under arbitrary MIME types: no panic, and a stub never longer than 1.2x the reference's.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tool_stub::{make_preview, PreviewRequest, SynopsisMode};

mod common;

fuzz_target!(|data: &[u8]| {
    let (output, mime) = common::output_and_mime(data);
    let preview_chars = i64::from(data.first().copied().unwrap_or(0)) * 37 - 500;
    let stub = |mode| {
        let (synopsis, stub) = make_preview(
            &output,
            &PreviewRequest {
                mime_type: &mime,
                preview_chars,
                reference: "viking://user/default/sessions/s/tool-results/tr_x",
                mode,
                ..Default::default()
            },
        );
        assert!(!synopsis.kind.is_empty() && !synopsis.title.is_empty());
        stub.chars().count()
    };
    let reference = stub(SynopsisMode::Reference);
    let enhanced = stub(SynopsisMode::Enhanced);
    assert!(
        enhanced * 5 <= reference * 6,
        "{enhanced} > 1.2 x {reference}"
    );
});
