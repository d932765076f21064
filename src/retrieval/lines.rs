//! Line windows over a stored output: `read(ref, { line, lines, maxChars })`.
//!
//! Lines end at `\n` (a `\r` before it stays part of the line, as `cat -n` and `grep -n` see it);
//! a final `\n` does not start an empty line and "" has no lines. Offsets and columns count
//! Unicode code points, like every offset of the reference. A window never holds more than
//! `max_chars` chars: a line that does not fit into an empty window is cut, and the cut says
//! where to continue (line, column and char offset).

use serde::Serialize;

use crate::error::{Error, Result};
use crate::json_fields;
use crate::python::{byte_offset, char_len};
use crate::record::OFFSET_UNIT;

pub const DEFAULT_WINDOW_LINES: i64 = 200;
pub const DEFAULT_WINDOW_MAX_CHARS: i64 = 20_000;
/// The smallest `max_chars`: room for a cut marker and some text.
pub const MIN_WINDOW_MAX_CHARS: i64 = 200;
/// Chars kept free for the cut marker, so that content plus marker stays within `max_chars`.
const CUT_MARKER_RESERVE: usize = 160;

/// Tracks line number and char offset while moving forward through a text, so that a scan that
/// reports positions in order stays linear however long the lines are.
pub struct TextCursor<'a> {
    text: &'a str,
    byte: usize,
    chars: usize,
    line: usize,
    line_start_chars: usize,
}

/// Where a byte index lies: char offset, 1-based line and 1-based column (in chars).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    pub offset: usize,
    pub line: usize,
    pub column: usize,
}

impl<'a> TextCursor<'a> {
    pub fn new(text: &'a str) -> Self {
        TextCursor {
            text,
            byte: 0,
            chars: 0,
            line: 1,
            line_start_chars: 0,
        }
    }

    /// The position of byte index `at` (a char boundary); `at` must not go backwards.
    pub fn advance_to(&mut self, at: usize) -> Position {
        let at = at.clamp(self.byte, self.text.len());
        let span = self.text.get(self.byte..at).unwrap_or("");
        match span.rfind('\n') {
            Some(last_break) => {
                self.line += span.bytes().filter(|&b| b == b'\n').count();
                let (before, after) = span.split_at(last_break + 1);
                self.line_start_chars = self.chars + char_len(before);
                self.chars = self.line_start_chars + char_len(after);
            }
            None => self.chars += char_len(span),
        }
        self.byte = at;
        Position {
            offset: self.chars,
            line: self.line,
            column: self.chars - self.line_start_chars + 1,
        }
    }
}

/// Number of lines (see the module doc).
pub fn line_count(text: &str) -> usize {
    let breaks = text.bytes().filter(|&b| b == b'\n').count();
    breaks + usize::from(!text.is_empty() && !text.ends_with('\n'))
}

/// Byte index where 1-based line `line` starts, or `None` past the last line.
pub fn line_start(text: &str, line: usize) -> Option<usize> {
    let mut start = 0usize;
    for _ in 1..line {
        start += text.get(start..)?.find('\n')? + 1;
    }
    (start < text.len()).then_some(start)
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LineWindowRequest {
    /// 1-based first line (default 1).
    pub line: Option<i64>,
    /// Number of lines (default 200).
    pub lines: Option<i64>,
    /// 1-based char column in the first line to start from (default 1): continues a cut line.
    pub column: Option<i64>,
    pub max_chars: Option<i64>,
    /// Prefix each line with its number, `cat -n` style.
    pub numbered: bool,
}

json_fields::defaulted_struct!(LineWindowRequest, deny_unknown_fields, {
    line: "line",
    lines: "lines",
    column: "column",
    max_chars: "maxChars",
    numbered: "numbered",
});

/// Where to go on reading after a window.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Continuation {
    pub line: usize,
    pub column: usize,
    pub offset: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LineWindow {
    pub content: String,
    pub start_line: usize,
    /// The last line shown (partly, when it was cut); `start_line - 1` for an empty window.
    pub end_line: usize,
    pub total_lines: usize,
    /// Char offset of the first char shown.
    pub start_offset: usize,
    /// Char offset just past the last char shown (the marker is not output text).
    pub end_offset: usize,
    pub offset_unit: &'static str,
    pub total_chars: usize,
    pub has_more: bool,
    /// Whether the last line shown was cut to fit `max_chars`.
    pub cut: bool,
    pub next: Option<Continuation>,
}

struct Checked {
    line: usize,
    lines: usize,
    column: usize,
    max_chars: usize,
    numbered: bool,
}

fn check(request: &LineWindowRequest) -> Result<Checked> {
    let positive = |value: Option<i64>, default: i64, name: &str, min: i64| -> Result<usize> {
        let value = value.unwrap_or(default);
        if value < min {
            return Err(Error::invalid(format!(
                "{name} must be >= {min} (got {value})"
            )));
        }
        Ok(usize::try_from(value).unwrap_or(usize::MAX))
    };
    Ok(Checked {
        line: positive(request.line, 1, "line", 1)?,
        lines: positive(request.lines, DEFAULT_WINDOW_LINES, "lines", 1)?,
        column: positive(request.column, 1, "column", 1)?,
        max_chars: positive(
            request.max_chars,
            DEFAULT_WINDOW_MAX_CHARS,
            "maxChars",
            MIN_WINDOW_MAX_CHARS,
        )?,
        numbered: request.numbered,
    })
}

/// Checks a request without any text (so that the host can fail before loading the output).
pub fn check_request(request: &LineWindowRequest) -> Result<()> {
    check(request).map(|_| ())
}

fn number_prefix(line: usize) -> String {
    format!("{line:>6}\t")
}

/// Lines `line .. line+lines` of `text` (see the module doc).
pub fn read_lines(text: &str, request: &LineWindowRequest) -> Result<LineWindow> {
    let request = check(request)?;
    let total_lines = line_count(text);
    let total_chars = char_len(text);
    let empty = |offset: usize| LineWindow {
        content: String::new(),
        start_line: request.line,
        end_line: request.line - 1,
        total_lines,
        start_offset: offset,
        end_offset: offset,
        offset_unit: OFFSET_UNIT,
        total_chars,
        has_more: false,
        cut: false,
        next: None,
    };
    let Some(first_line_start) = line_start(text, request.line) else {
        return Ok(empty(total_chars));
    };
    let mut cursor = TextCursor::new(text);
    // The column skips chars of the first line, never past its end.
    let first_line_end = text[first_line_start..]
        .find('\n')
        .map_or(text.len(), |i| first_line_start + i);
    let start =
        first_line_start + byte_offset(&text[first_line_start..first_line_end], request.column - 1);
    let start_position = cursor.advance_to(start);
    let budget = request.max_chars.saturating_sub(CUT_MARKER_RESERVE);

    let mut content = String::new();
    let mut used = 0usize;
    let (mut line_number, mut at) = (request.line, start);
    let mut end = start;
    let mut cut = false;
    let mut shown_lines = 0usize;
    while shown_lines < request.lines && at < text.len() {
        let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
        let line_text = &text[at..line_end];
        let prefix = if request.numbered {
            number_prefix(line_number)
        } else {
            String::new()
        };
        let separator = usize::from(shown_lines > 0);
        let needed = separator + char_len(&prefix) + char_len(line_text);
        if used + needed > budget {
            if shown_lines > 0 {
                break;
            }
            // An empty window cannot hold this line: show its head and say where it goes on.
            let room = budget.saturating_sub(used + char_len(&prefix));
            let shown = &line_text[..byte_offset(line_text, room)];
            content.push_str(&prefix);
            content.push_str(shown);
            end = at + shown.len();
            cut = true;
            shown_lines += 1;
            break;
        }
        if separator == 1 {
            content.push('\n');
        }
        content.push_str(&prefix);
        content.push_str(line_text);
        used += needed;
        end = line_end;
        shown_lines += 1;
        line_number += 1;
        at = line_end + 1;
    }
    let end_position = cursor.advance_to(end);
    // No line shown (a column past the end of the last line): an empty window, as past the end.
    let end_line = (request.line + shown_lines) - 1;
    let has_more = end_position.offset < total_chars && (cut || end_line < total_lines);
    let next = has_more.then(|| {
        if cut {
            Continuation {
                line: end_line,
                column: end_position.column,
                offset: end_position.offset,
            }
        } else {
            // The next line starts just after the `\n` that ends this window.
            Continuation {
                line: end_line + 1,
                column: 1,
                offset: end_position.offset + 1,
            }
        }
    });
    if cut {
        let line_end = text[end..].find('\n').map_or(text.len(), |i| end + i);
        let left = char_len(&text[end..line_end]);
        content.push_str(&format!(
            "\n[... line {end_line} cut: {left} more chars; continue with line={end_line} column={} (char offset {})]",
            end_position.column, end_position.offset
        ));
    }
    Ok(LineWindow {
        content,
        start_line: request.line,
        end_line,
        total_lines,
        start_offset: start_position.offset,
        end_offset: end_position.offset,
        offset_unit: OFFSET_UNIT,
        total_chars,
        has_more,
        cut,
        next,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(text: &str, line: i64, lines: i64) -> LineWindow {
        read_lines(
            text,
            &LineWindowRequest {
                line: Some(line),
                lines: Some(lines),
                ..Default::default()
            },
        )
        .expect("valid request")
    }

    /// Fuzz finding (target `lines`): a column past the end of the last line showed nothing but
    /// reported that line as shown (`end_line == start_line`, and no number when `numbered`).
    #[test]
    fn a_column_past_the_end_of_the_last_line_is_an_empty_window() {
        for numbered in [false, true] {
            let w = read_lines(
                "ab\ncd",
                &LineWindowRequest {
                    line: Some(2),
                    column: Some(10),
                    numbered,
                    ..Default::default()
                },
            )
            .expect("valid request");
            assert_eq!(w.content, "");
            assert_eq!((w.start_line, w.end_line), (2, 1));
            assert_eq!((w.start_offset, w.end_offset, w.has_more), (5, 5, false));
        }
    }

    #[test]
    fn counts_lines_like_wc_with_a_last_unterminated_line() {
        assert_eq!(line_count(""), 0);
        assert_eq!(line_count("a"), 1);
        assert_eq!(line_count("a\n"), 1);
        assert_eq!(line_count("a\n\nb"), 3);
    }

    #[test]
    fn windows_report_lines_and_char_offsets() {
        let text = "one\n😀two\nthree\nfour";
        let w = window(text, 2, 2);
        assert_eq!(w.content, "😀two\nthree");
        assert_eq!((w.start_line, w.end_line, w.total_lines), (2, 3, 4));
        assert_eq!((w.start_offset, w.end_offset, w.total_chars), (4, 14, 19));
        assert!(w.has_more && !w.cut);
        assert_eq!(
            w.next,
            Some(Continuation {
                line: 4,
                column: 1,
                offset: 15
            })
        );
        let chars: Vec<char> = text.chars().collect();
        assert_eq!(
            chars[w.start_offset..w.end_offset]
                .iter()
                .collect::<String>(),
            w.content
        );
        let last = window(text, 4, 10);
        assert_eq!(
            (last.content.as_str(), last.has_more, last.next.clone()),
            ("four", false, None)
        );
        let past = window(text, 9, 1);
        assert_eq!(
            (past.content.as_str(), past.end_line, past.has_more),
            ("", 8, false)
        );
    }

    #[test]
    fn numbered_lines_look_like_cat_n() {
        let request = LineWindowRequest {
            line: Some(9),
            lines: Some(2),
            numbered: true,
            ..Default::default()
        };
        let text: String = (1..=12).map(|i| format!("l{i}\n")).collect();
        let w = read_lines(&text, &request).expect("valid");
        assert_eq!(w.content, "     9\tl9\n    10\tl10");
    }

    #[test]
    fn an_enormous_line_is_cut_and_continues_by_column() {
        let text = format!("head\n{}\ntail", "x😀".repeat(5_000));
        let request = LineWindowRequest {
            line: Some(2),
            max_chars: Some(1_000),
            ..Default::default()
        };
        let w = read_lines(&text, &request).expect("valid");
        assert!(char_len(&w.content) <= 1_000, "{}", char_len(&w.content));
        assert!(w.cut && w.has_more);
        assert!(w.content.contains(
            "line 2 cut: 9160 more chars; continue with line=2 column=841 (char offset 845)"
        ));
        let next = w.next.clone().expect("continues");
        assert_eq!(
            next,
            Continuation {
                line: 2,
                column: 841,
                offset: 845
            }
        );
        let again = LineWindowRequest {
            line: Some(2),
            column: Some(841),
            max_chars: Some(1_000),
            ..Default::default()
        };
        let w2 = read_lines(&text, &again).expect("valid");
        assert_eq!(w2.start_offset, 845);
        assert!(w2.content.starts_with("x😀"));
    }

    #[test]
    fn a_line_that_does_not_fit_after_others_starts_the_next_window() {
        let text = format!("a\nb\n{}\n", "y".repeat(500));
        let request = LineWindowRequest {
            max_chars: Some(300),
            ..Default::default()
        };
        let w = read_lines(&text, &request).expect("valid");
        assert_eq!((w.content.as_str(), w.end_line, w.cut), ("a\nb", 2, false));
        assert_eq!(
            w.next,
            Some(Continuation {
                line: 3,
                column: 1,
                offset: 4
            })
        );
    }

    #[test]
    fn bad_requests_are_invalid_arguments() {
        for request in [
            LineWindowRequest {
                line: Some(0),
                ..Default::default()
            },
            LineWindowRequest {
                lines: Some(0),
                ..Default::default()
            },
            LineWindowRequest {
                column: Some(0),
                ..Default::default()
            },
            LineWindowRequest {
                max_chars: Some(10),
                ..Default::default()
            },
        ] {
            assert!(read_lines("x", &request).is_err());
        }
    }
}
