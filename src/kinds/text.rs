//! `text` kind (SPEC 3.6), the final fallback: counts, section headers and fixed 500-char
//! opening and closing excerpts (never the whole text).

use std::sync::OnceLock;

use regex::Regex;

use crate::kinds::code::python_regex;
use crate::pyutil::{
    char_len, last_chars, one_line, py_splitlines, py_strip, py_words, take_chars,
};
use crate::synopsis::Synopsis;

const MAX_HEADERS: usize = 18;
const MAX_HEADER_CHARS: i64 = 160;
const EXCERPT_CHARS: usize = 500;

fn header_pattern() -> &'static Regex {
    static PATTERN: OnceLock<Regex> = OnceLock::new();
    PATTERN.get_or_init(|| python_regex(r"^#{1,6}{s}+|^[A-Z0-9][A-Z0-9{s}:_-]{6,}$"))
}

fn section_headers(output: &str) -> Vec<String> {
    let mut headers: Vec<String> = Vec::new();
    for line in py_splitlines(output) {
        let line = py_strip(line);
        if char_len(line) <= 1 || !header_pattern().is_match(line) {
            continue;
        }
        let header = one_line(line, MAX_HEADER_CHARS);
        if !headers.contains(&header) {
            headers.push(header);
            if headers.len() == MAX_HEADERS {
                break;
            }
        }
    }
    headers
}

fn excerpt(chars: &str) -> String {
    let line = one_line(chars, EXCERPT_CHARS as i64);
    if line.is_empty() {
        "(empty)".to_string()
    } else {
        line
    }
}

pub fn synopsis(output: &str) -> Synopsis {
    let headers = section_headers(output);
    let headers = if headers.is_empty() { "none detected".to_string() } else { headers.join(" | ") };
    let mut synopsis = Synopsis::new("text", "Text output");
    synopsis.summary = vec![
        "Text exploration summary:".to_string(),
        format!("Characters: {}.", char_len(output)),
        format!("Words: {}.", py_words(output).count()),
        format!("Lines: {}.", py_splitlines(output).count()),
        format!("Detected section headers: {headers}."),
        format!("Opening excerpt: {}.", excerpt(take_chars(output, EXCERPT_CHARS))),
        format!("Closing excerpt: {}.", excerpt(last_chars(output, EXCERPT_CHARS))),
    ];
    synopsis
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_markdown_and_caps_deduplicated() {
        let s = synopsis("# Title\nSYSTEM STATUS\n# Title\nShort\nAB\n#nospace\n");
        assert_eq!(s.summary[4], "Detected section headers: # Title | SYSTEM STATUS.");
    }

    #[test]
    fn counts_and_excerpts() {
        let s = synopsis("a b\r\nc");
        assert_eq!(s.summary[1..4], ["Characters: 6.", "Words: 3.", "Lines: 2."]);
        assert_eq!(s.summary[5], "Opening excerpt: a b c.");
        assert_eq!(synopsis("   ").summary[5], "Opening excerpt: (empty).");
    }
}
