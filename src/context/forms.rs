//! The forms a tool result takes in a conversation the governor walks: the output itself
//! (inline), a stub with its ref (put there by a turn or by the governor), or the one-line
//! reference form the governor shrinks a stub into. Only the first lines of a result are read,
//! so a multi-megabyte output is never copied into the core to be told apart.

use crate::stub::ToolNames;

/// Every reference form starts with this: how the governor knows a result it already shrank.
pub(crate) const REFERENCE_FORM_PREFIX: &str = "[tool result cleared from context] ";

/// The stub header keys a reference form carries over, in this order.
const CARRIED_KEYS: [&str; 4] = ["tool_name", "kind", "original_chars", "original_tokens"];

/// How many chars of a result's head tell its form: a stub's header lines (title, tool name,
/// kind, sizes, ref, digest, reason) fit well inside it.
pub const HEAD_CHARS: usize = 4096;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Form {
    Inline,
    /// A stub whose header names `reference`.
    Stub {
        reference: String,
    },
    /// Already the one-line reference form: nothing smaller is left.
    Reference,
}

/// The header lines of a stub (`key: value` after the title, up to the first blank line), when
/// `text` starts with the stub header `title`.
fn stub_header_lines<'a>(text: &'a str, title: &str) -> Option<Vec<(&'a str, &'a str)>> {
    let rest = text.strip_prefix(title)?.strip_prefix('\n')?;
    let fields: Vec<(&str, &str)> = rest
        .split('\n')
        .take_while(|line| !line.is_empty())
        .filter_map(|line| line.split_once(": "))
        .collect();
    Some(fields)
}

/// The form of a result whose text starts with `head`, given the session's stub header.
pub fn classify(head: &str, stub_header: &str) -> Form {
    if head.starts_with(REFERENCE_FORM_PREFIX) {
        return Form::Reference;
    }
    let reference = stub_header_lines(head, stub_header).and_then(|fields| {
        fields
            .into_iter()
            .find(|(key, _)| *key == "ref")
            .map(|(_, value)| value.to_string())
    });
    match reference {
        Some(reference) if !reference.is_empty() => Form::Stub { reference },
        _ => Form::Inline,
    }
}

/// The one-line reference form of a stub: its ref, what it was, and the tools that get it back.
/// `None` when `stub` is not a stub of this session's header with a ref.
pub(crate) fn reference_form(stub: &str, stub_header: &str, tools: &ToolNames) -> Option<String> {
    let fields = stub_header_lines(stub, stub_header)?;
    let reference = fields
        .iter()
        .find(|(key, _)| *key == "ref")
        .map(|(_, value)| *value)
        .filter(|value| !value.is_empty())?;
    let mut line = format!("{REFERENCE_FORM_PREFIX}ref: {reference}");
    for key in CARRIED_KEYS {
        if let Some((_, value)) = fields.iter().find(|(k, _)| *k == key) {
            line.push_str(&format!("; {key}: {value}"));
        }
    }
    line.push_str(&format!(
        ". Still stored: {} or {} with ref={reference} gets it back.",
        tools.search, tools.read
    ));
    Some(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TITLE: &str = "[OpenViking tool result externalized]";

    fn stub(reference: &str) -> String {
        format!(
            "{TITLE}\ntool_name: http_get\nkind: json\noriginal_chars: 52000\npreview_chars: 2000\n\
             ref: {reference}\nsha256: 0123456789abcdef\nreason: context_budget\n\nSynopsis:\nJSON object"
        )
    }

    #[test]
    fn tells_the_three_forms_apart() {
        let reference = "viking://user/default/sessions/s/tool-results/tr_c1_0123456789abcdef";
        assert_eq!(
            classify(&stub(reference), TITLE),
            Form::Stub {
                reference: reference.to_string()
            }
        );
        assert_eq!(classify("{\"items\": []}", TITLE), Form::Inline);
        // Another header is not this session's stub.
        assert_eq!(classify(&stub(reference), "[other]"), Form::Inline);
        let line = reference_form(&stub(reference), TITLE, &ToolNames::default()).unwrap();
        assert_eq!(classify(&line, TITLE), Form::Reference);
    }

    #[test]
    fn a_stub_without_a_ref_is_inline_text() {
        let text =
            format!("{TITLE}\ntool_name: x\nkind: text\noriginal_chars: 9\n\nSynopsis:\nref: y");
        assert_eq!(classify(&text, TITLE), Form::Inline);
        assert_eq!(reference_form(&text, TITLE, &ToolNames::default()), None);
    }

    #[test]
    fn the_reference_form_is_one_line_naming_the_ref_and_the_tools() {
        let reference = "viking://user/default/sessions/s/tool-results/tr_c1_0123456789abcdef";
        let line = reference_form(&stub(reference), TITLE, &ToolNames::default()).unwrap();
        assert!(!line.contains('\n'));
        assert!(line.starts_with(REFERENCE_FORM_PREFIX));
        assert!(line.contains(&format!(
            "ref: {reference}; tool_name: http_get; kind: json; original_chars: 52000."
        )));
        assert!(line.contains("openviking_tool_result_search or openviking_tool_result_read"));
        // Shrinking is done once: a reference form is no stub.
        assert_eq!(reference_form(&line, TITLE, &ToolNames::default()), None);
    }
}
