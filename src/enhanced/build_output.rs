//! `build_output` kind (enhanced mode): test-runner and compiler output. One pass over the lines
//! (a CI runner's leading timestamp dropped) with hand-written matchers for the forms the common
//! tools print: compiler diagnostics (`file:line:col: error: msg` of gcc/clang/go/javac,
//! `file(line,col): error TS1234: msg` of tsc, rustc's `error[E0308]: msg` + `--> file:line:col`,
//! eslint's file header + `line:col error msg`, maven's `[ERROR] File.java:[l,c] msg`), failing
//! tests (pytest, jest/vitest, go test, cargo test, maven/gradle, mocha), the runners' summary
//! lines, and make/ninja/CI failure lines. The synopsis names the failing tests, the `file:line`
//! of the first errors with their messages, the summary lines and the warning count.

use crate::kinds::Synopsis;

use crate::python::py_words;

use super::log::strip_timestamp;
use super::text_helpers::{
    after_last, bounded_one_line, contains_str, find_byte, find_str, lines, probes, split_str,
    trim_set, PROBE_BYTES,
};

const MAX_FAILING_TESTS: usize = 10;
const MAX_ERRORS: usize = 5;
const MAX_SUMMARIES: usize = 5;
const MAX_FAILURE_LINES: usize = 3;
/// Evidence needed to call an output build output: a summary line or an error diagnostic alone
/// is not enough (a log may quote one), two of them are.
const MIN_SCORE: usize = 3;
const TEXT_CHARS: i64 = 160;
const MAX_SUMMARY_LINE_BYTES: usize = 300;
const NAME_CHARS: i64 = 120;

/// A compiler or test diagnostic: where, and what.
struct Diagnostic {
    location: String,
    message: String,
    line: usize,
}

#[derive(Default)]
struct Scan {
    tools: Vec<&'static str>,
    summaries: Vec<String>,
    failing_tests: Vec<String>,
    passed_tests: usize,
    errors: Vec<Diagnostic>,
    error_count: usize,
    warning_count: usize,
    first_warning: Option<Diagnostic>,
    failures: Vec<(usize, String)>,
    failure_count: usize,
    /// The first assertion/error line of a test failure (pytest's `E  ...`, a panic message).
    first_assertion: Option<(usize, String)>,
    /// rustc prints the message, then ` --> file:line:col` on a later line.
    pending_rustc: Option<(bool, String, usize)>,
    /// eslint's stylish format: a file name line, then `line:col  error  msg` lines.
    eslint_file: Option<String>,
    /// After mocha's `N failing`, its numbered failures name the tests.
    in_mocha_failures: bool,
    score: usize,
    /// Non-blank lines outside fenced code blocks.
    non_blank: usize,
    /// Inside a fenced code block (a document quoting output): lines not read.
    fenced: bool,
    /// go test's `x_test.go:12: msg` lines since the last test's start: a failing test's
    /// messages when `--- FAIL` follows, `t.Log` output of a passing one when `--- PASS` does.
    go_test_messages: Vec<(String, String, usize)>,
    /// After `--- FAIL: TestX`, its indented messages (go test without -v prints them after).
    in_go_failure: bool,
    /// `file.go:l:c: msg` lines without a severity: compiler errors under a `# package` header
    /// (go build, go vet), else text that only looks like them (search hits, a quoted sample).
    go_unconfirmed: Vec<(String, String, usize)>,
    go_unconfirmed_count: usize,
    go_package_header: bool,
}

impl Scan {
    #[inline(never)]
    fn tool(&mut self, name: &'static str) {
        if !self.tools.contains(&name) {
            self.tools.push(name);
        }
    }

    #[inline(never)]
    fn summary(&mut self, tool: &'static str, text: &str) {
        self.tool(tool);
        self.score += 2;
        let text = bounded_one_line(text, TEXT_CHARS);
        if !self.summaries.contains(&text) {
            self.summaries.push(text);
        }
    }

    fn failing_test(&mut self, tool: &'static str, name: &str) {
        self.tool(tool);
        self.score += 1;
        // A test id's last part names the test (`tests/a.py::test_x`, `mod::tests::x`); the file
        // is in the error locations.
        let mut short = name;
        while let Some((_, after)) = split_str(short, "::") {
            short = after;
        }
        let name = bounded_one_line(if short.is_empty() { name } else { short }, NAME_CHARS);
        if !name.is_empty() && !self.failing_tests.contains(&name) {
            self.failing_tests.push(name);
        }
    }

    fn diagnostic(&mut self, error: bool, location: &str, message: &str, line: usize) {
        let diagnostic = || Diagnostic {
            location: bounded_one_line(location, NAME_CHARS),
            message: bounded_one_line(message, TEXT_CHARS),
            line,
        };
        if error {
            self.score += 2;
            self.error_count += 1;
            if self.errors.len() < MAX_ERRORS {
                self.errors.push(diagnostic());
            }
        } else {
            self.score += 1;
            self.warning_count += 1;
            if self.first_warning.is_none() {
                self.first_warning = Some(diagnostic());
            }
        }
    }

    #[inline(never)]
    fn failure_line(&mut self, number: usize, text: &str) {
        self.score += 2;
        self.failure_count += 1;
        if self.failures.len() < MAX_FAILURE_LINES {
            self.failures
                .push((number, bounded_one_line(text, TEXT_CHARS)));
        } else if let Some(last) = self.failures.last_mut() {
            // Keep the first ones and the very last (make's final `*** ... Error 2`).
            *last = (number, bounded_one_line(text, TEXT_CHARS));
        }
    }

    #[inline(never)]
    fn assertion(&mut self, number: usize, text: &str) {
        if self.first_assertion.is_none() {
            self.first_assertion = Some((number, bounded_one_line(text, TEXT_CHARS)));
        }
    }
}

/// `file:line[:col]` at the start of `s` (a file has no spaces and an extension or a `/`), and what
/// follows it after `: ` or ` - `.
#[inline(never)]
fn file_location(s: &str) -> Option<(&str, &str)> {
    let bytes = s.as_bytes();
    let mut at = 0;
    // Windows drive letters (`C:\x.c`) keep their colon.
    if bytes.len() > 2
        && bytes[1] == b':'
        && bytes[0].is_ascii_alphabetic()
        && matches!(bytes[2], b'\\' | b'/')
    {
        at = 2;
    }
    // The file ends at the first colon and holds none of these: one pass that stops at the
    // first of either, so a line of prose or code is given up at its first space.
    let colon = at
        + bytes[at..]
            .iter()
            .position(|&b| matches!(b, b':' | b' ' | b'\t' | b'(' | b'"' | b'\''))?;
    if bytes[colon] != b':' {
        return None;
    }
    let file = &s[..colon];
    if file.is_empty() || file.starts_with("http") {
        return None;
    }
    let name = after_last(after_last(file, b'/'), b'\\');
    let has_extension = name.contains('.') && !name.ends_with('.');
    if !has_extension {
        return None;
    }
    let mut end = colon;
    for _ in 0..2 {
        // The colon first: `end` may be the end of the text (`a.c:12`), past which nothing reads.
        if bytes.get(end) != Some(&b':') {
            break;
        }
        let digits = s[end + 1..].bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            break;
        }
        end += 1 + digits;
    }
    if end == colon {
        return None;
    }
    let rest = &s[end..];
    let rest = rest
        .strip_prefix(": ")
        .or_else(|| rest.strip_prefix(" - "))
        .or_else(|| rest.strip_prefix(':'))?;
    Some((&s[..end], rest))
}

/// `severity: message`: gcc's `error:`, `fatal error:`, `warning:`, rustc's `error[E0308]:`,
/// tsc's `error TS2304:`. Whether it is an error, and the message.
#[inline(never)]
fn severity(rest: &str) -> Option<(bool, &str)> {
    let rest = rest.trim_start();
    // (Most lines are given up at their first byte.)
    if !matches!(rest.as_bytes().first(), Some(b'f' | b'e' | b'w')) {
        return None;
    }
    for (word, error) in [("fatal error", true), ("error", true), ("warning", false)] {
        let Some(after) = rest.strip_prefix(word) else {
            continue;
        };
        // The message keeps the diagnostic's code (`[E0308]: mismatched types`, `TS2304: Cannot
        // find name`): it is what a model looks the error up by.
        let (coded, after) = match after.as_bytes().first() {
            Some(b'[') => (Some(after), &after[after.find(']')? + 1..]),
            Some(b' ') => {
                let code = after[1..].split(':').next().unwrap_or("");
                if code.is_empty()
                    || code.len() > 10
                    || !code.bytes().all(|b| b.is_ascii_alphanumeric())
                {
                    continue;
                }
                (Some(&after[1..]), &after[1 + code.len()..])
            }
            _ => (None, after),
        };
        if let Some(message) = after.strip_prefix(':') {
            return Some((error, coded.unwrap_or(message).trim()));
        }
    }
    None
}

/// Strips a prefix and what follows it up to the next space: `--- FAIL: TestX (0.01s)` → `TestX`.
#[inline(never)]
fn first_word(s: &str) -> &str {
    py_words(s).next().unwrap_or("")
}

/// The words a summary line counts (`4 failed`, `2 passing`), as bits of `counted_words`' answer.
#[derive(Clone, Copy)]
#[repr(u8)]
enum Counted {
    Passed = 1,
    Failed = 2,
    Error = 4,
    TestsCompleted = 8,
    Problems = 16,
    Passing = 32,
    Failing = 64,
    Pending = 128,
}

const COUNTED_WORDS: [(&str, Counted); 8] = [
    ("passed", Counted::Passed),
    ("failed", Counted::Failed),
    ("error", Counted::Error),
    ("tests completed", Counted::TestsCompleted),
    ("problems", Counted::Problems),
    ("passing", Counted::Passing),
    ("failing", Counted::Failing),
    ("pending", Counted::Pending),
];

/// Which of `COUNTED_WORDS` occur in `line` after a count: a number, then nothing but whitespace
/// before the word (`4 failed`, `12  passing`). One pass over the line's digit runs answers for
/// every word, where a search per word would read the line once each: a word preceded by a
/// digit and whitespace starts at the first non-whitespace char after the digit's run (no word
/// starts with a digit or with whitespace).
#[inline(never)]
fn counted_words(line: &str) -> u8 {
    let bytes = line.as_bytes();
    let mut found = 0;
    let mut at = 0;
    while at < bytes.len() {
        if !bytes[at].is_ascii_digit() {
            at += 1;
            continue;
        }
        while at < bytes.len() && bytes[at].is_ascii_digit() {
            at += 1;
        }
        // Whitespace as `trim_start` reads it (Unicode), as a count's `trim_end` would. Most
        // runs end at a printable ASCII byte (`,`, `)`, a letter), which is none: no word starts
        // anywhere else.
        let word_at = match bytes.get(at) {
            Some(b'p' | b'f' | b'e' | b't') => at,
            Some(b'!'..=b'~') | None => continue,
            Some(_) => line.len() - line[at..].trim_start().len(),
        };
        let word = &line[word_at..];
        if matches!(word.as_bytes().first(), Some(b'p' | b'f' | b'e' | b't')) {
            for (name, bit) in COUNTED_WORDS {
                if word.starts_with(name) {
                    found |= bit as u8;
                }
            }
        }
        at = word_at;
    }
    found
}

/// A summary line of a test runner or build tool, and the tool.
fn summary_line(line: &str) -> Option<(&'static str, &str)> {
    // Maven prefixes every line with its level.
    let line = if line.starts_with('[') {
        ["[INFO] ", "[ERROR] ", "[WARNING] "]
            .iter()
            .find_map(|prefix| line.strip_prefix(prefix))
            .unwrap_or(line)
    } else {
        line
    };
    // Summary lines are short; a long line is not read word by word.
    if line.len() > MAX_SUMMARY_LINE_BYTES {
        return None;
    }
    let has = |word: &str| contains_str(line, word);
    let counts = counted_words(line);
    let counted = |word: Counted| counts & word as u8 != 0;
    if line.starts_with('=') && line.ends_with('=') && contains_str(line, " in ") {
        let inner = trim_set(line, b"= ", true, true);
        if counted(Counted::Passed)
            || counted(Counted::Failed)
            || counted(Counted::Error)
            || has("no tests ran")
        {
            return Some(("pytest", inner));
        }
    }
    if let Some(rest) = line.strip_prefix("test result: ") {
        return Some(("cargo test", rest));
    }
    for prefix in ["Tests:", "Test Suites:", "Test Files", "Tests "] {
        if line.starts_with(prefix) && (counted(Counted::Passed) || counted(Counted::Failed)) {
            let tool = if line.contains('|') { "vitest" } else { "jest" };
            return Some((tool, line));
        }
    }
    if line.starts_with("Tests run:") && has("Failures:") && !has("Time elapsed") {
        return Some(("maven", line));
    }
    if line.starts_with("BUILD ")
        && [
            "BUILD SUCCESS",
            "BUILD FAILURE",
            "BUILD FAILED",
            "BUILD SUCCESSFUL",
        ]
        .iter()
        .any(|word| line.starts_with(word))
    {
        return Some(("maven/gradle", line));
    }
    if (counted(Counted::TestsCompleted) && counted(Counted::Failed))
        || (counted(Counted::Problems) && has(" error"))
    {
        return Some((
            if counted(Counted::Problems) {
                "eslint"
            } else {
                "gradle"
            },
            line,
        ));
    }
    if counted(Counted::Passing) || counted(Counted::Failing) || counted(Counted::Pending) {
        let count = first_word(line);
        if (2..=3).contains(&py_words(line).count()) && count.bytes().all(|b| b.is_ascii_digit()) {
            return Some(("mocha", line));
        }
    }
    // tsc's `Found 12 errors in 4 files.`, mypy's `Found 12 errors in 4 files (checked 30
    // source files)` and `Success: no issues found in 30 source files`.
    if let Some(rest) = line.strip_prefix("Found ") {
        let count = first_word(rest);
        let after = rest.strip_prefix(count).unwrap_or("");
        if !count.is_empty()
            && count.bytes().all(|b| b.is_ascii_digit())
            && (after.starts_with(" error") || after.starts_with(" warning"))
            && has(" in ")
        {
            return Some((if has("source file") { "mypy" } else { "tsc" }, line));
        }
    }
    if line.starts_with("Success: no issues found in ") {
        return Some(("mypy", line));
    }
    if let Some(rest) = line
        .strip_prefix("FAIL\t")
        .or_else(|| line.strip_prefix("ok  \t"))
    {
        if rest.contains('\t') || rest.ends_with('s') {
            return Some(("go test", line));
        }
    }
    None
}

impl Scan {
    /// Settles what only the whole output decides: go diagnostics without a severity.
    fn finish(&mut self) {
        self.go_test_messages.clear();
        if self.go_package_header {
            self.tool("go");
            let held = self.go_unconfirmed.len();
            for (location, message, line) in std::mem::take(&mut self.go_unconfirmed) {
                self.diagnostic(true, &location, &message, line);
            }
            let unheld = self.go_unconfirmed_count - held;
            self.error_count += unheld;
            self.score += 2 * unheld;
        }
    }

    /// Whether the output shows evidence of a build or test run on its own: a runner's summary
    /// line, failing or passing tests, a build failure line, or diagnostics on a quarter of the
    /// lines (a compiler prints each with its source line and a caret).
    fn proven(&self) -> bool {
        !self.summaries.is_empty()
            || !self.failing_tests.is_empty()
            || self.failure_count > 0
            || self.passed_tests >= 3
            || (self.error_count + self.warning_count) * 4 >= self.non_blank
    }

    fn line(&mut self, number: usize, raw: &str) {
        let line = strip_timestamp(raw);
        let trimmed = line.trim();
        if trimmed.is_empty() {
            return;
        }
        // A document quoting build output in fenced blocks is not build output.
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            self.fenced = !self.fenced;
            return;
        }
        if self.fenced {
            return;
        }
        self.non_blank += 1;
        // A compiler's source excerpt (gcc/clang `  12 |   code`, `     |   ^~~`; jest's code
        // frames `> 12 |`) is no summary, test or diagnostic: given up at its first bytes.
        if is_source_excerpt(trimmed) {
            return;
        }
        // go build / go vet: `# example.com/pkg` above the package's errors.
        if let Some(package) = trimmed.strip_prefix("# ") {
            if !package.is_empty() && !package.contains(' ') {
                self.go_package_header = true;
            }
        }
        if let Some((tool, text)) = summary_line(trimmed) {
            // Passing go packages are counted, failing ones quoted.
            if tool == "go test" && trimmed.starts_with("ok") {
                self.tool(tool);
                self.passed_tests += 1;
                self.score += 1;
            } else {
                self.summary(tool, text);
            }
            self.in_mocha_failures = tool == "mocha" && contains_str(trimmed, "failing");
            return;
        }
        if self.test_line(number, line, trimmed) {
            return;
        }
        self.diagnostic_line(number, line, trimmed);
    }

    /// Failing and passing test lines, assertion lines. Whether the line was one.
    fn test_line(&mut self, number: usize, line: &str, trimmed: &str) -> bool {
        // pytest's short summary (`FAILED path::name - msg`) and verbose progress (`path::name FAILED`).
        for (word, tool) in [("FAILED ", "pytest"), ("ERROR ", "pytest")] {
            if let Some(rest) = trimmed.strip_prefix(word) {
                if contains_str(rest, "::") {
                    let (name, message) = split_str(rest, " - ").unwrap_or((rest, ""));
                    self.failing_test(tool, name);
                    if !message.is_empty() {
                        self.assertion(number, message);
                    }
                    return true;
                }
            }
        }
        if contains_str(trimmed, "::") {
            let mut words = py_words(trimmed);
            let name = words.next().unwrap_or("");
            match words.next() {
                Some("FAILED" | "ERROR") => {
                    self.failing_test("pytest", name);
                    return true;
                }
                Some("PASSED") => {
                    self.tool("pytest");
                    self.passed_tests += 1;
                    return true;
                }
                _ => {}
            }
        }
        // cargo test: `test path::name ... FAILED` / `... ok`.
        if let Some(rest) = trimmed.strip_prefix("test ") {
            if let Some(name) = rest.strip_suffix(" ... FAILED") {
                self.failing_test("cargo test", name);
                return true;
            }
            if rest.ends_with(" ... ok") {
                self.tool("cargo test");
                self.passed_tests += 1;
                return true;
            }
        }
        if let Some(rest) = trimmed.strip_prefix("thread '") {
            if let Some((_, after)) = split_str(rest, "' panicked at ") {
                let location = trim_set(after, b":", false, true);
                let (location, message) = split_str(location, ": ").unwrap_or((location, ""));
                self.diagnostic(true, location, message, number);
                return true;
            }
        }
        // go test: `--- FAIL: TestX (0.00s)`, indented `x_test.go:12: message`.
        if let Some(rest) = trimmed.strip_prefix("--- FAIL: ") {
            self.failing_test("go test", first_word(rest));
            for (location, message, line) in std::mem::take(&mut self.go_test_messages) {
                self.diagnostic(true, &location, &message, line);
            }
            self.in_go_failure = true;
            return true;
        }
        if trimmed.starts_with("--- PASS: ") || trimmed.starts_with("--- SKIP: ") {
            self.tool("go test");
            self.score += 1;
            self.passed_tests += usize::from(trimmed.starts_with("--- PASS: "));
            self.go_test_messages.clear();
            self.in_go_failure = false;
            return true;
        }
        if trimmed.starts_with("=== RUN ") || trimmed.starts_with("=== CONT ") {
            self.go_test_messages.clear();
            self.in_go_failure = false;
            return true;
        }
        // jest: `● Suite › name`; jest/vitest `✕ name` / `× name`; vitest `FAIL  file > suite > name`.
        for mark in ["● ", "✕ ", "× ", "✗ ", "✖ "] {
            if let Some(name) = trimmed.strip_prefix(mark) {
                if !name.starts_with("Test suite failed") && !contains_str(name, "problem") {
                    // Without jest's timing: `adds (5 ms)`.
                    let name = match find_str(name, " (") {
                        Some(at) if name.ends_with("s)") => &name[..at],
                        _ => name,
                    };
                    self.failing_test("jest/vitest", name);
                    return true;
                }
            }
        }
        if let Some(rest) = trimmed.strip_prefix("FAIL ") {
            let rest = rest.trim_start();
            if contains_str(rest, " > ") {
                self.failing_test("vitest", rest);
            } else {
                self.tool("jest");
                self.score += 1;
            }
            return true;
        }
        if trimmed.starts_with("✓ ") || trimmed.starts_with("√ ") || trimmed.starts_with("✔ ")
        {
            self.passed_tests += 1;
            return true;
        }
        // maven surefire: `[ERROR] testX(com.a.BTest)  Time elapsed: 0.1 s  <<< FAILURE!`,
        // `[ERROR]   BTest.testX:42 expected...`; gradle: `BTest > testX FAILED`.
        if trimmed.ends_with("<<< FAILURE!") || trimmed.ends_with("<<< ERROR!") {
            let body = trimmed.strip_prefix("[ERROR] ").unwrap_or(trimmed);
            let name = body.split("  ").next().unwrap_or(body);
            if !name.starts_with("Tests run:") {
                self.failing_test("maven", name);
                return true;
            }
        }
        if let Some(name) = trimmed.strip_suffix(" FAILED") {
            if contains_str(name, " > ") {
                self.failing_test("gradle", name);
                return true;
            }
        }
        // mocha's numbered failures after `N failing`: `1) Suite name`.
        if self.in_mocha_failures && line.starts_with("  ") {
            if let Some((count, name)) = split_str(trimmed, ") ") {
                if !count.is_empty() && count.bytes().all(|b| b.is_ascii_digit()) {
                    self.failing_test("mocha", trim_set(name, b":", false, true));
                    return true;
                }
            }
        }
        // pytest's `E   assert 500 == 422`.
        if let Some(rest) = line.strip_prefix("E   ") {
            self.assertion(number, rest.trim());
            return true;
        }
        false
    }

    /// Compiler diagnostics and build failure lines.
    fn diagnostic_line(&mut self, number: usize, line: &str, trimmed: &str) {
        // rustc: `error[E0308]: msg` then `  --> src/main.rs:4:5`.
        if let Some(location) = trimmed.strip_prefix("--> ") {
            if let Some((error, message, _)) = self.pending_rustc.take() {
                self.tool("rustc");
                self.diagnostic(error, location, &message, number);
            }
            return;
        }
        if !line.starts_with(' ') {
            if let Some((error, message)) = severity(line) {
                if !message.is_empty()
                    && !message.starts_with("aborting")
                    && !contains_str(message, " generated ")
                {
                    self.pending_rustc = Some((error, message.to_string(), number));
                }
            }
        }
        // maven: `[ERROR] /src/A.java:[12,5] msg`; gradle/kotlin: `e: file:///a/B.kt:12:5 msg`.
        let body = trimmed
            .strip_prefix("[ERROR] ")
            .or_else(|| trimmed.strip_prefix("e: "))
            .map(|rest| (true, rest))
            .or_else(|| {
                trimmed
                    .strip_prefix("[WARNING] ")
                    .or_else(|| trimmed.strip_prefix("w: "))
                    .map(|rest| (false, rest))
            });
        if let Some((error, rest)) = body {
            let rest = rest.strip_prefix("file://").unwrap_or(rest);
            if let Some((location, message)) = bracket_location(rest) {
                self.tool("maven/gradle");
                return self.diagnostic(error, location, message, number);
            }
        }
        // gcc/clang/go/javac/tsc: `file:line:col: error: msg`, `file(line,col): error TS1: msg`.
        if let Some((location, rest)) = file_location(trimmed).or_else(|| paren_location(trimmed)) {
            if let Some((error, message)) = severity(rest) {
                self.tool("compiler");
                return self.diagnostic(error, location, message, number);
            }
            // Below, messages without a severity: only in the tools' own form, `: ` then the
            // message (`path:12:text` is a search hit, `path:12:    code` a grep of code).
            let spaced = trimmed[location.len()..].starts_with(": ")
                && !rest.starts_with(char::is_whitespace);
            if !spaced {
                return;
            }
            // pytest's failure location `tests/a.py:68: AssertionError`.
            let word = first_word(rest);
            if word.ends_with("Error") || word.ends_with("Exception") {
                return self.diagnostic(true, location, rest, number);
            }
            // go test's indented `a_test.go:12: got 1, want 2`: a failing test's message, or
            // `t.Log` output of a passing one (decided by the test's `--- FAIL`/`--- PASS`).
            if contains_str(location, "_test.go:") && line.starts_with([' ', '\t']) {
                if self.in_go_failure {
                    return self.diagnostic(true, location, rest, number);
                }
                if self.go_test_messages.len() < MAX_ERRORS {
                    self.go_test_messages
                        .push((location.to_string(), rest.to_string(), number));
                }
                return;
            }
            if contains_str(location, ".go:") {
                self.go_unconfirmed_count += 1;
                if self.go_unconfirmed.len() < MAX_ERRORS {
                    self.go_unconfirmed
                        .push((location.to_string(), rest.to_string(), number));
                }
            }
            return;
        }
        // eslint stylish: a file line, then `  12:5  error  msg  rule`.
        if !line.starts_with(' ')
            && find_byte(trimmed.as_bytes(), b' ').is_none()
            && (trimmed.contains('/') || trimmed.contains('\\'))
            && trimmed.contains('.')
        {
            self.eslint_file = Some(trimmed.to_string());
            return;
        }
        if line.starts_with(' ') {
            if let Some(file) = &self.eslint_file {
                let mut words = py_words(trimmed);
                let position = words.next().unwrap_or("");
                let level = words.next().unwrap_or("");
                if position.contains(':')
                    && position.bytes().all(|b| b.is_ascii_digit() || b == b':')
                    && matches!(level, "error" | "warning")
                {
                    let location = format!("{file}:{position}");
                    let message = trimmed[position.len()..].trim_start()[level.len()..].trim();
                    self.tool("eslint");
                    return self.diagnostic(level == "error", &location, message, number);
                }
            }
        }
        // make/ninja/CI failures.
        let is_make_failure = (trimmed.starts_with("make")
            && contains_str(trimmed, ": *** ")
            && contains_str(trimmed, "Error"))
            || trimmed.starts_with("ninja: build stopped")
            || trimmed.starts_with("FAILED: ")
            || trimmed.starts_with("##[error]")
            || trimmed.starts_with("npm ERR! ")
            || trimmed.starts_with("error: could not compile")
            || (trimmed.len() <= MAX_SUMMARY_LINE_BYTES
                // Both phrases hold `exit`: one search rules both out on most lines.
                && contains_str(trimmed, "exit")
                && (contains_str(trimmed, "exited with code")
                    || contains_str(trimmed, "exit code")
                        && (contains_str(trimmed, "Process completed") || contains_str(trimmed, "failed"))));
        if is_make_failure {
            self.failure_line(number, trimmed);
        }
    }
}

/// A line of a compiler's source excerpt: `|` first, or a line number then ` |`, after an
/// optional `>` marker.
fn is_source_excerpt(trimmed: &str) -> bool {
    let text = trimmed.strip_prefix("> ").unwrap_or(trimmed);
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let rest = text[digits..].trim_start_matches(' ');
    rest.starts_with('|') && (digits > 0 || text.starts_with('|'))
}

/// maven's `/src/A.java:[12,5] msg`: the location `/src/A.java:12:5` and the message.
#[inline(never)]
fn bracket_location(s: &str) -> Option<(&str, &str)> {
    let (file, rest) = split_str(s, ":[")?;
    let (position, message) = split_str(rest, "] ")?;
    if file.contains(' ') || !position.bytes().all(|b| b.is_ascii_digit() || b == b',') {
        return None;
    }
    Some((&s[..file.len() + 2 + position.len() + 1], message))
}

/// tsc's / MSBuild's `src/a.ts(12,5): error TS2304: msg`.
#[inline(never)]
fn paren_location(s: &str) -> Option<(&str, &str)> {
    let bytes = s.as_bytes();
    // The file ends at the first `(` and holds no space: one pass that stops at either.
    let open = bytes.iter().position(|&b| b == b'(' || b == b' ')?;
    if bytes[open] != b'(' {
        return None;
    }
    let file = &s[..open];
    // The position, digits and commas up to the first `)`: given up at any other byte.
    let close = open
        + 1
        + bytes[open + 1..]
            .iter()
            .position(|&b| !(b.is_ascii_digit() || b == b','))?;
    if bytes[close] != b')' || close == open + 1 || file.is_empty() || !file.contains('.') {
        return None;
    }
    let rest = s[close + 1..].strip_prefix(':')?;
    Some((&s[..=close], rest))
}

/// The longest directory prefix the locations share, to print once instead of on every line.
fn common_directory(locations: &[&str]) -> String {
    let mut common: Option<&str> = None;
    for location in locations {
        let directory = &location[..location.len() - after_last(location, b'/').len()];
        common = Some(match common {
            None => directory,
            Some(previous) => {
                let shared = previous
                    .bytes()
                    .zip(directory.bytes())
                    .take_while(|(a, b)| a == b)
                    .count();
                let shared = &previous[..shared];
                &shared[..shared.len() - after_last(shared, b'/').len()]
            }
        });
    }
    let common = common.unwrap_or("");
    // A short prefix is not worth a line of its own.
    if common.len() >= 12 {
        common.to_string()
    } else {
        String::new()
    }
}

fn scan_lines(output: &str) -> Scan {
    let mut scan = Scan::default();
    for (index, line) in lines(output).enumerate() {
        scan.line(index + 1, line.strip_suffix('\r').unwrap_or(line));
    }
    scan.finish();
    scan
}

/// The synopsis of build or test output, or `None` when too few lines look like one.
pub fn synopsis(output: &str) -> Option<Synopsis> {
    // Runners and compilers show themselves at the start (progress lines) or at the end (the
    // summary, make's final error, the exit code): without a sign at either end, the middle is
    // not read.
    if output.len() > 2 * PROBE_BYTES
        && probes(output)
            .iter()
            .all(|probe| scan_lines(probe).score == 0)
    {
        return None;
    }
    let scan = scan_lines(output);
    if scan.score < MIN_SCORE || !scan.proven() {
        return None;
    }
    let failed = !scan.failing_tests.is_empty() || scan.error_count > 0 || scan.failure_count > 0;
    let title = if failed {
        "Build/test output with failures"
    } else {
        "Build/test output"
    };
    let mut synopsis = Synopsis::new("build_output", title);
    let tools = scan.tools.join(", ");
    if scan.summaries.is_empty() {
        synopsis.summary.push(format!("Tools: {tools}."));
    }
    // The last summaries: a runner prints its totals at the end.
    let first_shown = scan.summaries.len().saturating_sub(MAX_SUMMARIES);
    for (index, summary) in scan.summaries[first_shown..].iter().enumerate() {
        let tools = if index == 0 {
            format!(" ({tools})")
        } else {
            String::new()
        };
        synopsis.summary.push(format!("Summary{tools}: {summary}"));
    }
    if !scan.failing_tests.is_empty() {
        synopsis.summary.push(format!(
            "Failing tests ({}): {}.",
            scan.failing_tests.len(),
            scan.failing_tests[..scan.failing_tests.len().min(MAX_FAILING_TESTS)].join(", ")
        ));
    }
    if let Some((number, text)) = &scan.first_assertion {
        synopsis
            .summary
            .push(format!("First failure message: line {number}: {text}"));
    }
    if scan.passed_tests > 0 && scan.summaries.is_empty() {
        synopsis
            .summary
            .push(format!("Passed tests (lines): {}.", scan.passed_tests));
    }
    let mut locations = Vec::new();
    for diagnostic in scan.errors.iter().chain(&scan.first_warning) {
        locations.push(diagnostic.location.as_str());
    }
    let directory = common_directory(&locations);
    let located = |d: &Diagnostic| {
        format!(
            "line {}: {}: {}",
            d.line,
            d.location
                .strip_prefix(directory.as_str())
                .unwrap_or(&d.location),
            d.message
        )
    };
    if scan.error_count > 0 {
        synopsis.structure.push(format!(
            "Errors: {} (file:line: message).",
            scan.error_count
        ));
        if !directory.is_empty() {
            synopsis
                .structure
                .push(format!("Paths below are under {directory}"));
        }
        for error in &scan.errors {
            synopsis.structure.push(located(error));
        }
    }
    if scan.warning_count > 0 {
        let first = scan.first_warning.as_ref().map(located).unwrap_or_default();
        synopsis.structure.push(format!(
            "Warnings: {} compiler warnings; first: {first}",
            scan.warning_count
        ));
    }
    if scan.failure_count > 0 {
        synopsis
            .notable_items
            .push(format!("Build failure lines: {}.", scan.failure_count));
        for (number, text) in &scan.failures {
            synopsis
                .notable_items
                .push(format!("line {number}: {text}"));
        }
    }
    Some(synopsis)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::test_support::synopsis_text as text;

    fn all(output: &str) -> String {
        text(&synopsis(output).expect("build output"))
    }

    /// The rules as first written, one search per question: the oracles of the one-pass
    /// rewrites above.
    mod oracle {
        use super::super::{after_last, find_str};

        /// A count before the word (`4 failed`): each occurrence is looked at, left to right.
        pub fn counted(line: &str, word: &str) -> bool {
            let mut from = 0;
            while let Some(at) = find_str(&line[from..], word) {
                let before = line[..from + at].trim_end();
                if before.bytes().last().is_some_and(|b| b.is_ascii_digit()) {
                    return true;
                }
                from += at + word.len();
            }
            false
        }

        /// What `file_location` answers up to the location's end.
        pub fn file_location(s: &str) -> Option<(&str, &str)> {
            let bytes = s.as_bytes();
            let mut at = 0;
            if bytes.len() > 2
                && bytes[1] == b':'
                && bytes[0].is_ascii_alphabetic()
                && matches!(bytes[2], b'\\' | b'/')
            {
                at = 2;
            }
            let colon = at + s[at..].find(':')?;
            let file = &s[..colon];
            let name = after_last(after_last(file, b'/'), b'\\');
            let has_extension = name.contains('.') && !name.ends_with('.');
            if file.is_empty()
                || file.contains([' ', '\t', '(', '"', '\''])
                || !has_extension
                || file.starts_with("http")
            {
                return None;
            }
            let mut end = colon;
            for _ in 0..2 {
                if bytes.get(end) != Some(&b':') {
                    break;
                }
                let digits = s[end + 1..].bytes().take_while(u8::is_ascii_digit).count();
                if digits == 0 {
                    break;
                }
                end += 1 + digits;
            }
            if end == colon {
                return None;
            }
            let rest = &s[end..];
            let rest = rest
                .strip_prefix(": ")
                .or_else(|| rest.strip_prefix(" - "))
                .or_else(|| rest.strip_prefix(':'))?;
            Some((&s[..end], rest))
        }

        pub fn paren_location(s: &str) -> Option<(&str, &str)> {
            let open = s.find('(')?;
            let file = &s[..open];
            let close = open + s[open..].find(')')?;
            let position = &s[open + 1..close];
            if file.is_empty()
                || file.contains(' ')
                || !file.contains('.')
                || position.is_empty()
                || !position.bytes().all(|b| b.is_ascii_digit() || b == b',')
            {
                return None;
            }
            let rest = s[close + 1..].strip_prefix(':')?;
            Some((&s[..=close], rest))
        }
    }

    /// Lines of near misses for the rewrites: counts, Unicode and ASCII whitespace, the counted
    /// words and their prefixes, locations' punctuation.
    const NEAR_MISSES: &str = concat!(
        r"(1|23|0| |  |\t|\u{3000}|\u{a0}|\u{85}|\u{1f}|passed|failed|error|tests completed|tests |problems",
        r"|passing|failing|pending|pass|fail|err|pend|p|e|t|f|x|é|日本|:|::|/|\\|\.|a\.c|C:|http|\(|\)|,|",
        r#""|'| - |: |exit|exited with code|exit code|Process completed){0,14}"#,
    );

    /// Lines of near misses for the location rules: file names, positions and what breaks them.
    const LOCATION_MISSES: &str =
        r#"(C:|http)?[ac(/\\ \t"'é]{0,4}\.?[ac.]?([:(][0-9,]{0,2}){0,3}\)?(: | - |:)?(error|x)?"#;

    #[test]
    fn counted_words_agree_with_a_search_per_word_on_chosen_lines() {
        for line in [
            "4 failed",
            "4  failed",
            "4\u{3000}failed",
            "4\u{1f}failed",
            "x4\tpassing",
            "4x failed",
            "1 passed, 2 failed, 3 error",
            "5 tests completed, 1 failed",
            "✖ 2 problems (1 error, 1 warning)",
            "failed 4",
            "44",
            "4 ",
            "",
            "12 pendingé",
            "3 passed4 failed",
            "é9 passing",
        ] {
            let counts = counted_words(line);
            for (word, bit) in COUNTED_WORDS {
                assert_eq!(
                    counts & bit as u8 != 0,
                    oracle::counted(line, word),
                    "{line:?} {word:?}"
                );
            }
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    mod properties {
        use super::super::*;
        use super::{oracle, LOCATION_MISSES, NEAR_MISSES};
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

            #[test]
            fn counted_words_agree_with_a_search_per_word(line in NEAR_MISSES) {
                let counts = counted_words(&line);
                for (word, bit) in COUNTED_WORDS {
                    prop_assert_eq!(counts & bit as u8 != 0, oracle::counted(&line, word), "{:?}", word);
                }
            }

            #[test]
            fn locations_agree_with_their_first_rules(line in prop_oneof![NEAR_MISSES, LOCATION_MISSES]) {
                prop_assert_eq!(file_location(&line), oracle::file_location(&line));
                prop_assert_eq!(paren_location(&line), oracle::paren_location(&line));
            }
        }
    }

    #[test]
    fn a_location_that_ends_the_line_is_read_without_reading_past_it() {
        // Fuzz finding (target `enhanced`): `a.c:12` at the end of a line sliced past its end.
        assert_eq!(file_location("src/a.c:12"), None);
        assert_eq!(file_location("src/a.c:12:"), Some(("src/a.c:12", "")));
        assert_eq!(file_location("src/a.c:12:3"), None);
        assert_eq!(
            file_location("src/a.c:12:3: error: x"),
            Some(("src/a.c:12:3", "error: x"))
        );
        for line in ["main.rs:7", "x.go:1:2", "C:\\x.c:9"] {
            let output = format!("error: failed\n{line}\n{line}\nerror: build failed\n");
            let _ = synopsis(&output);
        }
    }

    #[test]
    fn type_checkers_summary_lines() {
        let tsc = "src/a.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.\n\nFound 1 error in src/a.ts:3\n";
        assert!(
            all(tsc).contains("Found 1 error in src/a.ts:3"),
            "{}",
            all(tsc)
        );
        let mypy = "app/a.py:3: error: Incompatible types  [assignment]\nFound 1 error in 1 file (checked 4 source files)\n";
        assert!(
            all(mypy).contains("mypy): Found 1 error in 1 file (checked 4 source files)"),
            "{}",
            all(mypy)
        );
        // Other tools' `Found` lines are no summary of a build.
        assert_eq!(summary_line("Found 3 vulnerabilities in 2 packages"), None);
    }

    #[test]
    fn pytest_failures_summary_and_first_assertion() {
        let out = "collected 3 items\n\ntests/a.py::test_ok PASSED [ 33%]\ntests/a.py::test_bad FAILED [ 66%]\n\
                   ____ test_bad ____\n>   assert x == 2\nE   assert 1 == 2\n\ntests/a.py:12: AssertionError\n\
                   FAILED tests/a.py::test_bad - assert 1 == 2\n===== 1 failed, 2 passed in 0.12s =====\n";
        let all = all(out);
        assert!(
            all.contains("Summary (pytest): 1 failed, 2 passed in 0.12s"),
            "{all}"
        );
        assert!(all.contains("Failing tests (1): test_bad."), "{all}");
        assert!(
            all.contains("First failure message: line 7: assert 1 == 2"),
            "{all}"
        );
        assert!(
            all.contains("line 9: tests/a.py:12: AssertionError"),
            "{all}"
        );
    }

    #[test]
    fn gcc_errors_warnings_and_make_failure() {
        let out = "[ 10%] Building CXX object a.o\n/home/ci/src/engine/a.cpp: In function 'f':\n\
                   /home/ci/src/engine/a.cpp:7:3: warning: unused variable 'n' [-Wunused-variable]\n\
                   /home/ci/src/engine/b.cpp:412:27: error: 'class P' has no member named 'evict'\n\
                   make[2]: *** [src/CMakeFiles/engine_storage.dir/build.make:10: b.o] Error 1\n\
                   make: *** [Makefile:146: all] Error 2\n";
        let all = all(out);
        assert!(all.contains("Errors: 1 (file:line: message)."), "{all}");
        assert!(
            all.contains("Paths below are under /home/ci/src/engine/"),
            "{all}"
        );
        assert!(
            all.contains("line 4: b.cpp:412:27: 'class P' has no member named 'evict'"),
            "{all}"
        );
        assert!(
            all.contains(
                "Warnings: 1 compiler warnings; first: line 3: a.cpp:7:3: unused variable"
            ),
            "{all}"
        );
        assert!(
            all.contains("line 5: make[2]: *** [src/CMakeFiles/engine_storage.dir"),
            "{all}"
        );
        assert!(
            all.contains("line 6: make: *** [Makefile:146: all] Error 2"),
            "{all}"
        );
    }

    #[test]
    fn rustc_and_cargo_test() {
        let out = "error[E0308]: mismatched types\n  --> src/main.rs:4:5\n   |\n\
                   test a::works ... ok\ntest a::breaks ... FAILED\n\
                   thread 'a::breaks' panicked at src/lib.rs:12:5:\nassertion failed\n\
                   test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s\n";
        let all = all(out);
        assert!(
            all.contains("line 2: src/main.rs:4:5: [E0308]: mismatched types"),
            "{all}"
        );
        assert!(all.contains("Failing tests (1): breaks."), "{all}");
        assert!(all.contains("src/lib.rs:12:5"), "{all}");
        assert!(
            all.contains("Summary (rustc, cargo test): FAILED. 1 passed; 1 failed;"),
            "{all}"
        );
    }

    #[test]
    fn go_test() {
        let out = "=== RUN   TestAdd\n--- FAIL: TestAdd (0.00s)\n    add_test.go:9: got 3, want 4\nFAIL\nFAIL\texample.com/m/add\t0.002s\nok  \texample.com/m/sub\t0.001s\n";
        let all = all(out);
        assert!(all.contains("Failing tests (1): TestAdd."), "{all}");
        assert!(all.contains("add_test.go:9: got 3, want 4"), "{all}");
        assert!(
            all.contains("Summary (go test): FAIL example.com/m/add 0.002s"),
            "{all}"
        );
    }

    #[test]
    fn jest_vitest_mocha_maven_gradle_tsc_eslint() {
        let jest = "FAIL src/a.test.js\n  ● math › adds\n\nTests:       1 failed, 9 passed, 10 total\nTest Suites: 1 failed, 1 total\n";
        assert!(all(jest).contains("Failing tests (1): math › adds."));
        let vitest = " FAIL  src/a.test.ts > math > adds\n Test Files  1 failed | 3 passed (4)\n      Tests  1 failed | 40 passed (41)\n";
        let v = all(vitest);
        assert!(
            v.contains("src/a.test.ts > math > adds")
                && v.contains("Summary: Tests 1 failed | 40 passed (41)"),
            "{v}"
        );
        let mocha = "  3 passing (12ms)\n  1 failing\n\n  1) Array\n       #indexOf():\n     AssertionError: expected -1\n";
        assert!(
            all(mocha).contains("Failing tests (1): Array."),
            "{}",
            all(mocha)
        );
        let maven = "[ERROR] testAdd(com.a.MathTest)  Time elapsed: 0.01 s  <<< FAILURE!\n[ERROR] Tests run: 5, Failures: 1, Errors: 0, Skipped: 0\n[INFO] BUILD FAILURE\n";
        let m = all(maven);
        assert!(
            m.contains("testAdd(com.a.MathTest)") && m.contains("Summary: BUILD FAILURE"),
            "{m}"
        );
        let gradle = "MathTest > testAdd FAILED\n5 tests completed, 1 failed\nBUILD FAILED in 3s\n";
        assert!(all(gradle).contains("MathTest > testAdd"));
        let tsc = "src/a.ts(12,5): error TS2304: Cannot find name 'x'.\nsrc/b.ts:3:1 - error TS1005: ';' expected.\n";
        let t = all(tsc);
        assert!(
            t.contains("src/a.ts(12,5): TS2304: Cannot find name 'x'.")
                && t.contains("src/b.ts:3:1: TS1005: ';' expected."),
            "{t}"
        );
        let eslint = "/repo/src/a.js\n  12:5  error  'x' is not defined  no-undef\n  13:1  warning  Unexpected console  no-console\n\n✖ 2 problems (1 error, 1 warning)\n";
        let e = all(eslint);
        assert!(
            e.contains("/repo/src/a.js:12:5: 'x' is not defined")
                && e.contains("Summary (eslint): ✖ 2 problems (1 error, 1 warning)"),
            "{e}"
        );
    }

    #[test]
    fn ci_timestamps_are_dropped() {
        let out = "2024-05-14T09:00:00.1234567Z src/a.c:1:2: error: boom\n2024-05-14T09:00:00.2Z src/a.c:3:4: error: bang\n2024-05-14T09:00:01Z ##[error]Process completed with exit code 2.\n";
        let all = all(out);
        assert!(
            all.contains("line 1: src/a.c:1:2: boom")
                && all.contains("line 3: ##[error]Process completed with exit code 2."),
            "{all}"
        );
    }

    #[test]
    fn not_build_output() {
        for output in [
            "plain prose\nmentioning an error: here\n",
            "2024-05-14T09:00:00Z ERROR x failed\n2024-05-14T09:00:01Z INFO ok\n",
            "see src/a.rs:12 for details\nand b.py:3: too\n",
            "",
        ] {
            assert!(synopsis(output).is_none(), "{output:?}");
        }
    }
}
