//! Grep over one stored output: `search(ref, { query, regex, ignoreCase, wholeWord, limit,
//! contextChars | contextLines })`.
//!
//! With none of the new options the matches are the reference's (case-sensitive literal,
//! non-overlapping, `context_chars` around each), plus where each lies (line, column) and the
//! count of all matches. This module holds what every search shares: the checked options, the
//! scan (left to right, non-overlapping, an empty match moves on one char), positions, snippets
//! and their budget. The literal matcher lives here; regexes, case folding and whole words are
//! matched by the grep module (`bindings/grep`, a second wasm module with the `regex` engine and its
//! Unicode tables, loaded on the first search that needs it), which plugs its matcher into
//! [`run`] through [`Matcher`].

use serde::Serialize;

use super::lines::TextCursor;
use super::{check_search_args, DEFAULT_CONTEXT_CHARS, DEFAULT_SEARCH_LIMIT};
use crate::error::{Error, Result};
use crate::json_fields;
use crate::python::char_len;
use crate::record::OFFSET_UNIT;

/// Longest pattern accepted, in chars.
pub const MAX_PATTERN_CHARS: usize = 4_096;
/// With `context_lines`, a snippet reaches at most this many chars to either side of the match.
pub const MAX_CONTEXT_LINE_CHARS: usize = 1_000;
/// The snippets of one search share this many chars: a match whose snippet would pass it is not
/// listed (it still counts in `total_matches`), and a first snippet larger than it is cut to it.
/// Bounds what a model's `limit` x `contextChars` can make the core allocate.
pub const MAX_SNIPPET_CHARS: usize = 1 << 20;

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GrepRequest {
    pub query: String,
    /// `query` is a regular expression rather than literal text.
    pub regex: bool,
    pub ignore_case: bool,
    /// Only matches not preceded nor followed by a word char (`\w`).
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

impl GrepRequest {
    /// Whether the request is the reference's literal, case-sensitive search, which this crate
    /// matches itself; anything else needs the grep module's engine.
    pub fn is_literal(&self) -> bool {
        !(self.regex || self.ignore_case || self.whole_word)
    }
}

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
    /// Set when the listed matches stop before `limit` for another reason than the end of the
    /// matches (the snippet budget, the grep module's work budget): what happened and what to do.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Context {
    Chars(usize),
    Lines(usize),
}

/// How a matcher finds matches; [`run`] drives it over the text.
pub trait Matcher {
    /// The first match starting at or after byte `from` (a char boundary), as a byte range.
    fn find_at(&mut self, text: &str, from: usize) -> Option<(usize, usize)>;

    /// Called between matches: `Some(why)` stops the scan (a work budget ran out). Matches found
    /// so far are kept and `why` becomes the result's note.
    fn stop(&mut self) -> Option<String> {
        None
    }
}

/// The reference's matching: case-sensitive, literal.
pub struct Literal<'a>(pub &'a str);

impl Matcher for Literal<'_> {
    fn find_at(&mut self, text: &str, from: usize) -> Option<(usize, usize)> {
        let start = from + text.get(from..)?.find(self.0)?;
        Some((start, start + self.0.len()))
    }
}

/// A request's checked options: everything but the pattern itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GrepOptions {
    limit: usize,
    context: Context,
}

impl GrepOptions {
    pub fn new(request: &GrepRequest) -> Result<GrepOptions> {
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
        Ok(GrepOptions {
            limit: usize::try_from(limit).unwrap_or(usize::MAX),
            context,
        })
    }
}

/// Checks a request this crate can run itself (a literal one) or whose options are sound before
/// the grep module checks its pattern.
pub fn check(request: &GrepRequest) -> Result<GrepOptions> {
    GrepOptions::new(request)
}

/// The first `limit` matches of `text`, left to right, non-overlapping, and the count of all.
pub fn run(matcher: &mut dyn Matcher, options: &GrepOptions, text: &str) -> GrepResult {
    let mut matches = Vec::new();
    let mut total_matches = 0usize;
    let mut cursor = TextCursor::new(text);
    let mut snippet_budget = MAX_SNIPPET_CHARS;
    let mut note = None;
    let mut listing = true;
    let mut from = 0usize;
    loop {
        let found = match matcher.stop() {
            None => matcher.find_at(text, from),
            Some(_) => None,
        };
        let Some((start, end)) = found else {
            if let Some(why) = matcher.stop() {
                let stopped_at = cursor.advance_to(from).offset;
                let stopped = format!(
                    "{why}; it stopped at char offset {stopped_at}: matches and totalMatches cover the text before it (narrow the pattern, or read on from there)"
                );
                // A snippet-budget note stays: both say why fewer matches are listed.
                note = Some(match note {
                    Some(earlier) => format!("{earlier}. {stopped}"),
                    None => stopped,
                });
            }
            break;
        };
        total_matches += 1;
        if listing && matches.len() < options.limit {
            match snippet_range(
                text,
                options.context,
                start,
                end,
                snippet_budget,
                matches.is_empty(),
            ) {
                Some((snippet_start, snippet_end, chars)) => {
                    snippet_budget -= chars.min(snippet_budget);
                    let position = cursor.advance_to(start);
                    matches.push(GrepMatch {
                        offset: position.offset,
                        offset_unit: OFFSET_UNIT,
                        snippet: text[snippet_start..snippet_end].to_string(),
                        line: position.line,
                        column: position.column,
                        length: char_len(&text[start..end]),
                    });
                }
                None => {
                    listing = false;
                    note = Some(format!(
                        "matches after the first {} are not listed: their snippets would pass {MAX_SNIPPET_CHARS} chars in all (totalMatches counts them); lower contextChars or limit",
                        matches.len()
                    ));
                }
            }
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
        note,
    }
}

/// Byte index at most `count` chars before `at`, and the chars walked.
fn back_counted(text: &str, at: usize, count: usize) -> (usize, usize) {
    let mut walked = 0usize;
    let mut index = at;
    for (i, _) in text[..at].char_indices().rev().take(count) {
        index = i;
        walked += 1;
    }
    (index, walked)
}

/// Byte index at most `count` chars after `at`, and the chars walked.
fn forward_counted(text: &str, at: usize, count: usize) -> (usize, usize) {
    let mut walked = 0usize;
    let mut index = at;
    for c in text[at..].chars().take(count) {
        index += c.len_utf8();
        walked += 1;
    }
    (index, walked)
}

/// The snippet of match `start..end` as a byte range and its length in chars, if it fits
/// `budget` chars; a `first` snippet that does not fit is cut to it (context first, then the
/// match's tail). Walks at most `budget` chars to each side, whatever the context asked for.
fn snippet_range(
    text: &str,
    context: Context,
    start: usize,
    end: usize,
    budget: usize,
    first: bool,
) -> Option<(usize, usize, usize)> {
    // The match's chars, counted only as far as the budget (a match may be megabytes long).
    let (match_end, match_chars) = forward_counted(&text[..end], start, budget.saturating_add(1));
    let (low, high) = match context {
        Context::Chars(chars) => {
            let side = chars.min(budget);
            (
                back_counted(text, start, side),
                forward_counted(text, end, side),
            )
        }
        Context::Lines(lines) => {
            let side = MAX_CONTEXT_LINE_CHARS.min(budget);
            let (low, _) = back_counted(text, start, side);
            let (high, _) = forward_counted(text, end, side);
            let (snippet_start, snippet_end) = line_context(text, lines, low, high, start, end);
            (
                (snippet_start, char_len(&text[snippet_start..start])),
                (snippet_end, char_len(&text[end..snippet_end])),
            )
        }
    };
    let ((snippet_start, before), (snippet_end, after)) = (low, high);
    let chars = before + match_chars + after;
    if chars <= budget && match_end == end {
        return Some((snippet_start, snippet_end, chars));
    }
    if !first {
        return None;
    }
    // The first match is always listed: its snippet keeps the match's start and as much around
    // it as the budget allows.
    let side = budget.saturating_sub(match_chars) / 2;
    let (cut_start, before) = back_counted(text, start, before.min(side));
    let (cut_match_end, match_chars) =
        forward_counted(&text[..end], start, match_chars.min(budget - before));
    let cut_end = if cut_match_end == end {
        forward_counted(text, end, after.min(budget - before - match_chars)).0
    } else {
        cut_match_end
    };
    Some((cut_start, cut_end, char_len(&text[cut_start..cut_end])))
}

/// With `context_lines`: from the start of the line `lines` above the match's to the end of the
/// line `lines` below it, within `low..high`.
fn line_context(
    text: &str,
    lines: usize,
    low: usize,
    high: usize,
    start: usize,
    end: usize,
) -> (usize, usize) {
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

/// The literal, case-sensitive `search` over one output; other requests need the grep module.
pub fn grep(text: &str, request: &GrepRequest) -> Result<GrepResult> {
    let options = check(request)?;
    if !request.is_literal() {
        return Err(Error::invalid(
            "regex, ignoreCase and wholeWord searches run in the grep module (js/grep-module.js), not in the core",
        ));
    }
    Ok(run(&mut Literal(&request.query), &options, text))
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
            assert_eq!(ours.note, None);
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

    /// `limit: 10000, contextChars: 100000` over 1 MB built every snippet (~2 GB) and
    /// ran the wasm core out of memory. Failed before the snippet budget.
    #[test]
    fn snippets_share_a_budget_and_the_rest_is_counted() {
        let text = "x".repeat(1 << 20);
        let found = grep(
            &text,
            &GrepRequest {
                limit: Some(10_000),
                context_chars: Some(100_000),
                ..request("x")
            },
        )
        .expect("valid");
        let listed: usize = found.matches.iter().map(|m| char_len(&m.snippet)).sum();
        assert!(listed <= MAX_SNIPPET_CHARS, "{listed}");
        assert!(found.matches.len() >= 5 && found.matches.len() < 10_000);
        assert_eq!(found.total_matches, 1 << 20);
        let note = found.note.expect("says what was left out");
        assert!(
            note.contains("not listed") && note.contains("contextChars"),
            "{note}"
        );
        // The listed snippets are exact, not cut.
        assert!(found
            .matches
            .iter()
            .all(|m| char_len(&m.snippet) == m.offset.min(100_000) + 1 + 100_000));
    }

    #[test]
    fn a_first_snippet_larger_than_the_budget_is_cut_around_the_match() {
        let text = format!("{}needle{}", "a".repeat(3 << 20), "b".repeat(3 << 20));
        let found = grep(
            &text,
            &GrepRequest {
                context_chars: Some(i64::MAX),
                ..request("needle")
            },
        )
        .expect("valid");
        let snippet = &found.matches[0].snippet;
        assert!(char_len(snippet) <= MAX_SNIPPET_CHARS && snippet.contains("needle"));
        assert!(snippet.starts_with('a') && snippet.ends_with('b'));
        assert_eq!(found.matches[0].offset, 3 << 20);
    }

    #[test]
    fn non_literal_requests_are_left_to_the_grep_module() {
        for flags in [
            (true, false, false),
            (false, true, false),
            (false, false, true),
        ] {
            let request = GrepRequest {
                regex: flags.0,
                ignore_case: flags.1,
                whole_word: flags.2,
                ..request("x")
            };
            assert!(!request.is_literal());
            assert!(check(&request).is_ok());
            assert!(grep("x", &request).is_err());
        }
    }

    #[test]
    fn bad_input_is_invalid_argument() {
        assert!(grep(
            "x",
            &GrepRequest {
                context_chars: Some(1),
                context_lines: Some(1),
                ..request("x")
            }
        )
        .is_err());
        assert!(grep("x", &request("")).is_err());
        assert!(grep("x", &request(&"x".repeat(MAX_PATTERN_CHARS + 1))).is_err());
    }
}
