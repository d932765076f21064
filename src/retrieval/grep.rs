//! Grep over one stored output: `search(ref, { query, regex, ignoreCase, wholeWord, limit,
//! contextChars | contextLines })`.
//!
//! With none of the new options the matches are the reference's (case-sensitive literal,
//! non-overlapping, `context_chars` around each), plus where each lies (line, column) and the
//! count of all matches. Regexes use the `regex-lite` crate (chosen over `regex` for the size of
//! the shipped wasm): a Pike VM, no unbounded backtracking, so a single search is linear in the
//! input whatever the pattern (`(a+)+$` included), and the compiled program is bounded by
//! [`REGEX_SIZE_LIMIT`]. Its `\w`, `\b`, `\d`, `\s` and case folding are ASCII-only. `^` and `$` match at line starts and ends
//! (multi-line mode), as in grep.

use regex_lite::{Regex, RegexBuilder};
use serde::Serialize;

use super::lines::TextCursor;
use super::{
    back_chars, check_search_args, forward_chars, DEFAULT_CONTEXT_CHARS, DEFAULT_SEARCH_LIMIT,
};
use crate::error::{Error, Result};
use crate::json_fields;
use crate::python::char_len;
use crate::record::OFFSET_UNIT;

/// Longest pattern accepted, in chars.
pub const MAX_PATTERN_CHARS: usize = 4_096;
/// Bound on the compiled regex program (bytes).
pub const REGEX_SIZE_LIMIT: usize = 8 << 20;
/// With `context_lines`, a snippet reaches at most this many chars to either side of the match.
pub const MAX_CONTEXT_LINE_CHARS: usize = 1_000;

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GrepRequest {
    pub query: String,
    /// `query` is a regular expression (`regex-lite` syntax) rather than literal text.
    pub regex: bool,
    pub ignore_case: bool,
    /// Only matches not preceded nor followed by an ASCII word char (`\w`).
    pub whole_word: bool,
    pub limit: Option<i64>,
    pub context_chars: Option<i64>,
    /// Whole lines of context around the match's lines instead of `context_chars`.
    pub context_lines: Option<i64>,
}

json_fields::defaulted_struct!(GrepRequest, deny_unknown_fields, {
    query: "query",
    regex: "regex",
    ignore_case: "ignoreCase",
    whole_word: "wholeWord",
    limit: "limit",
    context_chars: "contextChars",
    context_lines: "contextLines",
});

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GrepMatch {
    pub offset: usize,
    pub offset_unit: &'static str,
    pub snippet: String,
    /// 1-based line (lines end at `\n`).
    pub line: usize,
    /// 1-based column in chars.
    pub column: usize,
    /// Length of the match in chars.
    pub length: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GrepResult {
    pub matches: Vec<GrepMatch>,
    /// Every match in the output, also those beyond `limit`.
    pub total_matches: usize,
}

enum Context {
    Chars(usize),
    Lines(usize),
}

enum Matcher {
    /// The reference's matching: case-sensitive, literal.
    Literal(String),
    Pattern(Regex),
}

impl Matcher {
    /// The first match starting at or after byte `from`, as a byte range.
    fn find_at(&self, text: &str, from: usize) -> Option<(usize, usize)> {
        match self {
            Matcher::Literal(query) => {
                let start = from + text.get(from..)?.find(query.as_str())?;
                Some((start, start + query.len()))
            }
            Matcher::Pattern(regex) => regex.find_at(text, from).map(|m| (m.start(), m.end())),
        }
    }
}

/// A checked request, ready to run over any number of outputs.
pub struct Grep {
    matcher: Matcher,
    limit: usize,
    context: Context,
}

fn build_regex(request: &GrepRequest) -> Result<Regex> {
    let body = if request.regex {
        request.query.clone()
    } else {
        regex_lite::escape(&request.query)
    };
    // Half word boundaries: the match may start or end with a non-word char (`-x`, `a.`) and
    // still only match as a whole word, like `grep -w`.
    let pattern = if request.whole_word {
        format!(r"\b{{start-half}}(?:{body})\b{{end-half}}")
    } else {
        body
    };
    RegexBuilder::new(&pattern)
        .case_insensitive(request.ignore_case)
        .multi_line(true)
        .size_limit(REGEX_SIZE_LIMIT)
        .build()
        .map_err(|e| Error::invalid(format!("invalid regex {:?}: {e}", request.query)))
}

impl Grep {
    pub fn new(request: &GrepRequest) -> Result<Grep> {
        let limit = request.limit.unwrap_or(DEFAULT_SEARCH_LIMIT);
        check_search_args(&request.query, limit)?;
        if char_len(&request.query) > MAX_PATTERN_CHARS {
            return Err(Error::invalid(format!(
                "query must be at most {MAX_PATTERN_CHARS} chars"
            )));
        }
        let context = match (request.context_chars, request.context_lines) {
            (Some(_), Some(_)) => {
                return Err(Error::invalid(
                    "give contextChars or contextLines, not both",
                ))
            }
            (_, Some(lines)) if lines < 0 => {
                return Err(Error::invalid(format!(
                    "contextLines must be >= 0 (got {lines})"
                )))
            }
            (_, Some(lines)) => Context::Lines(usize::try_from(lines).unwrap_or(usize::MAX)),
            (chars, None) => Context::Chars(
                usize::try_from(chars.unwrap_or(DEFAULT_CONTEXT_CHARS).max(0))
                    .unwrap_or(usize::MAX),
            ),
        };
        let matcher = if request.regex || request.ignore_case || request.whole_word {
            Matcher::Pattern(build_regex(request)?)
        } else {
            Matcher::Literal(request.query.clone())
        };
        Ok(Grep {
            matcher,
            limit: usize::try_from(limit).unwrap_or(usize::MAX),
            context,
        })
    }

    /// The first `limit` matches of `text`, left to right, non-overlapping, and the count of all.
    pub fn run(&self, text: &str) -> GrepResult {
        let mut matches = Vec::new();
        let mut total_matches = 0usize;
        let mut cursor = TextCursor::new(text);
        let mut from = 0usize;
        while let Some((start, end)) = self.matcher.find_at(text, from) {
            total_matches += 1;
            if matches.len() < self.limit {
                let position = cursor.advance_to(start);
                let (snippet_start, snippet_end) = self.snippet_range(text, start, end);
                matches.push(GrepMatch {
                    offset: position.offset,
                    offset_unit: OFFSET_UNIT,
                    snippet: text[snippet_start..snippet_end].to_string(),
                    line: position.line,
                    column: position.column,
                    length: char_len(&text[start..end]),
                });
            }
            // An empty match moves on by one char so the scan always advances.
            from = if end > start {
                end
            } else {
                end + text[end..].chars().next().map_or(1, char::len_utf8)
            };
            if from > text.len() {
                break;
            }
        }
        GrepResult {
            matches,
            total_matches,
        }
    }

    fn snippet_range(&self, text: &str, start: usize, end: usize) -> (usize, usize) {
        match self.context {
            Context::Chars(context) => (
                back_chars(text, start, context),
                forward_chars(text, end, context),
            ),
            Context::Lines(lines) => {
                let low = back_chars(text, start, MAX_CONTEXT_LINE_CHARS);
                let high = forward_chars(text, end, MAX_CONTEXT_LINE_CHARS);
                // The start of the line `lines` above the match's, within the bound.
                let (mut snippet_start, mut pos) = (low, start);
                for step in 0..=lines {
                    let Some(at) = text[low..pos].rfind('\n') else {
                        break;
                    };
                    if step == lines {
                        snippet_start = low + at + 1;
                        break;
                    }
                    pos = low + at;
                }
                // The end of the line `lines` below the match's, within the bound.
                let (mut snippet_end, mut pos) = (high, end);
                for step in 0..=lines {
                    let Some(at) = text[pos..high].find('\n') else {
                        break;
                    };
                    if step == lines {
                        snippet_end = pos + at;
                        break;
                    }
                    pos += at + 1;
                }
                (snippet_start, snippet_end)
            }
        }
    }
}

/// `search` with the grep options over one output.
pub fn grep(text: &str, request: &GrepRequest) -> Result<GrepResult> {
    Ok(Grep::new(request)?.run(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(query: &str) -> GrepRequest {
        GrepRequest {
            query: query.into(),
            ..Default::default()
        }
    }

    #[test]
    fn defaults_match_the_reference_search() {
        let text = "aaaa😀aa\nxx aa\n".repeat(30);
        for (limit, context) in [(20, 300), (5, 1), (100, 0)] {
            let reference = super::super::search(&text, "aa", limit, context).expect("valid");
            let ours = grep(
                &text,
                &GrepRequest {
                    limit: Some(limit),
                    context_chars: Some(context),
                    ..request("aa")
                },
            )
            .expect("valid");
            let projected: Vec<_> = ours
                .matches
                .iter()
                .map(|m| (m.offset, m.snippet.clone()))
                .collect();
            let expected: Vec<_> = reference
                .iter()
                .map(|m| (m.offset, m.snippet.clone()))
                .collect();
            assert_eq!(projected, expected);
            assert_eq!(ours.total_matches, 30 * 4);
        }
    }

    #[test]
    fn astral_chars_count_once_in_offsets_and_columns() {
        let found = grep("😀😀x\n😀y x", &request("x")).expect("valid");
        let where_: Vec<_> = found
            .matches
            .iter()
            .map(|m| (m.offset, m.line, m.column))
            .collect();
        assert_eq!(where_, [(2, 1, 3), (7, 2, 4)]);
    }

    #[test]
    fn regex_ignore_case_and_whole_word() {
        let text = "Error: x\nerror-code\nterrors\nERROR";
        let regex = GrepRequest {
            regex: true,
            ignore_case: true,
            ..request(r"^error\b")
        };
        let found = grep(text, &regex).expect("valid");
        assert_eq!(
            found.matches.iter().map(|m| m.line).collect::<Vec<_>>(),
            [1, 2, 4]
        );
        assert_eq!(found.matches[0].length, 5);
        let words = GrepRequest {
            whole_word: true,
            ignore_case: true,
            ..request("error")
        };
        assert_eq!(grep(text, &words).expect("valid").total_matches, 3);
        let dashed = GrepRequest {
            whole_word: true,
            ..request("-code")
        };
        assert_eq!(grep(text, &dashed).expect("valid").total_matches, 0);
        assert_eq!(
            grep("see -code here", &dashed)
                .expect("valid")
                .total_matches,
            1
        );
    }

    #[test]
    fn total_counts_beyond_the_limit() {
        let found = grep(
            &"x ".repeat(1_000),
            &GrepRequest {
                limit: Some(3),
                ..request("x")
            },
        )
        .expect("valid");
        assert_eq!((found.matches.len(), found.total_matches), (3, 1_000));
    }

    #[test]
    fn context_lines_give_whole_lines_around_the_match() {
        let text = "l1\nl2\nl3 hit\nl4\nl5";
        let found = grep(
            text,
            &GrepRequest {
                context_lines: Some(1),
                ..request("hit")
            },
        )
        .expect("valid");
        assert_eq!(found.matches[0].snippet, "l2\nl3 hit\nl4");
        let none = grep(
            text,
            &GrepRequest {
                context_lines: Some(0),
                ..request("hit")
            },
        )
        .expect("valid");
        assert_eq!(none.matches[0].snippet, "l3 hit");
        let first = grep(
            text,
            &GrepRequest {
                context_lines: Some(5),
                ..request("l1")
            },
        )
        .expect("valid");
        assert_eq!(first.matches[0].snippet, text);
    }

    /// The documented regex-lite semantics: case folding and word chars are ASCII-only.
    #[test]
    fn ignore_case_and_whole_word_are_ascii_only() {
        let count =
            |text: &str, request: GrepRequest| grep(text, &request).expect("valid").total_matches;
        assert_eq!(
            count(
                "ERROR error",
                GrepRequest {
                    ignore_case: true,
                    ..request("Error")
                }
            ),
            2
        );
        assert_eq!(
            count(
                "É é",
                GrepRequest {
                    ignore_case: true,
                    ..request("é")
                }
            ),
            1
        );
        // `é` is not a word char, so `caf` is a whole word in both.
        assert_eq!(
            count(
                "caféx café",
                GrepRequest {
                    whole_word: true,
                    ..request("caf")
                }
            ),
            2
        );
        assert!(grep(
            "cafe",
            &GrepRequest {
                regex: true,
                ..request(r"\p{L}")
            }
        )
        .is_err());
    }

    #[test]
    fn empty_regex_matches_advance() {
        let found = grep(
            "ab",
            &GrepRequest {
                regex: true,
                ..request("x*")
            },
        )
        .expect("valid");
        assert_eq!(found.total_matches, 3);
    }

    #[test]
    fn bad_input_is_invalid_argument() {
        let bad = grep(
            "x",
            &GrepRequest {
                regex: true,
                ..request("(a")
            },
        )
        .expect_err("bad regex");
        assert!(
            bad.message.contains("invalid regex") && bad.message.contains("open group"),
            "{}",
            bad.message
        );
        assert!(grep(
            "x",
            &GrepRequest {
                context_chars: Some(1),
                context_lines: Some(1),
                ..request("x")
            }
        )
        .is_err());
        assert!(grep(
            "x",
            &GrepRequest {
                regex: true,
                ..request(&"a{1000}{1000}".repeat(3))
            }
        )
        .is_err());
        assert!(grep("x", &request("")).is_err());
    }

    #[test]
    fn hostile_regex_stays_linear() {
        let text = "a".repeat(100_000);
        let found = grep(
            &text,
            &GrepRequest {
                regex: true,
                ..request("(a+)+$")
            },
        )
        .expect("valid");
        assert_eq!((found.total_matches, found.matches[0].offset), (1, 0));
    }
}
