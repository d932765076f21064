//! Turn planning and finishing with arbitrary configs, parts and store outcomes.
#![no_main]
use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use tool_stub::ErrorCode;
use tool_stub::{
    finish_turn, plan_turn, FailureMode, ToolPart, TurnConfig, TurnInput, WriteOutcome,
};
use tool_stub::{sha256_hex, validate_id};

/// Mostly small numbers (where the interesting edges are), sometimes any i64.
fn size(u: &mut Unstructured<'_>) -> Result<i64> {
    if u.ratio(1, 8)? {
        u.arbitrary()
    } else {
        u.int_in_range(-3..=3000)
    }
}

fn config(u: &mut Unstructured<'_>) -> Result<TurnConfig> {
    let failure_mode = *u.choose(&[
        FailureMode::PreserveRaw,
        FailureMode::PreviewOnly,
        FailureMode::Reject,
    ])?;
    Ok(TurnConfig {
        enabled: !u.ratio(1, 16)?,
        threshold_chars: size(u)?,
        preview_chars: size(u)?,
        assistant_turn_inline_budget_chars: size(u)?,
        assistant_turn_preview_budget_chars: size(u)?,
        min_preview_chars: size(u)?,
        failure_mode,
        max_output_bytes: if u.arbitrary()? {
            u.int_in_range(0..=5000)?
        } else {
            u64::MAX
        },
        ..Default::default()
    })
}

fn part(u: &mut Unstructured<'_>, session_uri: &str, read_tool: &str) -> Result<ToolPart> {
    let tool_name = match u.int_in_range(0..=2)? {
        0 => read_tool.to_string(),
        1 => "bash".to_string(),
        _ => u.arbitrary()?,
    };
    let tool_input = match u.int_in_range(0..=2)? {
        0 => None,
        1 => Some(serde_json::json!({
            "ref": format!("{session_uri}/tool-results/{}", u.arbitrary::<String>()?),
            "offset": u.arbitrary::<i64>()?,
            "limit": u.arbitrary::<i32>()?,
        })),
        _ => Some(serde_json::json!({ "uri": u.arbitrary::<String>()? })),
    };
    // An already externalized part (a stub from an earlier turn) claims its own lengths.
    let earlier_stub = u.ratio(1, 6)?;
    Ok(ToolPart {
        tool_id: u.arbitrary()?,
        tool_name,
        tool_input,
        output: u.arbitrary()?,
        mime_type: u
            .choose(&[
                "",
                "application/json",
                "text/csv",
                "application/xml",
                "text/yaml",
            ])?
            .to_string(),
        output_ref: if earlier_stub {
            format!("{session_uri}/tool-results/x")
        } else {
            String::new()
        },
        truncated: earlier_stub,
        original_chars: if earlier_stub {
            Some(u.arbitrary()?)
        } else {
            None
        },
        ..Default::default()
    })
}

fn run(u: &mut Unstructured<'_>) -> Result<()> {
    let config = config(u)?;
    let session_id = if u.ratio(1, 8)? {
        u.arbitrary()?
    } else {
        "s".to_string()
    };
    let session_uri = format!("viking://user/default/sessions/{session_id}");
    let count = u.int_in_range(0..=5)?;
    let parts = (0..count)
        .map(|_| part(u, &session_uri, &config.tool_names.read))
        .collect::<Result<Vec<_>>>()?;
    // The rest of the input is one more output, so seed files reach planning whole.
    let mut parts = parts;
    let rest = u.bytes(u.len())?;
    parts.push(ToolPart {
        tool_id: "rest".into(),
        tool_name: "cat".into(),
        output: String::from_utf8_lossy(rest).into_owned(),
        ..Default::default()
    });
    let failure_mode = config.failure_mode;
    let raw_outputs: Vec<String> = parts.iter().map(|p| p.output.clone()).collect();
    let input = TurnInput::new(&session_id, "m", config, parts);
    let plan = match plan_turn(input) {
        Ok(plan) => plan,
        Err(error) => {
            assert!(
                matches!(error.code, ErrorCode::InvalidArgument | ErrorCode::TooLarge),
                "{error}"
            );
            assert!(error.code != ErrorCode::TooLarge || failure_mode == FailureMode::Reject);
            return Ok(());
        }
    };
    let mut outcomes = Vec::new();
    let mut any_failed = false;
    for write in &plan.writes {
        let raw = &raw_outputs[write.part_index];
        assert_eq!(write.sha256, sha256_hex(raw));
        assert!(
            validate_id(&write.tool_result_id).is_ok(),
            "{}",
            write.tool_result_id
        );
        assert!(write
            .output_key
            .iter()
            .all(|segment| !segment.is_empty() && segment != ".." && !segment.contains('/')));
        let record: serde_json::Value =
            serde_json::from_str(&write.metadata_json).expect("record is JSON");
        assert_eq!(record["sha256"], write.sha256.as_str());
        assert_eq!(record["original_chars"], raw.chars().count() as u64);
        // The rest of the input is used up: the digest decides which writes the store fails.
        if write.sha256.ends_with(['0', '1', '2', '3']) {
            any_failed = true;
            outcomes.push(WriteOutcome::Failed {
                error: "Error: fuzzed failure".into(),
            });
        } else {
            outcomes.push(WriteOutcome::Stored {
                metadata_json: write.metadata_json.clone(),
            });
        }
    }
    let writes = plan.writes.clone();
    let stored: Vec<bool> = outcomes
        .iter()
        .map(|o| matches!(o, WriteOutcome::Stored { .. }))
        .collect();
    match finish_turn(plan, outcomes) {
        Ok(finished) => {
            for (write, outcome) in writes.iter().zip(&stored) {
                let part = &finished[write.part_index];
                if !outcome && failure_mode == FailureMode::PreserveRaw {
                    assert_eq!(part.output, raw_outputs[write.part_index]);
                    continue;
                }
                assert!(part.truncated);
                assert_eq!(
                    part.original_chars,
                    Some(raw_outputs[write.part_index].chars().count() as u64)
                );
            }
        }
        Err(error) => assert!(
            any_failed
                && failure_mode == FailureMode::Reject
                && error.code == ErrorCode::StoreFailed,
            "{error}"
        ),
    }
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let _ = run(&mut Unstructured::new(data));
});
