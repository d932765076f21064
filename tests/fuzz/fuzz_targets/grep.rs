//! `search` over one output with adversarial requests: the core's literal grep and the grep
//! module's regex / ignoreCase / wholeWord grep, both driven by the core's scan
//! (`tool_stub::grep::run`). Checks every listed match against the output itself.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tool_stub::grep::{GrepRequest, GrepResult, MAX_CONTEXT_LINE_CHARS, MAX_SNIPPET_CHARS};

mod common;

/// Patterns that stress the scan: empty matches, anchors, word boundaries, Unicode classes,
/// backtracking shapes, counted repetitions near the cap.
const PATTERNS: [&str; 16] = [
    "",
    "^",
    "$",
    "\\b",
    "a*",
    ".*",
    "(?s).+",
    "x|",
    "\\w+",
    "[^\\n]*",
    "\\p{L}+",
    "(a|aa)*b",
    "(?:a{30}){40}",
    "\\B",
    "(?i)ǅ",
    "(?m)^$",
];

fn is_word_char(c: Option<&char>) -> bool {
    c.is_some_and(|&c| regex_syntax::is_word_character(c))
}

fn check(output: &str, request: &GrepRequest, result: &GrepResult) {
    let chars: Vec<char> = output.chars().collect();
    let limit = usize::try_from(request.limit.unwrap_or(20)).unwrap_or(usize::MAX);
    assert!(result.matches.len() <= limit, "more matches than limit");
    assert!(result.total_matches >= result.matches.len());
    if result.note.is_none() {
        assert_eq!(
            result.matches.len(),
            limit.min(result.total_matches),
            "matches stop early without a note"
        );
    }
    let mut snippet_chars = 0usize;
    let mut previous: Option<(usize, usize)> = None;
    for (i, m) in result.matches.iter().enumerate() {
        assert!(m.offset + m.length <= chars.len(), "match past the output");
        if let Some((offset, length)) = previous {
            assert!(
                offset + length <= m.offset,
                "overlapping or unordered matches"
            );
            assert!(length > 0 || offset < m.offset, "two matches at one offset");
        }
        previous = Some((m.offset, m.length));
        let line_start = chars[..m.offset]
            .iter()
            .rposition(|&c| c == '\n')
            .map_or(0, |i| i + 1);
        assert_eq!(
            m.line,
            1 + chars[..m.offset].iter().filter(|&&c| c == '\n').count()
        );
        assert_eq!(m.column, m.offset - line_start + 1);
        let matched = common::char_slice(&chars, m.offset, m.length);
        if request.is_literal() {
            assert_eq!(matched, request.query, "a literal match is not the query");
        } else if !request.regex {
            // Simple case folding maps one char to one char.
            assert_eq!(
                m.length,
                request.query.chars().count(),
                "ignoreCase literal of another length"
            );
        }
        if request.whole_word {
            assert!(
                !is_word_char(m.offset.checked_sub(1).map(|i| &chars[i])),
                "whole word after a word char"
            );
            assert!(
                !is_word_char(chars.get(m.offset + m.length)),
                "whole word before a word char"
            );
        }
        let snippet_len = m.snippet.chars().count();
        snippet_chars += snippet_len;
        match request.context_lines {
            None => {
                let context = usize::try_from(request.context_chars.unwrap_or(300).max(0))
                    .unwrap_or(usize::MAX);
                let start = m.offset.saturating_sub(context);
                let end = (m.offset + m.length)
                    .saturating_add(context)
                    .min(chars.len());
                let expected = common::char_slice(&chars, start, end - start);
                if expected.chars().count() <= MAX_SNIPPET_CHARS || i > 0 {
                    assert_eq!(
                        m.snippet, expected,
                        "snippet is not the match with its context"
                    );
                } else {
                    assert_eq!(
                        snippet_len, MAX_SNIPPET_CHARS,
                        "a cut first snippet does not fill the budget"
                    );
                    assert!(expected.contains(&m.snippet));
                }
            }
            Some(_) => {
                if m.length + 2 * MAX_CONTEXT_LINE_CHARS <= MAX_SNIPPET_CHARS {
                    assert!(m.snippet.contains(&matched), "snippet without its match");
                    assert!(snippet_len <= m.length + 2 * MAX_CONTEXT_LINE_CHARS);
                }
            }
        }
    }
    assert!(
        snippet_chars <= MAX_SNIPPET_CHARS,
        "snippets pass their budget"
    );
}

fuzz_target!(|data: &[u8]| {
    let mut args = common::Args::new(data, 16);
    let query_mode = args.byte();
    let pattern = PATTERNS[usize::from(args.byte()) % PATTERNS.len()];
    let (slice_start, slice_len) = (args.small(), usize::from(args.byte() % 12));
    let mut request = GrepRequest {
        regex: args.flag(),
        ignore_case: args.flag(),
        whole_word: args.flag(),
        limit: args.int_option(),
        ..GrepRequest::default()
    };
    let context = args.int_option();
    if args.flag() {
        request.context_lines = context;
    } else {
        request.context_chars = context;
    }
    let body = args.rest;
    let (query, output) = match body.iter().position(|&b| b == 0xFF) {
        Some(split) if query_mode % 4 == 0 => (
            common::text(&body[..split]),
            common::text(&body[split + 1..]),
        ),
        _ => {
            let output = common::text(body);
            let chars: Vec<char> = output.chars().collect();
            let slice = common::char_slice(&chars, slice_start % (chars.len() + 1), slice_len + 1);
            let query = match query_mode % 4 {
                2 => pattern.to_string(),
                3 => format!("{pattern}{slice}"),
                _ => slice,
            };
            (query, output)
        }
    };
    request.query = query;
    let core = tool_stub::grep::grep(&output, &request);
    let module = tool_stub_grep::grep(&output, &request);
    if let Ok(result) = &module {
        check(&output, &request, result);
    }
    if request.is_literal() {
        match (&core, &module) {
            (Ok(core), Ok(module)) => {
                check(&output, &request, core);
                // Both modules answer a literal search alike (unless the regex ran out of time).
                if module.note.is_none() || core.note == module.note {
                    assert_eq!(
                        core, module,
                        "core and grep module disagree on a literal search"
                    );
                }
            }
            (Err(core), Err(module)) => assert_eq!(core.code, module.code),
            (core, module) => panic!("core {core:?} vs grep module {module:?}"),
        }
    } else {
        assert!(core.is_err(), "the core ran a non-literal search");
    }
});
