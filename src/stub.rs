//! The stub text the model sees in place of an externalized output (SPEC 4).

use serde::Serialize;

use crate::json_fields;
use crate::python::char_len;
use crate::synopsis::{self, Synopsis};

/// The retrieval tools the Explore lines name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolNames {
    pub read: String,
    pub search: String,
    pub list: String,
    /// Session-wide search: a tool beyond the reference, so the stubs never name it.
    pub search_all: String,
}

json_fields::defaulted_struct!(ToolNames, {
    read: "read",
    search: "search",
    list: "list",
    search_all: "searchAll",
});

impl Default for ToolNames {
    fn default() -> Self {
        ToolNames {
            read: "openviking_tool_result_read".to_string(),
            search: "openviking_tool_result_search".to_string(),
            list: "openviking_tool_result_list".to_string(),
            search_all: "openviking_tool_result_search_all".to_string(),
        }
    }
}

/// The header fields of a stub. Empty strings count as "not set".
#[derive(Debug, Clone, Default)]
pub struct StubHeader<'a> {
    pub reference: &'a str,
    pub tool_name: &'a str,
    pub sha256: &'a str,
    pub reason: &'a str,
    pub original_chars: usize,
    pub preview_chars: i64,
    pub tools: Option<&'a ToolNames>,
}

fn push_section(lines: &mut Vec<String>, title: &str, items: &[String]) {
    if items.is_empty() {
        return;
    }
    lines.push(String::new());
    lines.push(title.to_string());
    lines.extend(items.iter().map(|item| format!("- {item}")));
}

pub fn render_stub(synopsis: &Synopsis, header: &StubHeader<'_>) -> String {
    let tool_name = if header.tool_name.is_empty() {
        "tool"
    } else {
        header.tool_name
    };
    let mut lines = vec![
        "[OpenViking tool result externalized]".to_string(),
        format!("tool_name: {tool_name}"),
        format!("kind: {}", synopsis.kind),
        format!("original_chars: {}", header.original_chars),
        format!("preview_chars: {}", header.preview_chars.max(0)),
    ];
    if !header.reference.is_empty() {
        lines.push(format!("ref: {}", header.reference));
    }
    if !header.sha256.is_empty() {
        lines.push(format!(
            "sha256: {}",
            header.sha256.get(..16).unwrap_or(header.sha256)
        ));
    }
    if !header.reason.is_empty() {
        lines.push(format!("reason: {}", header.reason));
    }
    push_section(&mut lines, "Synopsis:", &synopsis.summary);
    push_section(&mut lines, "Structure:", &synopsis.structure);
    push_section(&mut lines, "Notable items:", &synopsis.notable_items);
    if !synopsis.sample.is_empty() {
        lines.push(String::new());
        lines.push("Sample:".to_string());
        lines.push(synopsis.sample.clone());
    }
    if !header.reference.is_empty() {
        let default_tools = ToolNames::default();
        let tools = header.tools.unwrap_or(&default_tools);
        let reference = header.reference;
        lines.push(String::new());
        lines.push("Explore:".to_string());
        lines.push(format!(
            "- Use {} with ref={reference} to find relevant raw snippets.",
            tools.search
        ));
        lines.push(format!(
            "- Use {} with ref={reference} and offset/limit to inspect raw output.",
            tools.read
        ));
        lines.push(format!(
            "- Use {} to discover other externalized outputs in this session.",
            tools.list
        ));
    }
    lines.join("\n")
}

/// `preview_chars = min(len(output), max(p, 0))`, the value a stub header and a record carry.
pub fn effective_preview_chars(original_chars: usize, preview_chars: i64) -> i64 {
    preview_chars
        .max(0)
        .min(i64::try_from(original_chars).unwrap_or(i64::MAX))
}

/// Everything `make_preview` needs besides the output.
#[derive(Debug, Clone, Default)]
pub struct PreviewRequest<'a> {
    pub mime_type: &'a str,
    pub preview_chars: i64,
    pub tool_name: &'a str,
    pub reference: &'a str,
    pub sha256: &'a str,
    pub reason: &'a str,
    /// Overrides `len(output)` in the header (a source-read window, say).
    pub original_chars: Option<usize>,
    pub tools: Option<&'a ToolNames>,
}

/// The synopsis of `output` and its rendered stub.
pub fn make_preview(output: &str, request: &PreviewRequest<'_>) -> (Synopsis, String) {
    let original_chars = char_len(output);
    let preview_chars = effective_preview_chars(original_chars, request.preview_chars);
    let mime_type = if request.mime_type.is_empty() {
        "text/plain"
    } else {
        request.mime_type
    };
    let synopsis = synopsis::generate(output, mime_type, preview_chars);
    let stub = render_stub(
        &synopsis,
        &StubHeader {
            reference: request.reference,
            tool_name: request.tool_name,
            sha256: request.sha256,
            reason: request.reason,
            original_chars: request.original_chars.unwrap_or(original_chars),
            preview_chars,
            tools: request.tools,
        },
    );
    (synopsis, stub)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_only_names_what_is_set() {
        let (_, stub) = make_preview(
            "hello world",
            &PreviewRequest {
                preview_chars: 50,
                ..Default::default()
            },
        );
        assert!(stub.starts_with("[OpenViking tool result externalized]\ntool_name: tool\nkind: text\noriginal_chars: 11\npreview_chars: 11\n\nSynopsis:\n- Text"));
        assert!(!stub.contains("ref:") && !stub.contains("Explore:") && !stub.ends_with('\n'));
    }

    #[test]
    fn explore_lines_name_the_configured_tools() {
        let tools = ToolNames {
            read: "r".into(),
            search: "s".into(),
            list: "l".into(),
            ..ToolNames::default()
        };
        let request = PreviewRequest {
            reference: "viking://x",
            sha256: "0123456789abcdef0123",
            tools: Some(&tools),
            ..Default::default()
        };
        let (_, stub) = make_preview("x", &request);
        assert!(stub.contains("\nsha256: 0123456789abcdef\n"));
        assert!(stub.ends_with("- Use s with ref=viking://x to find relevant raw snippets.\n- Use r with ref=viking://x and offset/limit to inspect raw output.\n- Use l to discover other externalized outputs in this session."));
    }
}
