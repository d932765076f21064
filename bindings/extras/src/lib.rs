//! The extras module: the bindings of features few sessions call, kept out of the main module
//! every page loads (bindings/main; its size budget is bench row 2) and loaded by the JS layer on
//! their first use (js/extras-module.js). Each export belongs to an async operation of the JS
//! layer, which awaits the module first: resolving the refs in a tool call's arguments
//! (`resolveRefs`), reads by lines, JSON pointer or table rows, the context governor's plan
//! (`fitContext`), `restore`, and `searchAll`'s plan and ranking. The core decides, as
//! everywhere: these are thin bindings over `tool_stub`.

use serde::Serialize;
use tool_stub::{refs, retrieval, turn, Error, ErrorCode};
use tool_stub_js_error::{emit, int, parse, BindingResult};
use wasm_bindgen::prelude::*;

fn to_js(error: Error) -> JsValue {
    tool_stub_js_error::thrown(error)
}

/// Bytes of this instance's memory (the host starts a fresh instance when one call made it large:
/// wasm memory only grows).
#[wasm_bindgen(js_name = memoryBytes)]
pub fn memory_bytes() -> f64 {
    tool_stub_js_error::memory_bytes()
}

// --- Refs as values (`tool_stub::refs`) -----------------------------------------------------

/// The readable sessions from the JSON list the main module's `readableSessions` answers.
fn sessions(sessions_json: &str) -> BindingResult<Vec<refs::ReadableSession>> {
    let list: serde_json::Value = parse("readable sessions", sessions_json)?;
    refs::readable_sessions(&list).map_err(to_js)
}

/// `[{path, session, toolResultId, form}]`: the refs in a tool call's arguments.
#[wasm_bindgen(js_name = planRefs)]
pub fn plan_refs(args_json: &str, sessions_json: &str) -> BindingResult<String> {
    let args: serde_json::Value = parse("tool arguments", args_json)?;
    emit(&refs::plan_refs(&args, &sessions(sessions_json)?).map_err(to_js)?)
}

/// `{spans, separator, chars}`: what of `content` the ref form `form_json` asks for.
#[wasm_bindgen(js_name = resolveSpans)]
pub fn resolve_spans(content: &str, form_json: &str, max_chars: f64) -> BindingResult<String> {
    let form: serde_json::Value = parse("ref form", form_json)?;
    let max = usize::try_from(int("maxResolvedChars", max_chars)?).unwrap_or(0);
    emit(&refs::resolve_spans(content, &form, max).map_err(to_js)?)
}

// --- Reads by lines, JSON pointer or table rows (`tool_stub::retrieval`) -----------------------
// Their options arrive as JSON objects.

/// Checks the options of a line, JSON pointer or rows read before the output is loaded.
#[wasm_bindgen(js_name = checkReadOptions)]
pub fn check_read_options(kind: &str, options_json: &str) -> BindingResult<()> {
    use retrieval::{json_pointer, lines, table_rows};
    let checked = match kind {
        "lines" => lines::check_request(&parse("line read options", options_json)?),
        "jsonPointer" => {
            json_pointer::check_request(&parse("JSON pointer read options", options_json)?)
        }
        "rows" => table_rows::check_request(&parse("rows read options", options_json)?),
        other => Err(Error::new(
            ErrorCode::Internal,
            format!("unknown read kind {other}"),
        )),
    };
    checked.map_err(to_js)
}

#[wasm_bindgen(js_name = readLines)]
pub fn read_lines(content: &str, options_json: &str) -> BindingResult<String> {
    let request = parse("line read options", options_json)?;
    emit(&retrieval::lines::read_lines(content, &request).map_err(to_js)?)
}

#[wasm_bindgen(js_name = readJsonPointer)]
pub fn read_json_pointer(content: &str, options_json: &str) -> BindingResult<String> {
    let request = parse("JSON pointer read options", options_json)?;
    emit(&retrieval::json_pointer::read_pointer(content, &request).map_err(to_js)?)
}

#[wasm_bindgen(js_name = readTableRows)]
pub fn read_table_rows(content: &str, options_json: &str) -> BindingResult<String> {
    let request = parse("rows read options", options_json)?;
    emit(&retrieval::table_rows::read_rows(content, &request).map_err(to_js)?)
}

// --- The context governor (`tool_stub::context`) --------------------------------------------

/// The context governor's plan (`ContextPlan` as JSON) for a conversation's tool results
/// (`ContextInput` as JSON): which to clear, oldest first, and into what.
#[wasm_bindgen(js_name = contextPlan)]
pub fn context_plan(input_json: &str) -> BindingResult<String> {
    let input: tool_stub::ContextInput = parse("context input", input_json)?;
    emit(&tool_stub::context_plan(&input).map_err(to_js)?)
}

/// A tool result's form (`"inline"`, `"stub"` or `"reference"`) from the first
/// `CONTEXT_HEAD_CHARS` of its text.
#[wasm_bindgen(js_name = contextForm)]
pub fn context_form(head: &str, stub_header: &str) -> String {
    match tool_stub::context_form(head, stub_header) {
        tool_stub::ContextForm::Inline => "inline",
        tool_stub::ContextForm::Stub { .. } => "stub",
        tool_stub::ContextForm::Reference => "reference",
    }
    .to_string()
}

// --- restore and searchAll (`tool_stub::retrieval`) -------------------------------------------

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SearchAllPlan {
    grep: retrieval::grep::GrepRequest,
    limit: i64,
    /// Set for `order: "newest"`: search the candidates in `searchAllScanOrder`'s order and stop
    /// once this many matched.
    #[serde(skip_serializing_if = "Option::is_none")]
    stop_after: Option<i64>,
}

/// `{grep, limit, stopAfter?}`: how to grep each stored result (checked: a bad regex fails here,
/// before any I/O), and when to stop; the results to grep come from the session's catalog.
#[wasm_bindgen(js_name = searchAllPlan)]
pub fn search_all_plan(request_json: &str) -> BindingResult<String> {
    use retrieval::search_all;
    let request: search_all::SearchAllRequest = parse("searchAll options", request_json)?;
    let grep = search_all::grep_request(&request).map_err(to_js)?;
    let limit = request.limit.unwrap_or(search_all::DEFAULT_RESULT_LIMIT);
    let order = search_all::SearchOrder::parse(request.order.as_deref()).map_err(to_js)?;
    let stop_after = (order == search_all::SearchOrder::Newest).then_some(limit);
    emit(&SearchAllPlan {
        grep,
        limit,
        stop_after,
    })
}

/// The order in which an `order: "newest"` search loads its candidates (`[{toolResultId,
/// createdAt}]`): indices, newest first.
#[wasm_bindgen(js_name = searchAllScanOrder)]
pub fn search_all_scan_order(candidates_json: &str) -> BindingResult<Vec<u32>> {
    let candidates: Vec<retrieval::search_all::Candidate> =
        parse("search candidates", candidates_json)?;
    Ok(retrieval::search_all::scan_order(&candidates)
        .into_iter()
        .map(|i| i as u32)
        .collect())
}

/// The hits ranked under the request's `order` ("relevance" or "newest"), cut to `limit`;
/// `unsearched` candidates were not searched.
#[wasm_bindgen(js_name = rankSearchAll)]
pub fn rank_search_all(
    hits_json: &str,
    limit: f64,
    order: Option<String>,
    unsearched: f64,
) -> BindingResult<String> {
    use retrieval::search_all;
    let hits = parse("search hits", hits_json)?;
    let order = search_all::SearchOrder::parse(order.as_deref()).map_err(to_js)?;
    let unsearched = usize::try_from(int("unsearched", unsearched)?).unwrap_or(0);
    emit(&search_all::rank(hits, int("limit", limit)?, order, unsearched).map_err(to_js)?)
}

#[wasm_bindgen(js_name = restorePlan)]
pub fn restore_plan(parts_json: &str) -> BindingResult<String> {
    let parts: Vec<turn::ToolPart> = parse("parts", parts_json)?;
    emit(&retrieval::restore::restore_plan(&parts))
}

/// `{part, window}`; `metadata_json` is the stored metadata file, when there is one;
/// `stored_sha256` the host's SHA-256 of the stored output as stored ("" when the core's view of
/// it is exact: see `restore_part`).
#[wasm_bindgen(js_name = restorePart)]
pub fn restore_part(
    part_json: &str,
    stored_output: &str,
    metadata_json: Option<String>,
    stored_sha256: &str,
) -> BindingResult<String> {
    let part: turn::ToolPart = parse("part", part_json)?;
    let stored_sha256 = (!stored_sha256.is_empty()).then_some(stored_sha256);
    emit(
        &retrieval::restore::restore_part(
            part,
            stored_output,
            metadata_json.as_deref(),
            stored_sha256,
        )
        .map_err(to_js)?,
    )
}
