#![allow(dead_code)] // each test binary uses its own subset of these helpers
//! Shared helpers of the Rust integration tests: where the parity corpus is, and readable diffs.

use std::path::PathBuf;

/// The parity corpus (`../shared/parity` beside the checkout, or `TOOL_STUB_PARITY_DIR`).
/// `None` when it is absent: the corpus holds third-party data and is never copied here.
pub fn parity_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("TOOL_STUB_PARITY_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/parity"));
    dir.join("cases.jsonl").is_file().then_some(dir)
}

/// Says loudly that a corpus check did not run, in the form the test command counts as skipped.
pub fn report_skipped(what: &str) {
    println!("PARITY-SKIPPED: {what}: ../shared/parity is absent, these checks were skipped, not passed");
}

/// A short, readable account of where two strings first differ.
pub fn first_difference(expected: &str, actual: &str) -> String {
    let at = expected.chars().zip(actual.chars()).take_while(|(a, b)| a == b).count();
    let window = |s: &str| s.chars().skip(at.saturating_sub(60)).take(160).collect::<String>();
    format!(
        "first difference at char {at}\n    expected: {:?}\n    actual:   {:?}",
        window(expected),
        window(actual)
    )
}

/// The first `n` chars of `s`, for messages.
pub fn first_chars(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}
