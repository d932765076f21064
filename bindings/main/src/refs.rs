//! Bindings of refs as values (`tool_stub::refs`) that every session needs: which sessions it may
//! read, which session a ref names, and what a tool that accepts refs tells the model. Sessions
//! travel as the JSON list `readableSessions` answers (`[own, ...granted]`). Resolving the refs in
//! a tool call's arguments is the extras module's (bindings/extras).

use wasm_bindgen::prelude::*;

use super::{emit, json_text, parse, to_js, BindingResult};
use tool_stub::refs;

fn sessions(sessions_json: &str) -> BindingResult<Vec<refs::ReadableSession>> {
    let list: serde_json::Value = parse("readable sessions", sessions_json)?;
    refs::readable_sessions(&list).map_err(to_js)
}

/// `[{sessionId, sessionUri}]`: the sessions a ToolStub may read, from `[own, ...grants]`.
#[wasm_bindgen(js_name = readableSessions)]
pub fn readable_sessions(list_json: &str) -> BindingResult<String> {
    emit(&sessions(list_json)?)
}

/// `{session, toolResultId}`: the readable session (its index) and result a ref or id names.
#[wasm_bindgen(js_name = refTarget)]
pub fn ref_target(value: &str, sessions_json: &str) -> BindingResult<String> {
    emit(&refs::ref_target(value, &sessions(sessions_json)?).map_err(to_js)?)
}

/// What a tool that accepts refs tells the model, and the default cap of a call's resolved refs.
#[wasm_bindgen(js_name = refArguments)]
pub fn ref_arguments() -> String {
    let mut answer = serde_json::Map::new();
    answer.insert("note".into(), refs::REF_ARGUMENTS_NOTE.into());
    answer.insert(
        "defaultMaxResolvedChars".into(),
        refs::DEFAULT_MAX_RESOLVED_CHARS.into(),
    );
    json_text(&serde_json::Value::Object(answer))
}

/// A tool's input schema widened to take a ref form for each top-level property.
#[wasm_bindgen(js_name = acceptRefsSchema)]
pub fn accept_refs_schema(schema_json: &str) -> BindingResult<String> {
    let schema: serde_json::Value = parse("input schema", schema_json)?;
    Ok(json_text(&refs::accept_refs(schema)))
}
