use super::*;

fn request(query: &str) -> GrepRequest {
    GrepRequest {
        query: query.into(),
        ..Default::default()
    }
}

fn regex(query: &str) -> GrepRequest {
    GrepRequest {
        regex: true,
        ..request(query)
    }
}

fn ignore_case(query: &str) -> GrepRequest {
    GrepRequest {
        ignore_case: true,
        ..request(query)
    }
}

fn whole_word(query: GrepRequest) -> GrepRequest {
    GrepRequest {
        whole_word: true,
        ..query
    }
}

fn count(text: &str, request: GrepRequest) -> usize {
    grep(text, &request).expect("valid").total_matches
}

fn found(text: &str, request: GrepRequest) -> Vec<String> {
    let result = grep(text, &request).expect("valid");
    result
        .matches
        .iter()
        .map(|m| text.chars().skip(m.offset).take(m.length).collect())
        .collect()
}

#[test]
fn regex_ignore_case_and_whole_word() {
    let text = "Error: x\nerror-code\nterrors\nERROR";
    let found = grep(
        text,
        &GrepRequest {
            ignore_case: true,
            ..regex(r"^error\b")
        },
    )
    .expect("valid");
    assert_eq!(
        found.matches.iter().map(|m| m.line).collect::<Vec<_>>(),
        [1, 2, 4]
    );
    assert_eq!(found.matches[0].length, 5);
    assert_eq!(count(text, whole_word(ignore_case("error"))), 3);
    assert_eq!(count(text, whole_word(request("-code"))), 0);
    assert_eq!(count("see -code here", whole_word(request("-code"))), 1);
}

/// `ignoreCase` is Unicode simple case folding (was ASCII-only).
#[test]
fn ignore_case_folds_unicode() {
    assert_eq!(
        found("ÉCOLE école Ecole", ignore_case("école")),
        ["ÉCOLE", "école"]
    );
    assert_eq!(
        found("ΣΊΣΥΦΟΣ σίσυφος", ignore_case("σίσυφος")),
        ["ΣΊΣΥΦΟΣ", "σίσυφος"]
    );
    assert_eq!(count("STRASSE straße", ignore_case("straße")), 1);
    // The Kelvin sign folds to k, as in Unicode's simple folding.
    assert_eq!(count("\u{212A}elvin kelvin", ignore_case("kelvin")), 2);
}

/// `\w`, `\d`, `\s`, `\b` and `\p{..}` are Unicode's (were ASCII-only / refused).
#[test]
fn classes_are_unicode() {
    assert_eq!(found("café cafe", regex(r"caf\w")), ["café", "cafe"]);
    assert_eq!(found("x ٣٤ 12", regex(r"\d+")), ["٣٤", "12"]);
    assert_eq!(count("a\u{3000}b", regex(r"a\sb")), 1);
    assert_eq!(
        found("日本語 and 中文", regex(r"\p{Han}+")),
        ["日本語", "中文"]
    );
    assert_eq!(
        found("naïve naive", regex(r"\bna\w+\b")),
        ["naïve", "naive"]
    );
    assert!(grep("x", &regex(r"\p{NoSuchClass}")).is_err());
}

/// An ideograph is a word char, so `wholeWord: "本"` does not match inside `日本語`.
#[test]
fn whole_word_uses_the_unicode_word_class() {
    assert_eq!(count("日本語", whole_word(request("本"))), 0);
    assert_eq!(count("日 本 語", whole_word(request("本"))), 1);
    assert_eq!(count("caféx café caf", whole_word(request("caf"))), 1);
    assert_eq!(
        count("Ünïcode ünïcode", whole_word(ignore_case("ÜNÏCODE"))),
        2
    );
    // As `grep -w`: a match may start or end with a non-word char.
    assert_eq!(count("a.b a. b", whole_word(request("a."))), 1);
}

/// `wholeWord` with a regex takes the first alternative that ends at a word boundary, as
/// `\b{start-half}(?:…)\b{end-half}` does.
#[test]
fn whole_word_regex_tries_other_alternatives_at_a_start() {
    assert_eq!(
        found("foobar foo", whole_word(regex("foo|foobar"))),
        ["foobar", "foo"]
    );
    assert_eq!(found("abc ab", whole_word(regex("ab|abc"))), ["abc", "ab"]);
    assert_eq!(found("aaa", whole_word(regex("a"))), Vec::<String>::new());
    assert_eq!(found("x123 123", whole_word(regex(r"\d+"))), ["123"]);
}

#[test]
fn empty_regex_matches_advance() {
    assert_eq!(count("ab", regex("x*")), 3);
    assert_eq!(count("éé", regex("x*")), 3);
}

#[test]
fn literal_queries_are_escaped() {
    assert_eq!(count("a.b axb (x)", ignore_case("a.b")), 1);
    assert_eq!(count("(x) x", ignore_case("(x)")), 1);
}

/// An invalid regex is INVALID_ARGUMENT with the parser's message.
#[test]
fn invalid_regex_carries_the_parser_message() {
    let bad = grep("x", &regex("(a")).expect_err("bad regex");
    assert_eq!(bad.code.as_str(), "INVALID_ARGUMENT");
    assert!(
        bad.message.contains("invalid regex") && bad.message.contains("unclosed group"),
        "{}",
        bad.message
    );
    let bad = grep("x", &regex("*a")).expect_err("bad regex");
    assert!(bad.message.contains("repetition"), "{}", bad.message);
}

/// Counted repetitions are capped (a{10000} blocked the event loop for seconds).
#[test]
fn counted_repetitions_are_capped() {
    for pattern in [
        "a{10000}",
        "(?:a{100}){250}",
        "(?:(?:a{10}){10}){11}",
        "a{1001,}",
    ] {
        let error = grep("aaaa", &regex(pattern)).expect_err(pattern);
        assert_eq!(error.code.as_str(), "INVALID_ARGUMENT");
        assert!(
            error.message.contains(&MAX_REPETITION.to_string()),
            "{}",
            error.message
        );
    }
    assert!(grep("aaaa", &regex("(?:a{10}){100}|b{1000}")).is_ok());
}

/// A pattern whose program passes the size cap is refused, naming the cap.
#[test]
fn compiled_size_is_capped() {
    let error = grep("x", &regex(r"(?:\w{50}\p{L}{50}){10}")).expect_err("too big");
    assert!(
        error.message.contains(&NFA_SIZE_LIMIT.to_string()),
        "{}",
        error.message
    );
}

/// Patterns that scan far ahead (quadratic listing) stop at the time budget with what
/// they found and a note; counted repetitions under the cap stay fast over 10 MB.
#[test]
fn pathological_patterns_over_10_mb_are_bounded() {
    let text = "a".repeat(10 << 20);
    let started = std::time::Instant::now();
    let far = grep(&text, &regex("a*b|a")).expect("valid");
    let note = far.note.expect("stopped with a note");
    assert!(
        note.contains("time budget") && note.contains("char offset"),
        "{note}"
    );
    assert!(far.total_matches > 0 && far.total_matches < text.len());
    for pattern in [
        "a{1000}",
        "(?:a{100}){10}",
        "(a+)+$",
        "(?:a|aa)*c",
        r"\ba{999}\b",
    ] {
        let result = grep(&text, &regex(pattern)).expect(pattern);
        assert!(result.total_matches <= text.len(), "{pattern}");
    }
    // A generous bound: the budget is 400 ms per search on a 2-core machine.
    assert!(started.elapsed().as_secs() < 30, "{:?}", started.elapsed());
}

#[test]
fn the_budget_stops_a_search_and_keeps_what_it_found() {
    let text = "x ".repeat(100_000);
    let compiled = compile(&ignore_case("X")).expect("valid");
    let result = compiled.run_with_budget(&text, -1.0);
    assert!(result.total_matches < 100_000);
    assert!(result.note.expect("note").contains("time budget"));
    let whole = compiled.run(&text);
    assert_eq!((whole.total_matches, whole.note), (100_000, None));
}

#[test]
fn hostile_regex_stays_linear() {
    let text = "a".repeat(100_000);
    let found = grep(&text, &regex("(a+)+$")).expect("valid");
    assert_eq!((found.total_matches, found.matches[0].offset), (1, 0));
}

#[test]
fn positions_count_code_points() {
    let result = grep("😀é\nxÉCOLE", &ignore_case("école")).expect("valid");
    let m = &result.matches[0];
    assert_eq!((m.offset, m.line, m.column, m.length), (4, 2, 2, 5));
}

#[test]
fn both_budgets_notes_are_kept() {
    let text = "x ".repeat(1 << 20);
    let compiled = compile(&GrepRequest {
        limit: Some(10_000),
        context_chars: Some(100_000),
        ..ignore_case("X")
    })
    .expect("valid");
    // The snippet budget runs out after ~5 snippets, the time budget (spent from the start) at
    // the first clock read: the note keeps both.
    let result = compiled.run_with_budget(&text, -1.0);
    let note = result.note.expect("a note");
    assert!(
        note.contains("not listed") && note.contains("time budget"),
        "{note}"
    );
}
