//! Stub rendering: arbitrary synopses and headers, and `make_preview` with any preview size.
#![no_main]
use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use tool_stub::Synopsis;
use tool_stub::{make_preview, render_stub, PreviewRequest, StubHeader, SynopsisMode, ToolNames};

fn strings(u: &mut Unstructured<'_>) -> Result<Vec<String>> {
    let count = u.int_in_range(0..=4)?;
    (0..count).map(|_| u.arbitrary()).collect()
}

fn run(u: &mut Unstructured<'_>) -> Result<()> {
    let synopsis = Synopsis {
        kind: u.arbitrary()?,
        title: u.arbitrary()?,
        summary: strings(u)?,
        structure: strings(u)?,
        notable_items: strings(u)?,
        sample: u.arbitrary()?,
        priorities: None,
    };
    let tools = ToolNames {
        read: u.arbitrary()?,
        search: u.arbitrary()?,
        list: u.arbitrary()?,
        search_all: u.arbitrary()?,
    };
    let reference: String = u.arbitrary()?;
    let tool_name: String = u.arbitrary()?;
    let sha256: String = u.arbitrary()?;
    let reason: String = u.arbitrary()?;
    let preview_chars: i64 = u.arbitrary()?;
    let original_chars: usize = u.arbitrary()?;
    let with_tools: bool = u.arbitrary()?;
    let header = StubHeader {
        title: "",
        reference: &reference,
        tool_name: &tool_name,
        sha256: &sha256,
        reason: &reason,
        original_chars,
        original_tokens: None,
        preview_chars,
        tools: with_tools.then_some(&tools),
    };
    let stub = render_stub(&synopsis, &header);
    assert!(stub.starts_with("[OpenViking tool result externalized]\n"));
    if !reference.is_empty() {
        assert!(stub.contains(&format!("\nref: {reference}\n")) && stub.contains("\nExplore:\n"));
    }
    let mime: String = u.arbitrary()?;
    let output: String = u.arbitrary()?;
    let mode = if u.arbitrary()? {
        SynopsisMode::Enhanced
    } else {
        SynopsisMode::Reference
    };
    let (_, preview) = make_preview(
        &output,
        &PreviewRequest {
            mime_type: &mime,
            preview_chars,
            tool_name: &tool_name,
            reference: &reference,
            sha256: &sha256,
            reason: &reason,
            original_chars: None,
            tools: with_tools.then_some(&tools),
            max_stub_chars: None,
            title: "",
            mode,
            redact_secrets: u.arbitrary()?,
        },
    );
    let shown = preview_chars.clamp(0, output.chars().count() as i64);
    assert!(preview.contains(&format!("\npreview_chars: {shown}\n")));
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let _ = run(&mut Unstructured::new(data));
});
