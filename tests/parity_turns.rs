//! Every scenario of `../shared/parity/turns.jsonl`: turn-level externalization must give the
//! reference's part fields and store the reference's files (metadata without `created_at` and
//! `user_id`, which depend on the caller).

mod common;

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};
use tool_stub::char_len;
use tool_stub::sha256_hex;
use tool_stub::stored_matches;
use tool_stub::{finish_turn, plan_turn, ToolPart, TurnConfig, TurnInput, WriteOutcome};

/// `tool_output_group_id` → `groupId`; `tool_output` → `output`.
fn api_field(reference_field: &str) -> String {
    let rest = reference_field
        .strip_prefix("tool_output")
        .unwrap_or(reference_field);
    let rest = rest.strip_prefix('_').unwrap_or(rest);
    match rest {
        "" => return "output".to_string(),
        "ref" => return "outputRef".to_string(),
        _ => {}
    }
    let mut camel = String::new();
    for (i, word) in rest.split('_').enumerate() {
        let mut chars = word.chars();
        match (i, chars.next()) {
            (0, Some(first)) => camel.push(first),
            (_, Some(first)) => camel.extend(first.to_uppercase()),
            _ => {}
        }
        camel.extend(chars);
    }
    camel
}

fn scenario_parts(scenario: &Value) -> Vec<ToolPart> {
    let parts = scenario["parts"].as_array().cloned().unwrap_or_default();
    parts
        .iter()
        .map(|part| ToolPart {
            tool_id: part["tool_id"].as_str().unwrap_or("").to_string(),
            tool_name: part["tool_name"].as_str().unwrap_or("").to_string(),
            tool_input: part.get("tool_input").cloned(),
            output: part["output"].as_str().unwrap_or("").to_string(),
            mime_type: part["mime_type"].as_str().unwrap_or("").to_string(),
            ..Default::default()
        })
        .collect()
}

/// Runs one scenario against an in-memory store; returns the parts and the files written.
/// Store keys and what was written at each.
type Files = BTreeMap<Vec<String>, String>;

fn run(scenario: &Value) -> Result<(Vec<ToolPart>, Files), String> {
    let config: TurnConfig =
        serde_json::from_value(scenario["config"].clone()).map_err(|e| e.to_string())?;
    let input = TurnInput {
        session_id: scenario["session_id"].as_str().unwrap_or("").to_string(),
        session_uri: None,
        message_id: scenario["message_id"].as_str().unwrap_or("").to_string(),
        config,
        parts: scenario_parts(scenario),
        created_at: "2026-01-01T00:00:00Z".to_string(),
        user_id: Some("default".to_string()),
        peer_id: None,
    };
    let plan = plan_turn(input).map_err(|e| e.to_string())?;
    let mut files = Files::new();
    let mut outcomes = Vec::new();
    for write in &plan.writes {
        let existing = files.get(&write.metadata_key).cloned();
        let metadata_json = match existing {
            Some(stored) if stored_matches(&stored, &write.sha256) => stored,
            _ => {
                let part = &plan.parts[write.part_index];
                files.insert(write.output_key.clone(), part.output.clone());
                files.insert(write.metadata_key.clone(), write.metadata_json.clone());
                write.metadata_json.clone()
            }
        };
        outcomes.push(WriteOutcome::Stored { metadata_json });
    }
    let parts = finish_turn(plan, outcomes).map_err(|e| e.to_string())?;
    Ok((parts, files))
}

fn compare(scenario: &Value, expected: &Value) -> Vec<String> {
    let (parts, files) = match run(scenario) {
        Ok(result) => result,
        Err(error) => return vec![format!("failed: {error}")],
    };
    let mut problems = Vec::new();
    let expected_parts = expected["parts"].as_array().cloned().unwrap_or_default();
    if expected_parts.len() != parts.len() {
        problems.push(format!(
            "{} parts, expected {}",
            parts.len(),
            expected_parts.len()
        ));
    }
    for (i, (want, got)) in expected_parts.iter().zip(&parts).enumerate() {
        let got = serde_json::to_value(got).unwrap_or(Value::Null);
        for (field, want_value) in want.as_object().into_iter().flatten() {
            let got_value = &got[api_field(field)];
            if got_value != want_value {
                let detail = match (want_value.as_str(), got_value.as_str()) {
                    (Some(w), Some(g)) => common::first_difference(w, g),
                    _ => format!("expected {want_value}, got {got_value}"),
                };
                problems.push(format!("part {i} {field}: {detail}"));
            }
        }
    }
    let session_uri = expected["session_uri"].as_str().unwrap_or("");
    let session_id = scenario["session_id"].as_str().unwrap_or("");
    let mut actual_files = Map::new();
    for (key, content) in &files {
        let uri = format!("{session_uri}/{}", key[1..].join("/"));
        assert_eq!(key[0], session_id);
        let value = if uri.ends_with("/output.txt") {
            json!({"sha256": sha256_hex(content), "chars": char_len(content)})
        } else {
            let mut record: Value = serde_json::from_str(content).unwrap_or(Value::Null);
            if let Some(object) = record.as_object_mut() {
                object.remove("created_at");
                object.remove("user_id");
            }
            record
        };
        actual_files.insert(uri, value);
    }
    let actual_files = Value::Object(actual_files);
    if actual_files != expected["files"] {
        problems.push(format!(
            "files differ\n    expected: {}\n    actual:   {}",
            common::first_chars(&expected["files"].to_string(), 600),
            common::first_chars(&actual_files.to_string(), 600)
        ));
    }
    problems
}

#[test]
fn parity_turns_match_the_reference() {
    let Some(dir) = common::parity_dir() else {
        common::report_skipped("turns.jsonl");
        return;
    };
    let lines = std::fs::read_to_string(dir.join("turns.jsonl")).expect("read turns.jsonl");
    let mut checked = 0;
    let mut failures = Vec::new();
    for line in lines.lines().filter(|l| !l.trim().is_empty()) {
        let case: Value = serde_json::from_str(line).expect("scenario is JSON");
        let problems = compare(&case["scenario"], &case["expected"]);
        checked += 1;
        if !problems.is_empty() {
            let session = case["scenario"]["session_id"]
                .as_str()
                .unwrap_or("?")
                .to_string();
            failures.push(format!("{session}:\n  {}", problems.join("\n  ")));
        }
    }
    println!("parity turns: {checked} checked, {} differ", failures.len());
    assert!(checked > 0, "turns.jsonl held no scenario");
    assert!(
        failures.is_empty(),
        "{} of {checked} parity turns differ; the first ones:\n{}",
        failures.len(),
        failures
            .iter()
            .take(4)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
