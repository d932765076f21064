//! Every case of `../shared/parity/cases.jsonl` must give the reference's exact answers: kind,
//! every synopsis field, the stub text, sha256, id and length.

mod common;

use serde_json::Value;
use tool_stub::char_len;
use tool_stub::{make_preview, PreviewRequest};
use tool_stub::{sha256_hex, tool_result_id};

fn text<'a>(case: &'a Value, key: &str) -> &'a str {
    case[key].as_str().unwrap_or("")
}

#[test]
fn parity_cases_match_the_reference() {
    let Some(dir) = common::parity_dir() else {
        common::report_skipped("cases.jsonl");
        return;
    };
    let lines = std::fs::read_to_string(dir.join("cases.jsonl")).expect("read cases.jsonl");
    let mut checked = 0;
    let mut failures = Vec::new();
    for line in lines.lines().filter(|l| !l.trim().is_empty()) {
        let case: Value = serde_json::from_str(line).expect("case is JSON");
        let id = text(&case, "id");
        let bytes = std::fs::read(dir.join(text(&case, "input"))).expect("read input");
        let output = String::from_utf8(bytes).expect("input is UTF-8");
        let expected = &case["expected"];
        let sha = sha256_hex(&output);
        let request = PreviewRequest {
            mime_type: text(&case, "mime_type"),
            preview_chars: case["preview_chars"].as_i64().unwrap_or(0),
            tool_name: text(&case, "tool_name"),
            reference: text(&case, "ref"),
            sha256: &sha,
            reason: text(&case, "reason"),
            ..Default::default()
        };
        let (synopsis, stub) = make_preview(&output, &request);
        let actual_synopsis = serde_json::to_value(&synopsis).expect("synopsis serializes");
        let mut problems = Vec::new();
        if actual_synopsis != expected["synopsis"] {
            problems.push(format!(
                "synopsis differs\n    expected: {}\n    actual:   {}",
                expected["synopsis"], actual_synopsis
            ));
        }
        if stub != text(expected, "stub") {
            problems.push(format!(
                "stub differs: {}",
                common::first_difference(text(expected, "stub"), &stub)
            ));
        }
        if sha != text(expected, "sha256") {
            problems.push("sha256 differs".to_string());
        }
        if tool_result_id(text(&case, "tool_id"), &sha) != text(expected, "tool_result_id") {
            problems.push("tool_result_id differs".to_string());
        }
        if Some(char_len(&output) as u64) != expected["original_chars"].as_u64() {
            problems.push("original_chars differs".to_string());
        }
        checked += 1;
        if !problems.is_empty() {
            failures.push(format!(
                "{id} ({}):\n  {}",
                expected["kind"],
                problems.join("\n  ")
            ));
        }
    }
    println!("parity cases: {checked} checked, {} differ", failures.len());
    let mut by_kind = std::collections::BTreeMap::new();
    for failure in &failures {
        let kind = failure.split(['(', ')']).nth(1).unwrap_or("?").to_string();
        *by_kind.entry(kind).or_insert(0) += 1;
    }
    if !by_kind.is_empty() {
        println!("differing cases by expected kind: {by_kind:?}");
    }
    for failure in failures
        .iter()
        .filter(|f| std::env::var("PARITY_SHOW").is_ok_and(|k| f.contains(&k)))
    {
        println!("{failure}");
    }
    assert!(checked > 0, "cases.jsonl held no case");
    assert!(
        failures.is_empty(),
        "{} of {checked} parity cases differ; the first ones:\n{}",
        failures.len(),
        failures
            .iter()
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
