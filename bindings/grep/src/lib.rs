//! The grep module: searches with `regex`, `ignoreCase` or `wholeWord`, compiled to a second wasm
//! module that the JS layer loads on the first such search (js/grep-module.js). The search
//! itself (options, scan, positions, snippets and their budget) is the core's
//! (`tool_stub::grep`); this crate gives it a matcher with Unicode semantics:
//!
//! - the `regex` crate's engine (`regex-automata`'s meta regex: literal prefilters, a lazy DFA,
//!   a PikeVM when the DFA gives up): no backtracking, one search is linear in the text;
//! - `ignoreCase` is Unicode simple case folding (`école` finds `ÉCOLE`, `σίσυφος` finds
//!   `ΣΊΣΥΦΟΣ`); `\w`, `\d`, `\s`, `\b` and `\p{..}` are Unicode's;
//! - `wholeWord` is `grep -w` by the Unicode word class: no word char (`\w`, ideographs
//!   included) just before or after the match;
//! - `^`/`$` match at line boundaries.
//!
//! Bad and costly patterns are refused before any search ([`compile`]): the parser's message,
//! counted repetitions capped at [`MAX_REPETITION`] in all, the compiled program at
//! [`NFA_SIZE_LIMIT`]. Listing every match of a pattern that scans far ahead of its matches is
//! still quadratic, so each search also has a time budget ([`TIME_BUDGET_MS`]): when it runs out
//! the search answers with what it found before and a note saying where it stopped.

use regex_automata::{meta, Anchored, Input};
use regex_syntax::ast::{self, Ast};
use tool_stub::grep::{self as core_grep, GrepOptions, GrepRequest, GrepResult, Matcher};
use tool_stub::{Error, Result};

mod clock;
#[cfg(target_arch = "wasm32")]
mod wasm;

/// Counted repetitions (`{n}`, `{n,m}`, `{n,}`) may repeat at most this much in all: nested ones
/// multiply (`(?:a{100}){250}` is 25,000). Each repeat is a copy of its sub-pattern in the
/// compiled program and a state the engine tracks per byte. RE2 has the same cap.
pub const MAX_REPETITION: u32 = 1_000;
/// Bound on the compiled program (the Thompson NFA), in bytes.
pub const NFA_SIZE_LIMIT: usize = 4 << 20;
/// Memory the lazy DFA may use for its states before it gives up for the PikeVM.
pub const DFA_CACHE_BYTES: usize = 16 << 20;
/// Wall time one search may spend in the engine before it answers with what it found.
pub const TIME_BUDGET_MS: f64 = 400.0;
/// The clock is read every this many engine calls (a call is short, the clock is not free).
const CALLS_PER_CLOCK_READ: u32 = 16;

/// A compiled request: the engine's programs and the search options.
pub struct Compiled {
    options: GrepOptions,
    /// The pattern, as the user wrote it (escaped when literal), with the request's flags.
    find: meta::Regex,
    /// `wholeWord`: the pattern followed by `\b{end-half}`, run anchored where a match of `find`
    /// starts after a non-word char but ends inside a word (another alternative may end well).
    /// `None` for a literal query, whose match at a given start is the only one.
    word_end: Option<meta::Regex>,
    whole_word: bool,
}

/// The error message naming a cap the pattern passes.
fn too_big(what: &str) -> Error {
    Error::invalid(format!(
        "regex is too costly: {what}; simplify the pattern (fewer or smaller counted repetitions, narrower classes)"
    ))
}

/// The largest product of nested counted repetitions in `ast`.
fn repetition_product(ast: &Ast) -> u64 {
    match ast {
        Ast::Repetition(repetition) => {
            let count = match &repetition.op.kind {
                ast::RepetitionKind::Range(range) => match *range {
                    ast::RepetitionRange::Exactly(n) | ast::RepetitionRange::AtLeast(n) => n,
                    ast::RepetitionRange::Bounded(low, high) => low.max(high),
                },
                _ => 1,
            };
            u64::from(count.max(1)).saturating_mul(repetition_product(&repetition.ast))
        }
        Ast::Group(group) => repetition_product(&group.ast),
        Ast::Alternation(alternation) => alternation
            .asts
            .iter()
            .map(repetition_product)
            .max()
            .unwrap_or(1),
        Ast::Concat(concat) => concat
            .asts
            .iter()
            .map(repetition_product)
            .max()
            .unwrap_or(1),
        _ => 1,
    }
}

/// The pattern's body: the query, escaped unless it is a regex; checked by the parser and for
/// counted repetitions.
fn checked_body(request: &GrepRequest) -> Result<String> {
    let body = if request.regex {
        request.query.clone()
    } else {
        regex_syntax::escape(&request.query)
    };
    let ast = ast::parse::Parser::new()
        .parse(&body)
        .map_err(|e| Error::invalid(format!("invalid regex {:?}: {e}", request.query)))?;
    let repeats = repetition_product(&ast);
    if repeats > u64::from(MAX_REPETITION) {
        return Err(too_big(&format!(
            "its counted repetitions repeat {repeats} times in all, over the cap of {MAX_REPETITION}"
        )));
    }
    Ok(body)
}

fn build(pattern: &str, request: &GrepRequest) -> Result<meta::Regex> {
    let hir = regex_syntax::ParserBuilder::new()
        .case_insensitive(request.ignore_case)
        .multi_line(true)
        .build()
        .parse(pattern)
        .map_err(|e| Error::invalid(format!("invalid regex {:?}: {e}", request.query)))?;
    // Literal prefilters: in wasm there is no Teddy (SIMD multi-literal search), and the
    // Aho-Corasick automaton that stands in for it scans slower than the lazy DFA does. A single
    // literal keeps its prefilter (memchr's memmem, SIMD in wasm too); anything else (an
    // alternation, a case-folded literal, a class) runs on the lazy DFA alone.
    let literals = regex_syntax::hir::literal::Extractor::new().extract(&hir);
    let one_literal = literals
        .literals()
        .is_some_and(|literals| literals.len() == 1 && literals[0].len() >= 2);
    meta::Builder::new()
        .configure(
            meta::Config::new()
                .nfa_size_limit(Some(NFA_SIZE_LIMIT))
                .onepass_size_limit(Some(NFA_SIZE_LIMIT))
                .dfa_size_limit(Some(NFA_SIZE_LIMIT))
                .hybrid_cache_capacity(DFA_CACHE_BYTES)
                .auto_prefilter(one_literal),
        )
        .build_from_hir(&hir)
        .map_err(|e| {
            if e.size_limit().is_some() {
                too_big(&format!(
                    "its compiled program passes the cap of {NFA_SIZE_LIMIT} bytes"
                ))
            } else {
                Error::invalid(format!("invalid regex {:?}: {e}", request.query))
            }
        })
}

/// Checks a request and compiles its pattern.
pub fn compile(request: &GrepRequest) -> Result<Compiled> {
    let options = core_grep::check(request)?;
    let body = checked_body(request)?;
    let find = build(&body, request)?;
    let word_end = if request.whole_word && request.regex {
        Some(build(&format!(r"(?:{body})\b{{end-half}}"), request)?)
    } else {
        None
    };
    Ok(Compiled {
        options,
        find,
        word_end,
        whole_word: request.whole_word,
    })
}

fn is_word_char(c: char) -> bool {
    regex_syntax::is_word_character(c)
}

/// Whether a word char ends just before byte `at`.
fn word_before(text: &str, at: usize) -> bool {
    text[..at].chars().next_back().is_some_and(is_word_char)
}

/// Whether a word char starts at byte `at`.
fn word_at(text: &str, at: usize) -> bool {
    text[at..].chars().next().is_some_and(is_word_char)
}

/// One search's matcher: the compiled programs' caches and the time budget.
struct Search<'a> {
    compiled: &'a Compiled,
    find_cache: meta::Cache,
    word_end_cache: Option<meta::Cache>,
    budget: clock::Budget,
    calls: u32,
    out_of_time: bool,
}

impl Search<'_> {
    /// Counts an engine call; true when the budget ran out.
    fn tick(&mut self) -> bool {
        self.calls = self.calls.wrapping_add(1);
        if self.calls % CALLS_PER_CLOCK_READ == 0 && self.budget.spent() {
            self.out_of_time = true;
        }
        self.out_of_time
    }

    fn find_whole_word(&mut self, text: &str, from: usize) -> Option<(usize, usize)> {
        let mut at = from;
        loop {
            if self.tick() {
                return None;
            }
            let found = self
                .compiled
                .find
                .search_with(&mut self.find_cache, &Input::new(text).span(at..text.len()))?;
            let (start, end) = (found.start(), found.end());
            if !word_before(text, start) {
                if !word_at(text, end) {
                    return Some((start, end));
                }
                if let (Some(word_end), Some(cache)) =
                    (&self.compiled.word_end, self.word_end_cache.as_mut())
                {
                    let anchored = Input::new(text)
                        .span(start..text.len())
                        .anchored(Anchored::Yes);
                    if let Some(found) = word_end.search_with(cache, &anchored) {
                        return Some((found.start(), found.end()));
                    }
                }
            }
            // No whole-word match starts at `start`: look further on.
            at = start + text[start..].chars().next()?.len_utf8();
        }
    }
}

impl Matcher for Search<'_> {
    fn find_at(&mut self, text: &str, from: usize) -> Option<(usize, usize)> {
        if self.compiled.whole_word {
            return self.find_whole_word(text, from);
        }
        if self.tick() {
            return None;
        }
        self.compiled
            .find
            .search_with(
                &mut self.find_cache,
                &Input::new(text).span(from..text.len()),
            )
            .map(|found| (found.start(), found.end()))
    }

    fn stop(&mut self) -> Option<String> {
        self.out_of_time.then(|| {
            format!(
                "the regex ran out of its time budget ({TIME_BUDGET_MS} ms): the pattern scans far ahead of its matches"
            )
        })
    }
}

impl Compiled {
    /// The search over one text, with a fresh time budget of `budget_ms`.
    pub fn run_with_budget(&self, text: &str, budget_ms: f64) -> GrepResult {
        let mut search = Search {
            compiled: self,
            find_cache: self.find.create_cache(),
            word_end_cache: self.word_end.as_ref().map(meta::Regex::create_cache),
            budget: clock::Budget::new(budget_ms),
            calls: 0,
            out_of_time: false,
        };
        core_grep::run(&mut search, &self.options, text)
    }

    pub fn run(&self, text: &str) -> GrepResult {
        self.run_with_budget(text, TIME_BUDGET_MS)
    }
}

/// `search` with `regex`, `ignoreCase` or `wholeWord` over one output.
pub fn grep(text: &str, request: &GrepRequest) -> Result<GrepResult> {
    Ok(compile(request)?.run(text))
}

#[cfg(test)]
mod tests;
