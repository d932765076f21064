// The wasm binding's checks, shared by the Node and the headless-Chromium test binaries
// (`include!`d by wasm_node.rs and wasm_browser.rs so each runner runs the same assertions).

use serde_json::Value;
use tool_stub_main as wasm;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen]
extern "C" {
    /// What the core throws: a JavaScript `Error` with a `code`.
    #[wasm_bindgen(js_name = Error)]
    type CodedError;
    #[wasm_bindgen(method, getter)]
    fn code(this: &CodedError) -> Option<String>;
    #[wasm_bindgen(method, getter)]
    fn stack(this: &CodedError) -> Option<String>;
}

/// The `code` of a thrown `Error` with a stack ("" for anything else).
fn error_code(error: JsValue) -> String {
    match error.dyn_into::<CodedError>() {
        Ok(error) if error.stack().is_some() => error.code().unwrap_or_default(),
        _ => String::new(),
    }
}

#[wasm_bindgen_test]
fn synopsis_detects_json_in_wasm() {
    let json = wasm::synopsis_json(
        r#"{"a": [1, 2.5e-7], "b": "x"}"#,
        "text/plain",
        2000.0,
        "",
        None,
    )
    .expect("synopsis");
    let synopsis: Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(synopsis["kind"], "json");
    assert_eq!(synopsis["notable_items"][0], "a[0]: 1");
    assert_eq!(synopsis["notable_items"][1], "b: 'x'");
}

#[wasm_bindgen_test]
fn make_preview_renders_the_reference_header() {
    let json = wasm::make_preview_json(
        "hello\nworld",
        r#"{"ref":"viking://s/tool-results/tr_1","previewChars":3}"#,
        None,
    )
    .expect("preview");
    let preview: Value = serde_json::from_str(&json).expect("JSON");
    let stub = preview["stub"].as_str().unwrap_or("");
    assert!(stub.starts_with("[OpenViking tool result externalized]\ntool_name: tool\nkind: text\noriginal_chars: 11\npreview_chars: 3\nref: viking://s/tool-results/tr_1"));
    assert!(stub.ends_with("to discover other externalized outputs in this session."));
}

#[wasm_bindgen_test]
fn sha256_and_ids_match_native() {
    let sha = wasm::sha256_hex("abc");
    assert_eq!(
        sha,
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert_eq!(
        wasm::tool_result_id("call/1", &sha),
        "tr_call_1_ba7816bf8f01cfea"
    );
}

#[wasm_bindgen_test]
fn errors_cross_as_coded_error_objects() {
    assert_eq!(
        error_code(wasm::validate_id("../etc").expect_err("rejected")),
        "INVALID_ARGUMENT"
    );
    assert_eq!(
        error_code(wasm::read_window("abc", -1.0, 5.0).expect_err("rejected")),
        "INVALID_ARGUMENT"
    );
    assert_eq!(
        error_code(wasm::read_window("abc", 0.5, 5.0).expect_err("rejected")),
        "INVALID_ARGUMENT"
    );
    assert_eq!(
        error_code(wasm::plan_turn("{not json", vec![], vec![], None, None).expect_err("rejected")),
        "INVALID_ARGUMENT"
    );
    // After errors the module keeps working.
    assert!(wasm::read_window("abc", 1.0, 1.0).is_ok());
}

#[wasm_bindgen_test]
fn a_turn_plans_and_finishes_in_wasm_without_sending_outputs_back() {
    let output = "line of text\n".repeat(3_000);
    let input = serde_json::json!({
        "sessionId": "s", "messageId": "m",
        "parts": [{"toolId": "t1", "toolName": "bash"}, {"toolId": "t2", "toolName": "bash"}]
    });
    let outputs = vec![output.clone(), "short".to_string()];
    let answer = wasm::plan_turn(
        &input.to_string(),
        outputs,
        vec![String::new(); 2],
        None,
        None,
    )
    .expect("plan");
    assert_eq!(answer.len(), 3, "the plan, then two files per write");
    let planned: Value = serde_json::from_str(&answer[0]).expect("JSON");
    let write = &planned["writes"][0];
    assert_eq!(write["partIndex"], 0);
    assert_eq!(write["sha256"], wasm::sha256_hex(&output));
    let turn = planned["turn"].as_u64().expect("turn number") as u32;
    let index: Value = serde_json::from_str(&answer[1]).expect("index");
    assert_eq!(index["chars"], output.len());
    let record: Value = serde_json::from_str(&answer[2]).expect("record");
    assert_eq!(record["sha256"], wasm::sha256_hex(&output));
    assert_eq!(record["synopsis_kind"], "text");
    // "" stands for the planned record.
    let outcomes = serde_json::json!([{"status": "stored", "metadataJson": ""}]).to_string();
    let finished = wasm::finish_turn(turn, &outcomes, vec![String::new()], None).expect("finish");
    let parts: Value = serde_json::from_str(&finished).expect("JSON");
    assert_eq!(parts[0]["truncated"], true);
    assert!(parts[0]["output"]
        .as_str()
        .unwrap_or("")
        .contains("kind: text"));
    assert_eq!(
        parts[1]["output"], "",
        "an unchanged output comes back empty"
    );
    // A turn finishes once.
    let again =
        wasm::finish_turn(turn, &outcomes, vec![String::new()], None).expect_err("finished");
    assert_eq!(error_code(again), "INVALID_ARGUMENT");
}

#[wasm_bindgen_test]
fn a_dropped_turn_cannot_finish_and_bad_outcomes_leave_it_pending() {
    let input = serde_json::json!({"sessionId": "s", "messageId": "m", "parts": [{"toolId": "t", "toolName": "x"}]});
    let plan = || {
        let answer = wasm::plan_turn(
            &input.to_string(),
            vec!["z".repeat(50_000)],
            vec![String::new()],
            None,
            None,
        )
        .expect("plan");
        let planned: Value = serde_json::from_str(&answer[0]).expect("JSON");
        planned["turn"].as_u64().expect("turn number") as u32
    };
    let stored = serde_json::json!([{"status": "stored", "metadataJson": ""}]).to_string();
    let dropped = plan();
    wasm::drop_turn(dropped);
    wasm::drop_turn(dropped);
    let error =
        wasm::finish_turn(dropped, &stored, vec![String::new()], None).expect_err("dropped");
    assert_eq!(error_code(error), "INVALID_ARGUMENT");
    let pending = plan();
    assert_ne!(pending, dropped, "every plan gets its own number");
    let error = wasm::finish_turn(
        pending,
        "[{\"status\": \"lost\"}]",
        vec![String::new()],
        None,
    )
    .expect_err("bad outcome");
    assert_eq!(error_code(error), "INVALID_ARGUMENT");
    assert!(wasm::finish_turn(pending, &stored, vec![String::new()], None).is_ok());
}

#[wasm_bindgen_test]
fn a_host_computed_sha256_is_used_and_a_failed_write_keeps_the_raw_output_with_the_host() {
    let output = "word ".repeat(5_000);
    let input = serde_json::json!({"sessionId": "s", "messageId": "m", "parts": [{"toolId": "t", "toolName": "x"}]});
    let known = "ab".repeat(32);
    let answer = wasm::plan_turn(
        &input.to_string(),
        vec![output.clone()],
        vec![known.clone()],
        None,
        None,
    )
    .expect("plan");
    let planned: Value = serde_json::from_str(&answer[0]).expect("JSON");
    assert_eq!(planned["writes"][0]["sha256"], known.as_str());
    let turn = planned["turn"].as_u64().expect("turn number") as u32;
    let outcomes = serde_json::json!([{"status": "failed", "error": "Error: full"}]);
    let finished =
        wasm::finish_turn(turn, &outcomes.to_string(), vec![output], None).expect("finish");
    let parts: Value = serde_json::from_str(&finished).expect("JSON");
    assert_eq!(
        (
            parts[0]["output"].as_str(),
            parts[0]["externalizationError"].as_str()
        ),
        (Some(""), Some("Error: full"))
    );
}
