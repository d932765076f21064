//! Property tests: what planning, storing and reading back promise for any input.
//! The "host" here is a map from store key to text, doing what the JS layer does with a plan.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::HashMap;

use proptest::prelude::*;
use serde_json::Value;
use tool_stub::generate;
use tool_stub::read;
use tool_stub::{
    finish_turn, plan_turn, FailureMode, ToolPart, TurnConfig, TurnInput, TurnPlan, WriteOutcome,
    REASON_BUDGET,
};
use tool_stub::{safe_id, sha256_hex, tool_result_id, validate_id};

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        ".{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec(("[a-z_]{1,8}", inner), 0..6)
                .prop_map(|entries| Value::Object(entries.into_iter().collect())),
        ]
    })
}

fn table(delimiter: &'static str) -> impl Strategy<Value = String> {
    (
        1usize..5,
        prop::collection::vec(prop::collection::vec("[a-z0-9 \"]{0,6}", 4), 1..30),
    )
        .prop_map(move |(columns, rows)| {
            rows.iter()
                .map(|row| row[..columns].join(delimiter))
                .collect::<Vec<_>>()
                .join("\n")
        })
}

fn yaml() -> impl Strategy<Value = String> {
    prop::collection::vec(
        ("[a-z]{1,6}", prop::collection::vec("[a-z0-9 ]{0,8}", 0..4)),
        1..12,
    )
    .prop_map(|keys| {
        let mut text = String::from("---\n");
        for (key, items) in keys {
            text.push_str(&format!("{key}:\n"));
            for item in items {
                text.push_str(&format!("  - {item}\n"));
            }
        }
        text
    })
}

fn xml() -> impl Strategy<Value = String> {
    prop::collection::vec(("[a-z]{1,6}", "[a-z0-9 &;<]{0,10}"), 0..20).prop_map(|children| {
        let body: String = children
            .iter()
            .map(|(tag, text)| format!("<{tag}>{text}</{tag}>"))
            .collect();
        format!("<?xml version=\"1.0\"?>\n<root>{body}</root>")
    })
}

fn code() -> impl Strategy<Value = String> {
    prop::collection::vec("[a-z_]{1,8}", 1..20).prop_map(|names| {
        names
            .iter()
            .map(|name| format!("def {name}(x):\n    return x + 1\n"))
            .collect()
    })
}

/// Outputs of every kind, plus arbitrary Unicode (and control chars, so binary-like too).
fn output() -> impl Strategy<Value = String> {
    prop_oneof![
        json_value().prop_map(|v| v.to_string()),
        json_value().prop_map(|v| serde_json::to_string_pretty(&v).unwrap_or_default()),
        table(","),
        table("\t"),
        yaml(),
        xml(),
        code(),
        "(?s).{0,400}",
        "[a-z \n]{0,3000}",
        // Over the thresholds the size property uses, so single-threshold stubs are covered too.
        "[a-z,\n]{1,2000}".prop_map(|text| text.repeat(12)),
        any::<Vec<u8>>().prop_map(|bytes| String::from_utf8_lossy(&bytes).into_owned()),
    ]
}

fn mime() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just("application/json".to_string()),
        Just("application/xml".to_string()),
        Just("text/csv".to_string()),
        ".{0,20}",
    ]
}

fn parts() -> impl Strategy<Value = Vec<ToolPart>> {
    prop::collection::vec((".{0,20}", output(), mime()), 1..6).prop_map(|parts| {
        parts
            .into_iter()
            .map(|(tool_id, output, mime_type)| ToolPart {
                tool_id,
                tool_name: "bash".into(),
                output,
                mime_type,
                ..Default::default()
            })
            .collect()
    })
}

fn any_config() -> impl Strategy<Value = TurnConfig> {
    (
        -5i64..4000,
        -5i64..3000,
        -5i64..20_000,
        -5i64..5000,
        -5i64..2000,
        prop_oneof![
            Just(FailureMode::PreserveRaw),
            Just(FailureMode::PreviewOnly),
            Just(FailureMode::Reject)
        ],
    )
        .prop_map(
            |(threshold, preview, budget, preview_budget, min_preview, failure_mode)| TurnConfig {
                threshold_chars: threshold,
                preview_chars: preview,
                assistant_turn_inline_budget_chars: budget,
                assistant_turn_preview_budget_chars: preview_budget,
                min_preview_chars: min_preview,
                failure_mode,
                ..Default::default()
            },
        )
}

fn turn(parts: Vec<ToolPart>, config: TurnConfig) -> TurnInput {
    TurnInput {
        created_at: "2024-01-01T00:00:00Z".into(),
        ..TurnInput::new("session-1", "msg-1", config, parts)
    }
}

/// Does what the host does with a plan: writes each output and its record under their keys.
fn store_all(plan: &TurnPlan, store: &mut HashMap<Vec<String>, String>) -> Vec<WriteOutcome> {
    plan.writes
        .iter()
        .map(|write| {
            store.insert(
                write.output_key.clone(),
                plan.parts[write.part_index].output.clone(),
            );
            store.insert(write.metadata_key.clone(), write.metadata_json.clone());
            WriteOutcome::Stored {
                metadata_json: write.metadata_json.clone(),
            }
        })
        .collect()
}

fn total_chars(parts: &[ToolPart]) -> usize {
    parts.iter().map(|part| part.output.chars().count()).sum()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    #[test]
    fn synopsis_is_deterministic(output in output(), mime in mime(), preview in -10i64..5000) {
        let first = generate(&output, &mime, preview);
        prop_assert_eq!(first, generate(&output, &mime, preview));
    }

    #[test]
    fn every_externalized_part_is_stored_exactly(parts in parts(), config in any_config()) {
        let originals: Vec<String> = parts.iter().map(|part| part.output.clone()).collect();
        let plan = plan_turn(turn(parts, config)).expect("a valid turn plans");
        let mut store = HashMap::new();
        let outcomes = store_all(&plan, &mut store);
        let writes = plan.writes.clone();
        let finished = finish_turn(plan, outcomes).expect("stored turns finish");
        for write in &writes {
            let original = &originals[write.part_index];
            let stored = &store[&write.output_key];
            let record: Value = serde_json::from_str(&store[&write.metadata_key]).expect("record is JSON");
            let digest = sha256_hex(original);
            prop_assert_eq!(record["sha256"].as_str(), Some(digest.as_str()));
            prop_assert_eq!(record["original_chars"].as_u64(), Some(original.chars().count() as u64));
            prop_assert_eq!(sha256_hex(stored), sha256_hex(original));
            prop_assert_eq!(stored.len(), original.len());
            prop_assert_eq!(&read(stored, 0, -1).expect("valid window").content, original);
            prop_assert!(validate_id(&write.tool_result_id).is_ok(), "{}", write.tool_result_id);
            let part = &finished[write.part_index];
            prop_assert!(part.truncated);
            prop_assert_eq!(&part.output_ref, &write.reference);
            let ref_line = format!("ref: {}", write.reference);
            prop_assert!(part.output.contains(&ref_line));
        }
        for (index, part) in finished.iter().enumerate() {
            if !writes.iter().any(|write| write.part_index == index) {
                prop_assert_eq!(&part.output, &originals[index], "a part not written stays as it was");
            }
        }
    }

    /// The reference externalizes every part over `threshold_chars` even when its stub is longer
    /// (the parity corpus pins turns with a 20-char threshold that grow), so the promise is made
    /// for thresholds above any stub: stubs are bounded by the synopsis caps plus the preview.
    #[test]
    fn planning_never_makes_a_turn_bigger(
        parts in parts(),
        config in any_config(),
        headroom in 0i64..5000,
        failing in any::<bool>(),
    ) {
        let config = TurnConfig {
            threshold_chars: config.preview_chars.max(0) + 10_000 + headroom,
            ..config
        };
        let inline = total_chars(&parts);
        let failure_mode = config.failure_mode;
        let plan = plan_turn(turn(parts, config)).expect("a valid turn plans");
        let outcomes = if failing {
            plan.writes.iter().map(|_| WriteOutcome::Failed { error: "Error: full".into() }).collect()
        } else {
            store_all(&plan, &mut HashMap::new())
        };
        match finish_turn(plan, outcomes) {
            Ok(finished) => prop_assert!(total_chars(&finished) <= inline, "{} > {inline}", total_chars(&finished)),
            Err(_) => prop_assert!(failing && failure_mode == FailureMode::Reject),
        }
    }

    /// Whatever the config, a part chosen by the budget (not the threshold) shrinks the turn.
    #[test]
    fn budget_choices_only_shrink(parts in parts(), config in any_config()) {
        let originals: Vec<usize> = parts.iter().map(|part| part.output.chars().count()).collect();
        let plan = plan_turn(turn(parts, config)).expect("a valid turn plans");
        let writes = plan.writes.clone();
        let outcomes = store_all(&plan, &mut HashMap::new());
        let finished = finish_turn(plan, outcomes).expect("stored turns finish");
        let all_budget = writes.iter().all(|write| write.reason == REASON_BUDGET);
        if all_budget && !writes.is_empty() {
            prop_assert!(total_chars(&finished) < originals.iter().sum::<usize>());
        }
    }

    #[test]
    fn planning_is_deterministic(parts in parts(), config in any_config()) {
        let first = plan_turn(turn(parts.clone(), config.clone())).expect("plans");
        let second = plan_turn(turn(parts, config)).expect("plans");
        prop_assert_eq!(
            serde_json::to_string(&first).expect("serializes"),
            serde_json::to_string(&second).expect("serializes")
        );
    }

    #[test]
    fn ids_are_always_valid(tool_id in "(?s).{0,300}", output in ".{0,50}") {
        let id = tool_result_id(&tool_id, &sha256_hex(&output));
        prop_assert!(validate_id(&id).is_ok(), "{}", id);
        prop_assert!(validate_id(&safe_id(&tool_id)).is_ok());
        prop_assert!(id.len() <= 3 + 96 + 1 + 16);
    }

    #[test]
    fn read_windows_rebuild_the_original(output in "(?s).{0,500}", step in 1i64..50) {
        prop_assert_eq!(read(&output, 0, -1).expect("valid").content, output.clone());
        let mut rebuilt = String::new();
        let mut offset = 0;
        loop {
            let window = read(&output, offset, step).expect("valid");
            rebuilt.push_str(&window.content);
            offset += step;
            if !window.has_more {
                break;
            }
        }
        prop_assert_eq!(rebuilt, output);
    }
}
