//! `text` kind (SPEC 3.6), the final fallback: counts, section headers and fixed 500-char
//! opening and closing excerpts (never the whole text).

use super::Synopsis;
use crate::python::{
    char_len, is_py_space, last_chars, one_line, py_splitlines, py_strip, py_word_count, take_chars,
};

const MAX_HEADERS: usize = 18;
const MAX_HEADER_CHARS: i64 = 160;
pub(crate) const EXCERPT_CHARS: usize = 500;

/// The reference's header pattern `^#{1,6}\s+|^[A-Z0-9][A-Z0-9\s:_-]{6,}$` on a stripped line,
/// hand-written: it runs on every line of every text output.
fn is_header(line: &str) -> bool {
    let hashes = line.len() - line.trim_start_matches('#').len();
    if (1..=6).contains(&hashes) {
        return line[hashes..].starts_with(is_py_space);
    }
    let mut chars = line.chars();
    let caps = |c: char| c.is_ascii_uppercase() || c.is_ascii_digit();
    // The class test before the count: log lines start with a digit and fail it within a few
    // chars, where counting would read each whole.
    chars.next().is_some_and(caps)
        && chars
            .clone()
            .all(|c| caps(c) || is_py_space(c) || matches!(c, ':' | '_' | '-'))
        && chars.count() >= 6
}

/// The section headers (at most 18, in order, duplicates dropped) and the number of lines, in
/// one pass over the lines.
fn headers_and_line_count(output: &str) -> (Vec<String>, usize) {
    let mut headers: Vec<String> = Vec::new();
    let mut lines = 0;
    for line in py_splitlines(output) {
        lines += 1;
        if headers.len() == MAX_HEADERS {
            continue;
        }
        let line = py_strip(line);
        // `is_header` first: it rejects most lines at their first char, `char_len` reads them whole.
        if !is_header(line) || char_len(line) <= 1 {
            continue;
        }
        let header = one_line(line, MAX_HEADER_CHARS);
        if !headers.contains(&header) {
            headers.push(header);
        }
    }
    (headers, lines)
}

pub(crate) fn excerpt(chars: &str) -> String {
    let line = one_line(chars, EXCERPT_CHARS as i64);
    if line.is_empty() {
        "(empty)".to_string()
    } else {
        line
    }
}

pub fn synopsis(output: &str) -> Synopsis {
    let (headers, lines) = headers_and_line_count(output);
    let headers = if headers.is_empty() {
        "none detected".to_string()
    } else {
        headers.join(" | ")
    };
    let mut synopsis = Synopsis::new("text", "Text output");
    synopsis.summary = vec![
        "Text exploration summary:".to_string(),
        format!("Characters: {}.", char_len(output)),
        format!("Words: {}.", py_word_count(output)),
        format!("Lines: {lines}."),
        format!("Detected section headers: {headers}."),
        format!(
            "Opening excerpt: {}.",
            excerpt(take_chars(output, EXCERPT_CHARS))
        ),
        format!(
            "Closing excerpt: {}.",
            excerpt(last_chars(output, EXCERPT_CHARS))
        ),
    ];
    synopsis
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_markdown_and_caps_deduplicated() {
        let s = synopsis("# Title\nSYSTEM STATUS\n# Title\nShort\nAB\n#nospace\n");
        assert_eq!(
            s.summary[4],
            "Detected section headers: # Title | SYSTEM STATUS."
        );
        for header in ["# a", "###### a", "#\u{3000}x", "ABCDEFG", "A1 B:_-\u{a0}C"] {
            assert!(is_header(header), "{header:?}");
        }
        for plain in ["####### a", "#a", "ABCDEF", "ABCDEFg", "aBCDEFG", "ÀBCDEFG"] {
            assert!(!is_header(plain), "{plain:?}");
        }
    }

    #[test]
    fn header_matcher_agrees_with_the_reference_pattern() {
        let space = crate::python::PY_SPACE_CLASS;
        let reference = regex::Regex::new(&format!(
            r"^#{{1,6}}[{space}]+|^[A-Z0-9][A-Z0-9{space}:_-]{{6,}}$"
        ))
        .unwrap();
        let pieces = [
            "#",
            "A",
            "7",
            " ",
            ":_-",
            "a",
            "\u{3000}",
            "é",
            "ABC",
            "2026-11-30T05",
        ];
        for line in crate::test_support::joined_pieces(&pieces) {
            assert_eq!(is_header(&line), reference.is_match(&line), "{line:?}");
        }
    }

    #[test]
    fn counts_and_excerpts() {
        let s = synopsis("a b\r\nc");
        assert_eq!(
            s.summary[1..4],
            ["Characters: 6.", "Words: 3.", "Lines: 2."]
        );
        assert_eq!(s.summary[5], "Opening excerpt: a b c.");
        assert_eq!(synopsis("   ").summary[5], "Opening excerpt: (empty).");
    }
}
