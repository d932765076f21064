//! Kind detection (SPEC section 2): which kind's synopsis an output gets. The `Synopsis` type
//! lives with the kinds (`kinds::Synopsis`), so the kinds never import from this dispatcher.

pub(crate) use crate::kinds::Synopsis;
use crate::kinds::{self, code::spaces};
use crate::python::{char_len, head_tail, py_lstrip, py_splitlines, py_strip, take_chars};
use std::cell::OnceCell;

/// Outputs larger than this are not tried as YAML: the PyYAML-compatible loader needs up to ~20x
/// the input in memory, and wasm has 4 GiB. Beyond the reference (which has no such cap); real YAML
/// tool outputs are far smaller, and such an output falls through to code or text.
pub const MAX_YAML_BYTES: usize = 64 * 1024 * 1024;

/// A structured kind's parser: `None` when the output is not of that kind.
type KindParser = fn(&str) -> Option<Synopsis>;

/// Chars at the start of an output that the binary-like check looks at.
const BINARY_PROBE_CHARS: usize = 1000;

/// Whether an output looks binary: a NUL anywhere, or more than 5% control chars (other than
/// `\n`, `\r`, `\t`) among its first 1000 chars.
fn is_binary_like(output: &str) -> bool {
    if output.contains('\0') {
        return true;
    }
    let probe = take_chars(output, BINARY_PROBE_CHARS);
    let probed = char_len(probe);
    let controls = probe
        .chars()
        .filter(|&c| c < '\u{20}' && !matches!(c, '\n' | '\r' | '\t'))
        .count();
    probed > 0 && controls * 20 > probed
}

fn unknown(title: &str, summary: String, sample: String) -> Synopsis {
    let mut synopsis = Synopsis::new("unknown", title);
    synopsis.summary.push(summary);
    synopsis.sample = sample;
    synopsis
}

/// The reference's `^[A-Za-z0-9_.-]+:\s*(?:#.*)?$` (Python `\s`): a key, `:`, then nothing or a
/// comment. The key run cannot hold `:`, and the comment cannot cross a line break.
fn is_key_line(line: &str) -> bool {
    let key_end = line
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')))
        .unwrap_or(line.len());
    let Some(after_colon) = line.get(key_end..).and_then(|rest| rest.strip_prefix(':')) else {
        return false;
    };
    let rest = spaces(after_colon).unwrap_or(after_colon);
    key_end > 0 && (rest.is_empty() || (rest.starts_with('#') && !rest.contains('\n')))
}

/// SPEC 3.3: whether an output is worth trying as YAML. `looks_like_code` is the code check of
/// the same output, shared with detection's later step so a long output is scanned once.
fn is_yaml_candidate(output: &str, looks_like_code: &dyn Fn() -> bool) -> bool {
    if py_lstrip(output).starts_with("---") {
        return true;
    }
    // A key line holds a ':': without one, no line needs splitting off.
    if looks_like_code() || !output.contains(':') {
        return false;
    }
    let mut non_blank = py_splitlines(output).filter(|line| !py_strip(line).is_empty());
    let mut current = non_blank.next();
    while let Some(line) = current {
        let next = non_blank.next();
        if let Some(following) = next {
            if is_key_line(line) {
                return following.starts_with([' ', '\t']);
            }
        }
        current = next;
    }
    false
}

/// Detects the kind of `output` and builds its synopsis (SPEC 2 and 3). `preview_chars` only sizes
/// the head/tail sample of `unknown` outputs.
pub fn generate(output: &str, mime_type: &str, preview_chars: i64) -> Synopsis {
    // Only tested for "json"/"xml": Python's `lower()` maps no non-ASCII char into those letters,
    // so ASCII lowering matches it without the Unicode case tables in the wasm.
    let mime = mime_type.to_ascii_lowercase();
    if output.is_empty() {
        return unknown(
            "Empty output",
            "Output is empty.".to_string(),
            String::new(),
        );
    }
    if is_binary_like(output) {
        return unknown(
            "Binary-like output",
            format!(
                "Contains {} characters and non-text control bytes.",
                char_len(output)
            ),
            head_tail(output, preview_chars),
        );
    }
    let stripped = py_strip(output);
    // JSON, then XML: tried when the MIME type names them or the output starts like them; a MIME
    // type that names one and does not parse makes the output `unknown` instead of going on.
    let markup: [(&str, &[char], KindParser, &str); 2] = [
        ("json", &['{', '['], kinds::json::synopsis, "JSON"),
        ("xml", &['<'], kinds::xml::synopsis, "XML"),
    ];
    for (name, openers, parse, label) in markup {
        let declared = mime.contains(name);
        if declared || stripped.starts_with(openers) {
            if let Some(synopsis) = parse(output) {
                return synopsis;
            }
            if declared {
                return unknown(
                    &format!("Unparsed {label}-like output"),
                    format!("{label}-like output failed to parse."),
                    head_tail(output, preview_chars),
                );
            }
        }
    }
    if output.contains('\t') {
        if let Some(synopsis) = kinds::table::synopsis(output, '\t') {
            return synopsis;
        }
    }
    if output.contains(',') {
        if let Some(synopsis) = kinds::table::synopsis(output, ',') {
            return synopsis;
        }
    }
    let code_check = OnceCell::new();
    let looks_like_code = || *code_check.get_or_init(|| kinds::code::looks_like_code(output));
    if output.len() <= MAX_YAML_BYTES && is_yaml_candidate(output, &looks_like_code) {
        if let Some(synopsis) = kinds::yaml::synopsis(output) {
            return synopsis;
        }
    }
    if looks_like_code() {
        return kinds::code::synopsis(output);
    }
    kinds::text::synopsis(output)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_line_matcher_agrees_with_the_reference_pattern() {
        let space = crate::python::PY_SPACE_CLASS;
        let reference =
            regex::Regex::new(&format!(r"^[A-Za-z0-9_.-]+:[{space}]*(?:#.*)?$")).unwrap();
        let pieces = ["a", "_.-", "é", ":", " ", "\u{3000}", "\n", "#", "x", ""];
        for line in crate::test_support::joined_pieces(&pieces) {
            assert_eq!(
                is_key_line(&line),
                reference.is_match(&line),
                "line {line:?}"
            );
        }
        assert!(is_key_line("spec.x-y: \t# note") && !is_key_line(": x") && !is_key_line("a: b"));
    }

    #[test]
    fn binary_like_threshold_is_more_than_five_percent() {
        let mut text = "a".repeat(95);
        text.push_str(&"\u{1}".repeat(5));
        assert!(!is_binary_like(&text));
        text.replace_range(0..1, "\u{2}");
        assert!(is_binary_like(&text));
        assert!(is_binary_like("ok\0"));
        assert!(!is_binary_like("tab\there\r\n"));
    }

    #[test]
    fn yaml_candidate_rule() {
        let candidate =
            |output: &str| is_yaml_candidate(output, &|| kinds::code::looks_like_code(output));
        assert!(candidate("  ---\nx"));
        assert!(candidate("\nkey:\n  child: 1\n"));
        assert!(!candidate("key:\nchild: 1\n"));
        // Only the first key line decides.
        assert!(!candidate("a:\nb\nc:\n  d: 1"));
        // A key line that is the last non-blank line is never tried.
        assert!(!candidate("intro text\nkey: # comment\n"));
        assert!(!candidate("import os\nkey:\n  x: 1"));
    }

    #[test]
    fn empty_and_mime_fallbacks() {
        assert_eq!(generate("", "text/plain", 10).title, "Empty output");
        let bad = generate("{nope", "application/JSON", 4);
        assert_eq!(
            (bad.kind.as_str(), bad.title.as_str()),
            ("unknown", "Unparsed JSON-like output")
        );
        assert!(bad.sample.starts_with("--- BEGIN SAMPLE HEAD ---\n{n\n"));
    }
}
