//! The main module's wasm-bindgen binding: the one place that knows about JavaScript for the
//! module every page loads. Each export takes plain values or JSON text, calls the core
//! (`tool_stub`), and returns a value or JSON text; every error leaves as a thrown JavaScript
//! `Error` with a `code` (bindings/js-error), which the JS layer turns into a `ToolStubError`.

use std::cell::RefCell;

use serde::Serialize;
use tool_stub::record::{parse_stored, stored_matches};
use tool_stub::{agent, ids, retrieval, turn};
use tool_stub::{
    make_preview, render_stub, synopsis_in_mode, Error, ErrorCode, PreviewRequest, StubHeader,
    StubOptions, Synopsis, SynopsisMode, ToolNames,
};
use wasm_bindgen::prelude::*;

mod catalog_pages;
mod refs;

use tool_stub_js_error::{emit, int, json_text, parse, BindingResult};

/// The core's error as a thrown JavaScript `Error` with a `code`.
fn to_js(error: Error) -> JsValue {
    tool_stub_js_error::thrown(error)
}

#[wasm_bindgen]
extern "C" {
    /// A host object whose `synopsis(utf8, mimeType, referenceJson)` answers, synchronously, the
    /// enhanced synopsis (JSON) of the output whose UTF-8 is `utf8` (a view of the core's memory,
    /// valid during the call), given the reference's synopsis of it: the enhanced module's answer
    /// (js/enhanced-module.js). The main module is built without enhanced mode's analyzers (see
    /// src/enhanced_source.rs). Every call that may make an enhanced synopsis takes one.
    pub type HostEnhanced;
    #[wasm_bindgen(method, catch)]
    fn synopsis(
        this: &HostEnhanced,
        utf8: &[u8],
        mime_type: &str,
        reference_json: &str,
    ) -> Result<String, JsValue>;
}

/// Runs a call that may make enhanced synopses with `host` answering them. What the host throws
/// (the enhanced module could not load, say) is the call's error, thrown as it is; after it the
/// call asks the host nothing more and its answer is dropped.
fn with_enhanced<R>(
    host: Option<HostEnhanced>,
    run: impl FnOnce() -> BindingResult<R>,
) -> BindingResult<R> {
    use std::rc::Rc;
    let failure: Rc<RefCell<Option<JsValue>>> = Rc::default();
    let failed = Rc::clone(&failure);
    let source = move |output: &str, mime_type: &str, reference: &Synopsis| {
        if failed.borrow().is_some() {
            return None;
        }
        let answer = match host.as_ref() {
            None => Err(to_js(Error::new(
                ErrorCode::Internal,
                "an enhanced synopsis was needed but no host of the enhanced module was given",
            ))),
            Some(host) => emit(reference)
                .and_then(|json| host.synopsis(output.as_bytes(), mime_type, &json))
                .and_then(|json| {
                    serde_json::from_str::<Synopsis>(&json).map_err(|e| {
                        to_js(Error::new(
                            ErrorCode::Internal,
                            format!("the enhanced module's synopsis is unreadable: {e}"),
                        ))
                    })
                }),
        };
        answer
            .map_err(|error| *failed.borrow_mut() = Some(error))
            .ok()
    };
    let answer = tool_stub::enhanced_source::with_source(Box::new(source), run);
    match failure.take() {
        Some(error) => Err(error),
        None => answer,
    }
}

/// `mode` is `synopsisMode` ("" for the default, "reference"); in enhanced mode the synopsis is
/// bounded as the one of a stub without ref or tool name.
#[wasm_bindgen(js_name = synopsisJson)]
pub fn synopsis_json(
    output: &str,
    mime_type: &str,
    preview_chars: f64,
    mode: &str,
    enhanced: Option<HostEnhanced>,
) -> BindingResult<String> {
    let preview_chars = int("previewChars", preview_chars)?;
    let mode = SynopsisMode::parse(mode).map_err(to_js)?;
    if mode == SynopsisMode::Reference {
        return emit(&tool_stub::generate(output, mime_type, preview_chars));
    }
    let header = StubHeader {
        original_chars: tool_stub::char_len(output),
        preview_chars,
        ..StubHeader::default()
    };
    with_enhanced(enhanced, || {
        let mut synopsis = synopsis_in_mode(output, mime_type, preview_chars, mode, &header);
        if tool_stub::redact::redacts(None, mode) {
            tool_stub::redact::redact_synopsis(&mut synopsis);
        }
        emit(&synopsis)
    })
}

#[wasm_bindgen(js_name = renderStub)]
pub fn render_stub_json(synopsis_json: &str, options_json: &str) -> BindingResult<String> {
    let synopsis: Synopsis = parse("synopsis", synopsis_json)?;
    let options: StubOptions = parse("stub options", options_json)?;
    Ok(render_stub(
        &synopsis,
        &StubHeader {
            title: &options.stub_header,
            reference: &options.reference,
            tool_name: &options.tool_name,
            sha256: &options.sha256,
            reason: &options.reason,
            original_chars: options.original_chars.unwrap_or(0),
            original_tokens: None,
            preview_chars: options.preview_chars.unwrap_or(0),
            tools: options.tool_names.as_ref(),
        },
    ))
}

// The results below are small structs, not `json!` objects: `json!` converts a struct through
// `serde_json::to_value`, a second serializer for each type in the wasm.

#[derive(Serialize)]
struct Preview<'a> {
    synopsis: &'a Synopsis,
    stub: &'a str,
}

/// `{synopsis, stub}` for one output.
#[wasm_bindgen(js_name = makePreviewJson)]
pub fn make_preview_json(
    output: &str,
    options_json: &str,
    enhanced: Option<HostEnhanced>,
) -> BindingResult<String> {
    let options: StubOptions = parse("preview options", options_json)?;
    let (synopsis, stub) = with_enhanced(enhanced, || {
        Ok(make_preview(
            output,
            &PreviewRequest {
                mime_type: &options.mime_type,
                preview_chars: options.preview_chars.unwrap_or(2_000),
                tool_name: &options.tool_name,
                reference: &options.reference,
                sha256: &options.sha256,
                reason: &options.reason,
                original_chars: options.original_chars,
                tools: options.tool_names.as_ref(),
                max_stub_chars: options.max_stub_chars,
                title: &options.stub_header,
                mode: options.synopsis_mode,
                redact_secrets: tool_stub::redact::redacts(
                    options.redact_secrets,
                    options.synopsis_mode,
                ),
            },
        ))
    })?;
    emit(&Preview {
        synopsis: &synopsis,
        stub: &stub,
    })
}

#[wasm_bindgen(js_name = toolResultId)]
pub fn tool_result_id(tool_id: &str, sha256: &str) -> String {
    ids::tool_result_id(tool_id, sha256)
}

#[wasm_bindgen(js_name = sha256Hex)]
pub fn sha256_hex(output: &str) -> String {
    ids::sha256_hex(output)
}

#[wasm_bindgen(js_name = sha256HexOfBytes)]
pub fn sha256_hex_of_bytes(bytes: &[u8]) -> String {
    ids::sha256_hex_of_bytes(bytes)
}

#[wasm_bindgen(js_name = validateId)]
pub fn validate_id(id: &str) -> BindingResult<()> {
    ids::validate_id(id).map_err(to_js)
}

#[wasm_bindgen(js_name = validateSessionId)]
pub fn validate_session_id(session_id: &str) -> BindingResult<()> {
    tool_stub::record::validate_session_id(session_id).map_err(to_js)
}

// Outputs cross into the core once, beside the turn's JSON, and never come back: an output
// the core leaves as it is travels back as "" (no stub or preview is ever empty), and the host
// keeps its own copy.

#[wasm_bindgen]
extern "C" {
    /// A host object whose `sha256(utf8)` returns, synchronously, the hex SHA-256 of a
    /// `Uint8Array` view of the core's memory: node:crypto hashes an output where it already is,
    /// with no copy and no second UTF-8 encoding.
    pub type HostHasher;
    #[wasm_bindgen(method, catch)]
    fn sha256(this: &HostHasher, utf8: &[u8]) -> Result<String, JsValue>;
}

#[wasm_bindgen]
extern "C" {
    /// A host object whose `start(index, utf8)` starts an asynchronous SHA-256 of output `index`
    /// from a `Uint8Array` view of the core's memory, valid only during the call (WebCrypto's
    /// `digest` copies its input before it returns): browsers hash the bytes the core already
    /// has instead of encoding every output a second time.
    pub type HostDigests;
    #[wasm_bindgen(method, catch)]
    fn start(this: &HostDigests, index: usize, utf8: &[u8]) -> Result<(), JsValue>;
}

/// Values the core keeps between two calls of the host, by number: `put` hands out a number
/// once, `take` gives the value back once.
struct Pending<T> {
    last: u32,
    items: Vec<(u32, T)>,
}

impl<T> Pending<T> {
    const fn new() -> Self {
        Pending {
            last: 0,
            items: Vec::new(),
        }
    }

    fn put(&mut self, item: T) -> u32 {
        self.last = self.last.wrapping_add(1);
        self.items.push((self.last, item));
        self.last
    }

    fn take(&mut self, number: u32) -> Option<T> {
        let at = self.items.iter().position(|(n, _)| *n == number)?;
        Some(self.items.swap_remove(at).1)
    }
}

thread_local! {
    /// Turns planned and not yet finished. A plan stays in the core while the host stores its
    /// outputs: sending it out as JSON and reading it back cost a sixth of a 1,000-part turn.
    /// `finishTurn` takes a plan out; `dropTurn` discards one the host will not finish.
    static PENDING_TURNS: RefCell<Pending<turn::TurnPlan>> = const { RefCell::new(Pending::new()) };
    /// Outputs staged by `stageOutputs` while the host hashes them; `planStagedTurn` takes them
    /// out, `dropStagedOutputs` discards them.
    static STAGED_OUTPUTS: RefCell<Pending<Vec<String>>> = const { RefCell::new(Pending::new()) };
}

/// Plans a turn. `input_json` is the turn with its parts' outputs left out; `outputs` are the
/// outputs by part index; `sha256s` their SHA-256 where the host has them (hex, "" where not
/// computed), and `hasher` (optional) hashes the others. The core hashes what neither gives.
/// `enhanced` answers enhanced synopses (see `HostEnhanced`).
///
/// The answer is a list of strings: first `{"turn", "writes": [{partIndex, sha256, outputKey,
/// indexKey, metadataKey}]}` (`turn` names the plan for `finishTurn`), then, for each write in
/// order, the contents of its index file and of its record file. Beside the JSON, not inside it:
/// the record files are most of the answer and would only be escaped and unescaped.
#[wasm_bindgen(js_name = planTurn)]
pub fn plan_turn(
    input_json: &str,
    outputs: Vec<String>,
    sha256s: Vec<String>,
    hasher: Option<HostHasher>,
    enhanced: Option<HostEnhanced>,
) -> BindingResult<Vec<String>> {
    with_enhanced(enhanced, || {
        plan_with_outputs(input_json, outputs, &|index: usize, output: &str| {
            known_sha256(&sha256s, index)
                .or_else(|| hasher.as_ref()?.sha256(output.as_bytes()).ok())
        })
    })
}

/// Stages a turn's outputs in the core (`planStagedTurn` plans with them) and calls
/// `digests.start(index, utf8)` with the bytes of each non-empty one; answers the staging's
/// number. For hosts whose SHA-256 is asynchronous: each output is encoded once. A digest that
/// fails to start only leaves that output to the core's own SHA-256.
#[wasm_bindgen(js_name = stageOutputs)]
pub fn stage_outputs(outputs: Vec<String>, digests: HostDigests) -> u32 {
    for (index, output) in outputs.iter().enumerate() {
        if !output.is_empty() {
            let _ = digests.start(index, output.as_bytes());
        }
    }
    STAGED_OUTPUTS.with_borrow_mut(|staged| staged.put(outputs))
}

/// `planTurn` with the outputs `stageOutputs` staged (taken out: a staging plans once) and the
/// host's SHA-256 of them ("" where the host has none: the core hashes those).
#[wasm_bindgen(js_name = planStagedTurn)]
pub fn plan_staged_turn(
    input_json: &str,
    staged: u32,
    sha256s: Vec<String>,
    enhanced: Option<HostEnhanced>,
) -> BindingResult<Vec<String>> {
    let outputs = STAGED_OUTPUTS
        .with_borrow_mut(|pending| pending.take(staged))
        .ok_or_else(|| {
            to_js(Error::invalid(format!(
                "outputs {staged} are not staged outputs waiting to be planned"
            )))
        })?;
    with_enhanced(enhanced, || {
        plan_with_outputs(input_json, outputs, &|index: usize, _: &str| {
            known_sha256(&sha256s, index)
        })
    })
}

/// Discards staged outputs the host will not plan (nothing when they are not staged).
#[wasm_bindgen(js_name = dropStagedOutputs)]
pub fn drop_staged_outputs(staged: u32) {
    STAGED_OUTPUTS.with_borrow_mut(|pending| pending.take(staged));
}

/// The host's SHA-256 of output `index`, when it gave one.
fn known_sha256(sha256s: &[String], index: usize) -> Option<String> {
    sha256s.get(index).filter(|hex| !hex.is_empty()).cloned()
}

fn plan_with_outputs(
    input_json: &str,
    outputs: Vec<String>,
    host_sha256: turn::HostSha256<'_>,
) -> BindingResult<Vec<String>> {
    let mut input: turn::TurnInput = parse("turn", input_json)?;
    if outputs.len() != input.parts.len() {
        let message = format!(
            "expected {} outputs, got {}",
            input.parts.len(),
            outputs.len()
        );
        return Err(to_js(Error::invalid(message)));
    }
    for (part, output) in input.parts.iter_mut().zip(outputs) {
        part.output = output;
    }
    let mut plan = turn::plan_turn_with_hashes(input, host_sha256).map_err(to_js)?;
    // The host keeps its outputs: the plan keeps only those planning rewrote.
    for (index, part) in plan.parts.iter_mut().enumerate() {
        if !plan.rewritten_parts.contains(&index) {
            part.output = String::new();
        }
    }
    let mut answer = vec![String::new()];
    for write in &mut plan.writes {
        answer.push(std::mem::take(&mut write.index_json));
        answer.push(std::mem::take(&mut write.metadata_json));
    }
    let writes = emit(
        &plan
            .writes
            .iter()
            .map(WriteForHost::from)
            .collect::<Vec<_>>(),
    )?;
    let turn = PENDING_TURNS.with_borrow_mut(|pending| pending.put(plan));
    answer[0] = format!(r#"{{"turn":{turn},"writes":{writes}}}"#);
    Ok(answer)
}

/// What the host needs of a planned write to store it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct WriteForHost<'a> {
    part_index: usize,
    sha256: &'a str,
    output_key: &'a [String],
    index_key: &'a [String],
    metadata_key: &'a [String],
}

impl<'a> From<&'a turn::PlannedWrite> for WriteForHost<'a> {
    fn from(write: &'a turn::PlannedWrite) -> Self {
        WriteForHost {
            part_index: write.part_index,
            sha256: &write.sha256,
            output_key: &write.output_key,
            index_key: &write.index_key,
            metadata_key: &write.metadata_key,
        }
    }
}

/// The new parts of a planned turn (`turn` from `planTurn`, which it takes out: a turn finishes
/// once), from one outcome per planned write and, per planned write, its output when the write
/// failed ("" otherwise: only a failed write's preview needs the output again).
#[wasm_bindgen(js_name = finishTurn)]
pub fn finish_turn(
    turn: u32,
    outcomes_json: &str,
    failed_outputs: Vec<String>,
    enhanced: Option<HostEnhanced>,
) -> BindingResult<String> {
    let outcomes: Vec<turn::WriteOutcome> = parse("write outcomes", outcomes_json)?;
    let mut plan = PENDING_TURNS
        .with_borrow_mut(|pending| pending.take(turn))
        .ok_or_else(|| {
            to_js(Error::invalid(format!(
                "turn {turn} is not a planned turn waiting to finish"
            )))
        })?;
    let mut restored = Vec::new();
    for (write, output) in plan.writes.iter().zip(failed_outputs) {
        if let (false, Some(part)) = (output.is_empty(), plan.parts.get_mut(write.part_index)) {
            part.output = output;
            restored.push(write.part_index);
        }
    }
    let mut parts = with_enhanced(enhanced, || {
        turn::finish_turn(plan, outcomes).map_err(to_js)
    })?;
    // A raw output kept inline after a failed write goes back as "" too (a stub sets `truncated`).
    for index in restored {
        if let Some(part) = parts.get_mut(index).filter(|part| !part.truncated) {
            part.output = String::new();
        }
    }
    emit(&parts)
}

/// Bytes of this instance's memory. Wasm memory only grows: the host starts a fresh instance
/// when one call made it large and nothing is kept in it (see js/runtime.js).
#[wasm_bindgen(js_name = memoryBytes)]
pub fn memory_bytes() -> f64 {
    tool_stub_js_error::memory_bytes()
}

/// Discards a planned turn the host will not finish (nothing when it is not pending).
#[wasm_bindgen(js_name = dropTurn)]
pub fn drop_turn(turn: u32) {
    PENDING_TURNS.with_borrow_mut(|pending| pending.take(turn));
}

#[wasm_bindgen(js_name = storedMatches)]
pub fn stored_matches_js(metadata_json: &str, sha256: &str) -> bool {
    stored_matches(metadata_json, sha256)
}

/// The stored record as JSON text, or `undefined` when the file is unreadable.
#[wasm_bindgen(js_name = parseStoredRecord)]
pub fn parse_stored_record(metadata_json: &str) -> Option<String> {
    parse_stored(metadata_json).map(|value| json_text(&value))
}

#[wasm_bindgen(js_name = readWindow)]
pub fn read_window(content: &str, offset: f64, limit: f64) -> BindingResult<String> {
    let window =
        retrieval::read(content, int("offset", offset)?, int("limit", limit)?).map_err(to_js)?;
    emit(&window)
}

/// The position index of an output (see `retrieval::output_index`), as JSON; `well_formed` says
/// whether the string the store keeps had no lone surrogate.
#[wasm_bindgen(js_name = outputIndex)]
pub fn output_index(output: &str, well_formed: bool) -> BindingResult<String> {
    emit(&retrieval::output_index::output_index(output, well_formed))
}

#[wasm_bindgen(js_name = checkReadArgs)]
pub fn check_read_args(offset: f64, limit: f64) -> BindingResult<()> {
    retrieval::check_read_args(int("offset", offset)?, int("limit", limit)?).map_err(to_js)
}

#[wasm_bindgen(js_name = checkListLimit)]
pub fn check_list_limit(limit: f64) -> BindingResult<()> {
    retrieval::check_list_limit(int("limit", limit)?).map_err(to_js)
}

/// The config with every default filled in (and unknown keys refused).
#[wasm_bindgen(js_name = resolveConfig)]
pub fn resolve_config(config_json: &str) -> BindingResult<String> {
    let config: turn::TurnConfig = parse("config", config_json)?;
    config.check().map_err(to_js)?;
    emit(&config)
}

#[wasm_bindgen(js_name = toolDefinitions)]
pub fn tool_definitions(names_json: &str, format: &str) -> BindingResult<String> {
    let names: ToolNames = parse("tool names", names_json)?;
    let format = agent::DefinitionFormat::parse(format).map_err(to_js)?;
    emit(&agent::tool_definitions(&names, format))
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
enum CheckedCall {
    Call(agent::ToolCall),
    Error(agent::CallError),
}

/// `{"call": {...}}` for a valid call, `{"error": {code, message, allowed}}` for a bad one.
#[wasm_bindgen(js_name = validateToolCall)]
pub fn validate_tool_call(
    names_json: &str,
    name: &str,
    args_json: &str,
    max_result_chars: f64,
) -> BindingResult<String> {
    let names: ToolNames = parse("tool names", names_json)?;
    let args: serde_json::Value = parse("tool arguments", args_json)?;
    let max = int("maxResultChars", max_result_chars)?;
    match agent::validate_call(&names, name, &args, max) {
        Ok(call) => emit(&CheckedCall::Call(call)),
        Err(error) => emit(&CheckedCall::Error(error)),
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct BoundItems {
    items: Vec<serde_json::Value>,
    left_out: usize,
}

/// `{"items": [...], "leftOut": n}`: the items that fit in `max_chars` of JSON.
#[wasm_bindgen(js_name = boundItems)]
pub fn bound_items(items_json: &str, max_chars: f64) -> BindingResult<String> {
    let items: Vec<serde_json::Value> = parse("items", items_json)?;
    let (items, left_out) = agent::bound_items(items, int("maxChars", max_chars)?);
    emit(&BoundItems { items, left_out })
}

/// A tool call's error (`{code, message, allowed?}`) held to `maxResultChars` (see
/// `agent::bound_error`).
#[wasm_bindgen(js_name = boundToolError)]
pub fn bound_tool_error(error_json: &str, max_result_chars: f64) -> BindingResult<String> {
    let error: serde_json::Map<String, serde_json::Value> = parse("error", error_json)?;
    emit(&agent::bound_error(
        error,
        int("maxResultChars", max_result_chars)?,
    ))
}

#[wasm_bindgen(js_name = checkGrep)]
pub fn check_grep(request_json: &str) -> BindingResult<()> {
    let request = parse("search options", request_json)?;
    retrieval::grep::check(&request).map(|_| ()).map_err(to_js)
}

#[wasm_bindgen(js_name = grepContent)]
pub fn grep_content(content: &str, request_json: &str) -> BindingResult<String> {
    let request = parse("search options", request_json)?;
    emit(&retrieval::grep::grep(content, &request).map_err(to_js)?)
}

/// What a result of `kind` adds to each search hit (`hits`: offset, length, offset, length, ...
/// in code points, sorted): `row` for CSV/TSV, `jsonPointer` for JSON, as a JSON array with one
/// object per hit (see `retrieval::hit_coordinates`). Numbers in, JSON written by hand: a
/// derived reader and writer cost ~7 KB of the module.
#[wasm_bindgen(js_name = hitCoordinates)]
pub fn hit_coordinates(content: &str, kind: &str, hits: &[u32]) -> String {
    let hits: Vec<(usize, usize)> = hits
        .chunks_exact(2)
        .map(|pair| (pair[0] as usize, pair[1] as usize))
        .collect();
    let mut out = String::from("[");
    for (i, entry) in retrieval::hit_coordinates::hit_coordinates(content, kind, &hits)
        .iter()
        .enumerate()
    {
        if i > 0 {
            out.push(',');
        }
        out.push('{');
        if let Some(row) = entry.row {
            out.push_str(&format!("\"row\":{row}"));
        }
        if let Some(pointer) = &entry.json_pointer {
            out.push_str("\"jsonPointer\":");
            out.push_str(&json_text(&serde_json::Value::String(pointer.clone())));
        }
        out.push('}');
    }
    out.push(']');
    out
}

/// The catalog entry (src/catalog.rs) of a stored record found under `dir_id` (`undefined` when
/// the record is not a JSON object): `output_bytes` plus the UTF-8 bytes of the index and record
/// files it is stored in.
#[wasm_bindgen(js_name = catalogEntryOf)]
pub fn catalog_entry_of(
    dir_id: &str,
    record: &str,
    index: &str,
    output_bytes: f64,
) -> Option<String> {
    let stored = output_bytes.max(0.0) as u64 + index.len() as u64 + record.len() as u64;
    let entry = tool_stub::catalog::CatalogEntry::from_record(dir_id, record, stored)?;
    Some(json_text(&entry.to_json()))
}

/// What a cleared result becomes (`{ text, reference }` as JSON), given the stub its stored
/// output got; `undefined` when `stub` is no stub of this session with a ref.
#[wasm_bindgen(js_name = contextReplacement)]
pub fn context_replacement(
    to: &str,
    stub: &str,
    stub_tokens: f64,
    result_tokens: f64,
    stub_header: &str,
    names_json: &str,
) -> BindingResult<Option<String>> {
    let to = tool_stub::Replacement::parse(to).map_err(to_js)?;
    let names: ToolNames = parse("tool names", names_json)?;
    let stub_tokens = int("stubTokens", stub_tokens)?.max(0) as u64;
    let result_tokens = int("resultTokens", result_tokens)?.max(0) as u64;
    match tool_stub::context_replacement(to, stub, stub_tokens, result_tokens, stub_header, &names)
    {
        Some(replaced) => emit(&replaced).map(Some),
        None => Ok(None),
    }
}
