//! Turn-level externalization (SPEC 7), split in two pure steps around the store I/O that the
//! host does: `plan_turn` decides which parts go out and what to write; the host writes (or finds
//! an identical stored record, or fails); `finish_turn` turns the outcomes into the new parts.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::budget_unit::{output_size, BudgetUnit, ReportedTokens, TokenSample, Tokenizer};
use crate::error::{Error, ErrorCode, Result};
use crate::ids::{sha256_hex, tool_result_id};
use crate::json_fields::{self, required, take};
use crate::python::{char_len, head_tail_len, head_tail_of, stable_sort_by};
use crate::record::{
    self, default_session_uri, result_key, result_ref, validate_session_id, ToolResultRecord,
    INDEX_FILE, METADATA_FILE, OFFSET_UNIT, OUTPUT_FILE,
};
use crate::retrieval::output_index::{index_of_received_output, OutputIndex};
use crate::stub::{
    bound_synopsis, effective_preview_chars, make_preview, render_bounded_stub, render_stub,
    sections_chars, stub_limit, synopsis_in_mode, PreviewRequest, StubHeader, ToolNames,
    DEFAULT_MAX_STUB_CHARS,
};
use crate::synopsis::Synopsis;
use crate::synopsis_mode::SynopsisMode;

pub const REASON_SINGLE: &str = "single_threshold";
pub const REASON_BUDGET: &str = "turn_budget";
pub const REASON_SOURCE_READ: &str = "source_read";
/// A part the host asked to go out whatever its size (`forceExternalize`: the context governor
/// clearing an older result, see src/context/).
pub const REASON_CONTEXT: &str = "context_budget";
/// The reason of a preview-only stub that stands in for an output over `max_output_bytes`.
pub const REASON_TOO_LARGE: &str = "too_large";
pub const DEFAULT_MAX_OUTPUT_BYTES: u64 = 256 * 1024 * 1024;
/// Most chars of head/tail sample an oversized output's stub shows, whatever `preview_chars` is.
const MAX_OVERSIZED_SAMPLE_CHARS: i64 = 20_000;
pub const DEFAULT_MIME_TYPE: &str = "text/plain";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum FailureMode {
    /// Keep the raw output inline and record the error on the part.
    #[default]
    PreserveRaw,
    /// Fail the whole turn.
    Reject,
    /// Put a stub without a ref in place of the output.
    PreviewOnly,
}

impl FailureMode {
    /// Every mode (the generated TypeScript contract lists their names).
    pub const ALL: [FailureMode; 3] = [
        FailureMode::PreserveRaw,
        FailureMode::Reject,
        FailureMode::PreviewOnly,
    ];
}

/// How the turn budget picks outputs to send out: the reference has one strategy (the largest
/// remaining output that lowers the turn's size first); its config names it, so it is accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum SelectionStrategy {
    #[default]
    LargestFirst,
}

/// The reference config: camelCase keys (the JS API's), the reference's snake_case ones as aliases.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TurnConfig {
    pub enabled: bool,
    pub threshold_chars: i64,
    pub preview_chars: i64,
    pub assistant_turn_inline_budget_chars: i64,
    pub assistant_turn_preview_budget_chars: i64,
    pub min_preview_chars: i64,
    pub failure_mode: FailureMode,
    /// The reference's `aggregate_selection_strategy` (only `largest_first` exists).
    pub aggregate_selection_strategy: SelectionStrategy,
    /// The retrieval tool names the stubs point at (and that mark read-back parts).
    pub tool_names: ToolNames,
    /// Outputs of these tools always stay inline.
    pub exempt_tool_names: Vec<String>,
    /// Retention: the most results a session keeps (oldest go first).
    pub max_results: Option<u64>,
    /// Retention: the most bytes (outputs and records, UTF-8) a session keeps.
    pub max_bytes: Option<u64>,
    /// Retention: results older than this are deleted.
    pub max_age_ms: Option<u64>,
    /// The cap on what one retrieval tool call returns to the model.
    pub max_result_chars: i64,
    /// How long the host waits for one store call before counting it failed (the host enforces it).
    pub store_timeout_ms: Option<u64>,
    /// Outputs longer than this many UTF-8 bytes are never synopsized or stored (TOO_LARGE):
    /// they stay raw with an error (`preserve_raw`), get a bounded head/tail stub
    /// (`preview_only`), or fail the turn (`reject`).
    pub max_output_bytes: u64,
    /// The most chars of a stub: its synopsis's lists and long names are clipped to fit (see
    /// `stub::stub_limit`; a stub is also never longer than an output over 4,000 chars).
    pub max_stub_chars: usize,
    /// What the threshold and the turn's inline budget count: chars (`thresholdChars`,
    /// `assistantTurnInlineBudgetChars`) or tokens (`thresholdTokens`,
    /// `assistantTurnInlineBudgetTokens`, each output counted by the host).
    pub budget_unit: BudgetUnit,
    pub threshold_tokens: i64,
    pub assistant_turn_inline_budget_tokens: i64,
    /// The tokenizer the host counts with in token mode, unless it has a counter of its own.
    pub tokenizer: Tokenizer,
    /// The first line of every stub (default the reference's; one line, not empty).
    pub stub_header: String,
    /// The synopsis rules: the reference's (default) or the enhanced ones.
    pub synopsis_mode: SynopsisMode,
    /// Whether credential-looking values are masked in stubs and their records' synopses (see
    /// `redact`); unset, on in enhanced mode and off in reference mode (whose stubs stay the
    /// reference's). The stored output is never altered.
    pub redact_secrets: Option<bool>,
}

json_fields::defaulted_struct!(TurnConfig, deny_unknown_fields, {
    enabled: "enabled",
    threshold_chars: "thresholdChars" | "threshold_chars",
    preview_chars: "previewChars" | "preview_chars",
    assistant_turn_inline_budget_chars: "assistantTurnInlineBudgetChars" | "assistant_turn_inline_budget_chars",
    assistant_turn_preview_budget_chars: "assistantTurnPreviewBudgetChars" | "assistant_turn_preview_budget_chars",
    min_preview_chars: "minPreviewChars" | "min_preview_chars",
    failure_mode: "failureMode" | "failure_mode",
    aggregate_selection_strategy: "aggregateSelectionStrategy" | "aggregate_selection_strategy",
    tool_names: "toolNames" | "tool_names",
    exempt_tool_names: "exemptToolNames" | "exempt_tool_names",
    max_results: "maxResults" | "max_results",
    max_bytes: "maxBytes" | "max_bytes",
    max_age_ms: "maxAgeMs" | "max_age_ms",
    max_result_chars: "maxResultChars" | "max_result_chars",
    store_timeout_ms: "storeTimeoutMs" | "store_timeout_ms",
    max_output_bytes: "maxOutputBytes" | "max_output_bytes",
    max_stub_chars: "maxStubChars" | "max_stub_chars",
    budget_unit: "budgetUnit" | "budget_unit",
    threshold_tokens: "thresholdTokens" | "threshold_tokens",
    assistant_turn_inline_budget_tokens: "assistantTurnInlineBudgetTokens" | "assistant_turn_inline_budget_tokens",
    tokenizer: "tokenizer",
    stub_header: "stubHeader" | "stub_header",
    synopsis_mode: "synopsisMode" | "synopsis_mode",
    redact_secrets: "redactSecrets" | "redact_secrets",
});

impl Default for TurnConfig {
    fn default() -> Self {
        TurnConfig {
            enabled: true,
            threshold_chars: 20_000,
            preview_chars: 2_000,
            assistant_turn_inline_budget_chars: 100_000,
            assistant_turn_preview_budget_chars: 10_000,
            min_preview_chars: 1_000,
            failure_mode: FailureMode::PreserveRaw,
            aggregate_selection_strategy: SelectionStrategy::LargestFirst,
            tool_names: ToolNames::default(),
            exempt_tool_names: Vec::new(),
            max_results: None,
            max_bytes: None,
            max_age_ms: None,
            max_result_chars: crate::retrieval::DEFAULT_MAX_RESULT_CHARS,
            store_timeout_ms: None,
            max_output_bytes: DEFAULT_MAX_OUTPUT_BYTES,
            max_stub_chars: DEFAULT_MAX_STUB_CHARS,
            budget_unit: BudgetUnit::Chars,
            // The char defaults at ~4 chars a token.
            threshold_tokens: 5_000,
            assistant_turn_inline_budget_tokens: 25_000,
            tokenizer: Tokenizer::O200k,
            stub_header: crate::stub::REFERENCE_STUB_HEADER.to_string(),
            synopsis_mode: SynopsisMode::Reference,
            redact_secrets: None,
        }
    }
}

impl TurnConfig {
    /// Refuses values the fields' types allow but a stub cannot carry.
    pub fn check(&self) -> Result<()> {
        if self.stub_header.is_empty() || self.stub_header.contains(['\n', '\r']) {
            return Err(Error::invalid(format!(
                "config.stubHeader must be one non-empty line, got {:?}",
                self.stub_header
            )));
        }
        Ok(())
    }

    /// A single output larger than this goes out, in the budget unit.
    pub fn threshold(&self) -> i64 {
        match self.budget_unit {
            BudgetUnit::Chars => self.threshold_chars,
            BudgetUnit::Tokens => self.threshold_tokens,
        }
    }

    /// A turn larger than this sends outputs out until it fits, in the budget unit.
    pub fn inline_budget(&self) -> i64 {
        match self.budget_unit {
            BudgetUnit::Chars => self.assistant_turn_inline_budget_chars,
            BudgetUnit::Tokens => self.assistant_turn_inline_budget_tokens,
        }
    }

    /// Whether stubs mask secrets: as set, else in enhanced mode only.
    pub fn redacts(&self) -> bool {
        crate::redact::redacts(self.redact_secrets, self.synopsis_mode)
    }

    pub fn retention(&self) -> crate::retention::RetentionPolicy {
        crate::retention::RetentionPolicy {
            max_results: self.max_results,
            max_bytes: self.max_bytes,
            max_age_ms: self.max_age_ms,
        }
    }

    /// `eff(n)`: the preview chars each of `n` externalized parts gets.
    pub fn effective_preview(&self, selected: usize) -> i64 {
        if selected == 0 {
            return self.preview_chars;
        }
        let share = self
            .assistant_turn_preview_budget_chars
            .div_euclid(selected as i64);
        self.preview_chars
            .min(self.min_preview_chars.max(share))
            .max(0)
    }
}

/// One tool part of a turn, with the reference's `tool_output*` fields under the JS API's names.
#[derive(Debug, Clone, PartialEq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct ToolPart {
    pub tool_id: String,
    pub tool_name: String,
    pub tool_input: Option<Value>,
    pub output: String,
    pub mime_type: String,
    pub output_ref: String,
    pub truncated: bool,
    pub original_chars: Option<u64>,
    pub preview_chars: Option<u64>,
    pub sha256: String,
    pub storage_uri: String,
    pub group_id: String,
    pub externalized_reason: String,
    pub group_original_chars: Option<u64>,
    pub group_budget_chars: Option<i64>,
    pub externalization_error: String,
    pub source_ref: String,
    /// A read-back's `offset`/`limit` input as given (the reference keeps a non-integer as is).
    pub source_offset: Option<Value>,
    pub source_limit: Option<Value>,
    /// The host asks for this output to stay inline whatever its size.
    pub keep_inline: bool,
    /// The host asks for this output to go out whatever its size (`keepInline` wins).
    pub force_externalize: bool,
    /// The output's tokens as the host counted them (token mode); absent where its size decides.
    /// Read only: the caller counted them.
    #[serde(skip_serializing)]
    pub output_tokens: Option<u64>,
    /// In place of `output_tokens` for an output the host stopped counting past the threshold:
    /// the proof it is over, and a counted sample its stub's estimate comes from. Read only.
    #[serde(skip_serializing)]
    pub output_tokens_sample: Option<TokenSample>,
    /// The id of the message this part came from, when a turn's parts come from several: its
    /// record's `message_id` (the call's `messageId` otherwise). Read only: the caller has it.
    #[serde(skip_serializing)]
    pub message_id: String,
}

json_fields::defaulted_struct!(ToolPart, {
    tool_id: "toolId",
    tool_name: "toolName",
    tool_input: "toolInput",
    output: "output",
    mime_type: "mimeType",
    output_ref: "outputRef",
    truncated: "truncated",
    original_chars: "originalChars",
    preview_chars: "previewChars",
    sha256: "sha256",
    storage_uri: "storageUri",
    group_id: "groupId",
    externalized_reason: "externalizedReason",
    group_original_chars: "groupOriginalChars",
    group_budget_chars: "groupBudgetChars",
    externalization_error: "externalizationError",
    source_ref: "sourceRef",
    source_offset: "sourceOffset",
    source_limit: "sourceLimit",
    keep_inline: "keepInline",
    force_externalize: "forceExternalize",
    output_tokens: "outputTokens",
    output_tokens_sample: "outputTokensSample",
    message_id: "messageId",
});

impl ToolPart {
    fn is_externalized(&self) -> bool {
        !self.output_ref.is_empty() && self.truncated
    }

    fn mime_or_default(&self) -> &str {
        if self.mime_type.is_empty() {
            DEFAULT_MIME_TYPE
        } else {
            &self.mime_type
        }
    }
}

#[derive(Debug, Clone)]
pub struct TurnInput {
    pub session_id: String,
    pub session_uri: Option<String>,
    pub message_id: String,
    pub config: TurnConfig,
    pub parts: Vec<ToolPart>,
    /// Written into each record as `created_at` (the host's clock: the core has none).
    pub created_at: String,
    pub user_id: Option<String>,
    /// Written into each record as `peer_id` (the message's peer, as the reference records it).
    pub peer_id: Option<String>,
}

json_fields::deserialize_from_json!(TurnInput);

impl TurnInput {
    /// `sessionId`, `messageId` and `parts` required, the rest optional; unknown fields ignored.
    pub fn from_json(value: Value) -> std::result::Result<Self, serde_json::Error> {
        let (mut session_id, mut message_id, mut parts) = (None, None, None);
        let mut input = TurnInput::new("", "", TurnConfig::default(), Vec::new());
        for (key, value) in json_fields::object(value, "struct TurnInput")? {
            match key.as_str() {
                "sessionId" => session_id = Some(take(value)?),
                "sessionUri" => input.session_uri = take(value)?,
                "messageId" => message_id = Some(take(value)?),
                "config" => input.config = take(value)?,
                "parts" => parts = Some(take_parts(value)?),
                "createdAt" => input.created_at = take(value)?,
                "userId" => input.user_id = take(value)?,
                "peerId" => input.peer_id = take(value)?,
                _ => {}
            }
        }
        input.session_id = required(session_id, "sessionId")?;
        input.message_id = required(message_id, "messageId")?;
        input.parts = required(parts, "parts")?;
        Ok(input)
    }

    /// A turn of `parts` in a session, with the default session URI and no clock or user.
    pub fn new(
        session_id: &str,
        message_id: &str,
        config: TurnConfig,
        parts: Vec<ToolPart>,
    ) -> Self {
        TurnInput {
            session_id: session_id.to_string(),
            session_uri: None,
            message_id: message_id.to_string(),
            config,
            parts,
            created_at: String::new(),
            user_id: None,
            peer_id: None,
        }
    }
}

/// One output to store: the host writes `output` at `output_key`, then `metadata_json` at
/// `metadata_key`, unless the metadata already there records the same SHA-256.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlannedWrite {
    pub part_index: usize,
    pub tool_result_id: String,
    pub reference: String,
    pub reason: String,
    pub preview_chars: i64,
    pub sha256: String,
    pub output_key: Vec<String>,
    pub index_key: Vec<String>,
    /// The output's position index, to store at `index_key` after the output and before the record.
    pub index_json: String,
    pub metadata_key: Vec<String>,
    pub metadata_json: String,
    /// The stub the part becomes when the planned record is the one stored, rendered now so
    /// finishing need not read the record back.
    pub stub: String,
    /// The output's length in code points, so finishing needs no second pass over it.
    pub original_chars: usize,
    /// Its tokens, in token mode when the host counted or sampled them (the stub reports them).
    pub original_tokens: Option<ReportedTokens>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TurnPlan {
    /// The parts with group fields set and read-back parts rewritten; selected parts still raw.
    pub parts: Vec<ToolPart>,
    pub writes: Vec<PlannedWrite>,
    /// The parts whose output planning replaced (read-back previews); every other part still
    /// holds the caller's output, so the binding drops those outputs from the plan it keeps.
    pub rewritten_parts: Vec<usize>,
    pub failure_mode: FailureMode,
    pub tool_names: ToolNames,
    pub max_stub_chars: usize,
    pub stub_header: String,
    pub synopsis_mode: SynopsisMode,
    /// Whether stubs mask secrets (`TurnConfig::redacts`).
    pub redact_secrets: bool,
}

/// An array of parts, each read by `ToolPart::from_json`.
fn take_parts(value: Value) -> std::result::Result<Vec<ToolPart>, serde_json::Error> {
    let items: Vec<Value> = take(value)?;
    items.into_iter().map(ToolPart::from_json).collect()
}

/// What happened to one planned write.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(
    tag = "status",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum WriteOutcome {
    /// Written now, or already stored with the same SHA-256: the record as it is in the store,
    /// or "" for the planned record (written now).
    Stored { metadata_json: String },
    /// The store failed: `{ErrorType}: {message}`.
    Failed { error: String },
}

json_fields::deserialize_from_json!(WriteOutcome);

impl WriteOutcome {
    /// Tagged by `status`: `stored` with `metadataJson`, or `failed` with `error`.
    pub fn from_json(value: Value) -> std::result::Result<Self, serde_json::Error> {
        use serde::de::Error as _;
        let mut fields = json_fields::object(value, "internally tagged enum WriteOutcome")?;
        let status: String = take(
            fields
                .remove("status")
                .ok_or_else(|| serde_json::Error::missing_field("status"))?,
        )?;
        match status.as_str() {
            "stored" => Ok(WriteOutcome::Stored {
                metadata_json: take(required(fields.remove("metadataJson"), "metadataJson")?)?,
            }),
            "failed" => Ok(WriteOutcome::Failed {
                error: take(required(fields.remove("error"), "error")?)?,
            }),
            other => Err(serde_json::Error::unknown_variant(
                other,
                &["stored", "failed"],
            )),
        }
    }
}

/// A read-back part's source ref, when it points into this session's results.
fn source_read_ref<'a>(
    part: &'a ToolPart,
    session_uri: &str,
    tools: &ToolNames,
) -> Option<&'a str> {
    if part.tool_name != tools.read {
        return None;
    }
    let input = part.tool_input.as_ref()?.as_object()?;
    // The reference's `input.get("tool_output_ref") or input.get("ref") or input.get("uri")`:
    // the first truthy value, which must then be a string (a number there is not a source read).
    let reference = ["tool_output_ref", "ref", "uri"]
        .iter()
        .filter_map(|key| input.get(*key))
        .find(|value| is_py_truthy(value))?
        .as_str()?;
    reference
        .starts_with(&format!("{session_uri}/tool-results/"))
        .then_some(reference)
}

/// Python's truth value of a JSON value.
fn is_py_truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(flag) => *flag,
        Value::Number(number) => number.as_f64().is_some_and(|n| n != 0.0),
        Value::String(text) => !text.is_empty(),
        Value::Array(items) => !items.is_empty(),
        Value::Object(fields) => !fields.is_empty(),
    }
}

/// A read-back input's value as given (`input.get(key)`), whatever its type.
fn input_value(part: &ToolPart, key: &str) -> Option<Value> {
    part.tool_input
        .as_ref()?
        .get(key)
        .filter(|value| !value.is_null())
        .cloned()
}

/// Rewrites a read-back part as a preview of the window it read, pointing at its source.
fn rewrite_source_read(part: &mut ToolPart, reference: &str, config: &TurnConfig) {
    let sha = sha256_hex(&part.output);
    let (_, preview) = make_preview(
        &part.output,
        &PreviewRequest {
            mime_type: part.mime_or_default(),
            preview_chars: config.min_preview_chars.max(config.preview_chars),
            tool_name: &part.tool_name,
            reference,
            sha256: &sha,
            reason: REASON_SOURCE_READ,
            title: &config.stub_header,
            tools: Some(&config.tool_names),
            max_stub_chars: Some(config.max_stub_chars),
            mode: config.synopsis_mode,
            redact_secrets: config.redacts(),
            ..Default::default()
        },
    );
    let original_chars = char_len(&part.output);
    let preview_chars = char_len(&preview);
    part.source_offset = input_value(part, "offset");
    part.source_limit = input_value(part, "limit");
    part.source_ref = reference.to_string();
    part.truncated = original_chars > preview_chars;
    part.original_chars = Some(original_chars as u64);
    part.preview_chars = Some(preview_chars as u64);
    part.sha256 = sha;
    part.output_ref = reference.to_string();
    part.storage_uri = reference.to_string();
    part.mime_type = part.mime_or_default().to_string();
    part.externalized_reason = REASON_SOURCE_READ.to_string();
    part.output = preview;
}

fn exceeds_limit(part: &ToolPart, config: &TurnConfig) -> bool {
    u64::try_from(part.output.len()).unwrap_or(u64::MAX) > config.max_output_bytes
}

fn too_large_error(index: usize, part: &ToolPart, config: &TurnConfig) -> Error {
    Error::new(
        ErrorCode::TooLarge,
        format!(
            "tool output {index} (tool_id {:?}) is {} bytes of UTF-8, over max_output_bytes ({}); it was not stored",
            crate::python::take_chars(&part.tool_id, 80),
            part.output.len(),
            config.max_output_bytes
        ),
    )
}

/// An output over `max_output_bytes`, handled by the failure mode without ever reaching the
/// synopsis (whose work and memory grow with the output) or the store.
fn handle_oversized(part: &mut ToolPart, error: Error, config: &TurnConfig) -> Result<()> {
    let message = error.to_string();
    match config.failure_mode {
        FailureMode::Reject => return Err(error),
        FailureMode::PreserveRaw => {}
        FailureMode::PreviewOnly => {
            let sample_chars = config.preview_chars.clamp(0, MAX_OVERSIZED_SAMPLE_CHARS);
            let mut synopsis = Synopsis::new("unknown", "Oversized output");
            synopsis.summary.push(format!(
                "Output is {} bytes, over the {}-byte limit; it was not stored, only this sample is kept.",
                part.output.len(),
                config.max_output_bytes
            ));
            synopsis.sample = crate::python::head_tail(&part.output, sample_chars);
            if config.redacts() {
                crate::redact::redact_synopsis(&mut synopsis);
            }
            let original_chars = char_len(&part.output);
            let stub = render_stub(
                &synopsis,
                &StubHeader {
                    title: &config.stub_header,
                    tool_name: &part.tool_name,
                    reason: REASON_TOO_LARGE,
                    original_chars,
                    preview_chars: effective_preview_chars(original_chars, sample_chars),
                    ..Default::default()
                },
            );
            part.externalized_reason = REASON_TOO_LARGE.to_string();
            set_stub(part, stub, original_chars, "");
        }
    }
    part.externalization_error = message;
    Ok(())
}

/// What planning needs to know about one candidate, computed once.
struct Candidate {
    index: usize,
    chars: usize,
    /// Its size in the budget unit (`budget_unit::output_size`).
    size: usize,
    /// Its tokens when counted or sampled in token mode, for the stub and record to report.
    tokens: Option<ReportedTokens>,
    sha256: String,
    tool_result_id: String,
    reference: String,
    synopsis: Synopsis,
    /// Stub length with no sample and `preview_chars: 0`; the real length follows by arithmetic,
    /// so trying a selection never renders stubs again.
    base_stub_chars: usize,
    /// The same in UTF-8 bytes, what token mode measures stubs by (kept up to date there only).
    base_stub_bytes: usize,
    /// The sample is the head/tail of the output (and so depends on the preview chars).
    head_tail_sample: bool,
    /// The host asked for it to go out (`forceExternalize`).
    forced: bool,
}

impl Candidate {
    fn reason(&self, config: &TurnConfig) -> &'static str {
        if self.forced {
            REASON_CONTEXT
        } else if self.size as i64 > config.threshold() {
            REASON_SINGLE
        } else {
            REASON_BUDGET
        }
    }

    fn stub_chars(&self, preview: i64) -> usize {
        let shown = effective_preview_chars(self.chars, preview);
        let digits = shown.to_string().len();
        let sample = if self.head_tail_sample {
            head_tail_len(self.chars, shown)
        } else {
            0
        };
        // `preview_chars: 0` became `preview_chars: {shown}`; a sample adds "\n\nSample:\n{sample}".
        let sample_section = if sample > 0 {
            "\n\nSample:\n".len() + sample
        } else {
            0
        };
        self.base_stub_chars - 1 + digits + sample_section
    }

    /// Its stub's size in the budget unit: its chars; in token mode its UTF-8 bytes, which bound
    /// its tokens as they bound an uncounted output's (`budget_unit::output_size`), so a stub
    /// whose preview holds text of several tokens a char (emoji, rare scripts) is not
    /// undercounted. An ASCII stub's bytes are its chars.
    fn stub_size(&self, preview: i64, output: &str, config: &TurnConfig) -> usize {
        if config.budget_unit == BudgetUnit::Chars {
            return self.stub_chars(preview);
        }
        let shown = effective_preview_chars(self.chars, preview);
        let digits = shown.to_string().len();
        let sample = if self.head_tail_sample && shown > 0 {
            "\n\nSample:\n".len() + preview_sample(output, self.chars, shown, config).len()
        } else {
            0
        };
        self.base_stub_bytes - 1 + digits + sample
    }
}

/// The head/tail sample an `unknown` output's stub shows at `shown` preview chars.
fn preview_sample(output: &str, chars: usize, shown: i64, config: &TurnConfig) -> String {
    let sample = head_tail_of(output, chars, shown);
    if config.redacts() {
        crate::redact::redact_text(&sample).into_owned()
    } else {
        sample
    }
}

/// `chars` is the output's length in code points, `size` in the budget unit.
#[allow(clippy::too_many_arguments)]
fn candidate(
    part: &ToolPart,
    index: usize,
    chars: usize,
    size: usize,
    session_uri: &str,
    config: &TurnConfig,
    host_sha256: HostSha256<'_>,
) -> Candidate {
    let sha256 = match host_sha256(index, &part.output) {
        Some(hex) if is_sha256_hex(&hex) => hex,
        _ => sha256_hex(&part.output),
    };
    let tool_result_id = tool_result_id(&part.tool_id, &sha256);
    let reference = result_ref(session_uri, &tool_result_id);
    let tokens = match (
        config.budget_unit,
        part.output_tokens,
        &part.output_tokens_sample,
    ) {
        (BudgetUnit::Chars, _, _) => None,
        (BudgetUnit::Tokens, Some(tokens), _) => Some(ReportedTokens::Exact(tokens)),
        (BudgetUnit::Tokens, None, Some(sample)) => Some(ReportedTokens::estimate(sample, chars)),
        (BudgetUnit::Tokens, None, None) => None,
    };
    let reason = if part.force_externalize {
        REASON_CONTEXT
    } else if size as i64 > config.threshold() {
        REASON_SINGLE
    } else {
        REASON_BUDGET
    };
    let bare_header = StubHeader {
        title: &config.stub_header,
        reference: &reference,
        tool_name: &part.tool_name,
        sha256: &sha256,
        reason,
        original_chars: chars,
        original_tokens: tokens,
        preview_chars: 0,
        tools: Some(&config.tool_names),
    };
    // Only `unknown` outputs have a head/tail sample (sized by the preview chars, so it is cut
    // again once the selection is known); a 1-char preview tells whether there is one at all.
    let mut synopsis = synopsis_in_mode(
        &part.output,
        part.mime_or_default(),
        1,
        config.synopsis_mode,
        &bare_header,
    );
    // Masked before anything is measured: the stub's length arithmetic is the masked synopsis's.
    if config.redacts() {
        crate::redact::redact_synopsis(&mut synopsis);
    }
    let head_tail_sample = synopsis.kind == "unknown" && !synopsis.sample.is_empty();
    let bare = Synopsis {
        sample: String::new(),
        ..synopsis.clone()
    };
    let bare_stub = render_stub(&bare, &bare_header);
    let base_stub_chars = char_len(&bare_stub);
    let mut candidate = Candidate {
        index,
        chars,
        size,
        tokens,
        // Copies: the header still borrows them, for a clipped stub's bytes below.
        sha256: sha256.clone(),
        tool_result_id,
        reference: reference.clone(),
        synopsis: Synopsis::default(),
        base_stub_chars,
        base_stub_bytes: bare_stub.len(),
        head_tail_sample,
        forced: part.force_externalize,
    };
    // The longest stub this output can get is the one with the most preview chars (a share of
    // the turn's preview budget never exceeds them): clip the synopsis once so that one fits,
    // and every stub of it does, with the length arithmetic still exact.
    let longest = candidate.stub_chars(config.preview_chars);
    let limit = stub_limit(chars, config.max_stub_chars);
    if longest > limit {
        let sections = sections_chars(&synopsis);
        bound_synopsis(&mut synopsis, limit.saturating_sub(longest - sections));
        candidate.base_stub_chars =
            (candidate.base_stub_chars + sections_chars(&synopsis)).saturating_sub(sections);
        if config.budget_unit == BudgetUnit::Tokens {
            let clipped = Synopsis {
                sample: String::new(),
                ..synopsis.clone()
            };
            candidate.base_stub_bytes = render_stub(&clipped, &bare_header).len();
        }
    }
    candidate.synopsis = synopsis;
    candidate
}

/// Greedy selection (SPEC 7.4-7.5). `inline_chars` is the turn's size with nothing selected, in
/// the budget unit (so are the candidates' sizes, and their stubs': `Candidate::stub_size`).
fn select(
    candidates: &[Candidate],
    inline_chars: usize,
    config: &TurnConfig,
    parts: &[ToolPart],
) -> Vec<usize> {
    let budget = config.inline_budget();
    let threshold = config.threshold();
    let goes_out = |c: usize| candidates[c].forced || candidates[c].size as i64 > threshold;
    let mut selected: Vec<usize> = (0..candidates.len()).filter(|&c| goes_out(c)).collect();
    let mut remaining: Vec<usize> = (0..candidates.len()).filter(|&c| !goes_out(c)).collect();
    stable_sort_by(&mut remaining, |&a, &b| {
        candidates[b].size.cmp(&candidates[a].size)
    });
    // Size of the parts that stay inline, kept up to date as parts are selected.
    let mut inline_rest =
        inline_chars - selected.iter().map(|&c| candidates[c].size).sum::<usize>();
    let stub_size = |c: usize, preview: i64| -> usize {
        let candidate = &candidates[c];
        let output = parts.get(candidate.index).map_or("", |part| &part.output);
        candidate.stub_size(preview, output, config)
    };
    let stubs_of = |selected: &[usize], preview: i64| -> usize {
        selected.iter().map(|&c| stub_size(c, preview)).sum()
    };
    loop {
        let current =
            (stubs_of(&selected, config.effective_preview(selected.len())) + inline_rest) as i64;
        if current < budget || remaining.is_empty() {
            break;
        }
        // With one more part selected every stub shrinks to the new share; computed once per round.
        let preview = config.effective_preview(selected.len() + 1);
        let others = stubs_of(&selected, preview) + inline_rest;
        let lowers = |c: usize| {
            ((others + stub_size(c, preview)) as i64 - candidates[c].size as i64) < current
        };
        let Some(position) = remaining.iter().position(|&c| lowers(c)) else {
            break;
        };
        let chosen = remaining.remove(position);
        inline_rest -= candidates[chosen].size;
        selected.push(chosen);
    }
    stable_sort_by(&mut selected, usize::cmp);
    selected
}

/// The tokens part `index`'s decisions may use: its count, else the lower bound its sample
/// proves, which the core accepts only where it settles the answer (at least the threshold: the
/// output goes out whatever its exact count). `None`: its bytes bound it.
fn deciding_tokens(part: &ToolPart, index: usize, config: &TurnConfig) -> Result<Option<u64>> {
    if part.output_tokens.is_some() || config.budget_unit != BudgetUnit::Tokens {
        return Ok(part.output_tokens);
    }
    let Some(sample) = &part.output_tokens_sample else {
        return Ok(None);
    };
    if (sample.more_than as i128) < i128::from(config.threshold()) {
        return Err(Error::invalid(format!(
            "parts[{index}].outputTokensSample.moreThan ({}) is under thresholdTokens ({}): \
             only a count decides such an output",
            sample.more_than,
            config.threshold()
        )));
    }
    Ok(Some(sample.lower_bound()))
}

/// A lower-case hex SHA-256, as `sha256_hex` writes it.
fn is_sha256_hex(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

pub fn plan_turn(input: TurnInput) -> Result<TurnPlan> {
    plan_turn_with_hashes(input, &|_, _| None)
}

/// The host's SHA-256 (hex) of part `index`'s output, when it has one: computed already, or by a
/// faster hasher than this crate's. `None`, or anything but 64 lower-case hex digits, and the
/// core computes it.
pub type HostSha256<'a> = &'a dyn Fn(usize, &str) -> Option<String>;

/// `plan_turn` with the host's SHA-256 of the outputs that go out.
pub fn plan_turn_with_hashes(input: TurnInput, host_sha256: HostSha256<'_>) -> Result<TurnPlan> {
    validate_session_id(&input.session_id)?;
    let config = input.config;
    let session_uri = input
        .session_uri
        .unwrap_or_else(|| default_session_uri(&input.session_id));
    let mut parts = input.parts;
    let unchanged = |parts| TurnPlan {
        parts,
        writes: Vec::new(),
        rewritten_parts: Vec::new(),
        failure_mode: config.failure_mode,
        tool_names: config.tool_names.clone(),
        max_stub_chars: config.max_stub_chars,
        stub_header: config.stub_header.clone(),
        synopsis_mode: config.synopsis_mode,
        redact_secrets: config.redacts(),
    };
    if !config.enabled || parts.iter().all(|part| part.output.is_empty()) {
        return Ok(unchanged(parts));
    }
    // Each output's position index, built once: its length is what the group size, the
    // candidates and the inline total need, and a stored output's index file is written from it
    // (a full pass over every output each time otherwise).
    let output_indexes: Vec<OutputIndex> = parts
        .iter()
        .map(|part| index_of_received_output(&part.output))
        .collect();
    let output_chars: Vec<usize> = output_indexes.iter().map(|index| index.chars).collect();
    let group_original_chars: u64 = parts
        .iter()
        .zip(&output_chars)
        .filter(|(part, _)| !part.output.is_empty())
        .map(
            |(part, &chars)| match (part.is_externalized(), part.original_chars) {
                (true, Some(recorded)) => recorded,
                _ => chars as u64,
            },
        )
        // Recorded lengths come from the caller: a false claim must not overflow.
        .fold(0, u64::saturating_add);
    let mut candidates = Vec::new();
    let mut rewritten_parts = Vec::new();
    for (index, part) in parts.iter_mut().enumerate() {
        if part.output.is_empty() {
            continue;
        }
        part.group_id = input.message_id.clone();
        part.group_original_chars = Some(group_original_chars);
        part.group_budget_chars = Some(config.assistant_turn_inline_budget_chars);
        if exceeds_limit(part, &config) {
            handle_oversized(part, too_large_error(index, part, &config), &config)?;
            if part.truncated {
                rewritten_parts.push(index);
            }
        } else if let Some(reference) =
            source_read_ref(part, &session_uri, &config.tool_names).map(str::to_string)
        {
            rewrite_source_read(part, &reference, &config);
            rewritten_parts.push(index);
        } else if !part.is_externalized()
            && !part.keep_inline
            && !config.exempt_tool_names.contains(&part.tool_name)
        {
            let chars = output_chars.get(index).copied().unwrap_or_default();
            let size = output_size(
                config.budget_unit,
                chars,
                part.output.len(),
                deciding_tokens(part, index, &config)?,
            );
            candidates.push(candidate(
                part,
                index,
                chars,
                size,
                &session_uri,
                &config,
                host_sha256,
            ));
        }
    }
    let inline_chars: usize = parts
        .iter()
        .zip(&output_chars)
        .enumerate()
        .map(|(index, (part, &chars))| {
            // Planning rewrote these outputs (previews): their size is the new text's, whose
            // tokens nobody counted (its bytes bound them).
            if rewritten_parts.contains(&index) {
                Ok(output_size(
                    config.budget_unit,
                    char_len(&part.output),
                    part.output.len(),
                    None,
                ))
            } else {
                Ok(output_size(
                    config.budget_unit,
                    chars,
                    part.output.len(),
                    deciding_tokens(part, index, &config)?,
                ))
            }
        })
        .sum::<Result<usize>>()?;
    let selected = select(&candidates, inline_chars, &config, &parts);
    let preview = config.effective_preview(selected.len());
    let mut writes = Vec::with_capacity(selected.len());
    for chosen in selected {
        let candidate = &candidates[chosen];
        let part = &parts[candidate.index];
        let mut synopsis = candidate.synopsis.clone();
        if candidate.head_tail_sample {
            let shown = effective_preview_chars(candidate.chars, preview);
            synopsis.sample = preview_sample(&part.output, candidate.chars, shown, &config);
        }
        let record = ToolResultRecord {
            tool_result_id: candidate.tool_result_id.clone(),
            session_id: input.session_id.clone(),
            message_id: if part.message_id.is_empty() {
                input.message_id.clone()
            } else {
                part.message_id.clone()
            },
            tool_id: part.tool_id.clone(),
            tool_name: part.tool_name.clone(),
            user_id: input.user_id.clone(),
            peer_id: input.peer_id.clone(),
            created_at: input.created_at.clone(),
            original_chars: candidate.chars as u64,
            original_tokens: candidate.tokens.map(|tokens| tokens.tokens()),
            original_tokens_estimated_from_chars: candidate
                .tokens
                .and_then(|tokens| tokens.sample_chars()),
            preview_chars: effective_preview_chars(candidate.chars, preview),
            sha256: candidate.sha256.clone(),
            mime_type: part.mime_or_default().to_string(),
            synopsis_kind: synopsis.kind.clone(),
            synopsis: synopsis.clone(),
            storage_uri: candidate.reference.clone(),
            output_uri: format!("{}/{OUTPUT_FILE}", candidate.reference),
            offset_unit: OFFSET_UNIT.to_string(),
        };
        writes.push(PlannedWrite {
            part_index: candidate.index,
            tool_result_id: candidate.tool_result_id.clone(),
            reference: candidate.reference.clone(),
            reason: candidate.reason(&config).to_string(),
            preview_chars: preview,
            sha256: candidate.sha256.clone(),
            output_key: result_key(&input.session_id, &candidate.tool_result_id, OUTPUT_FILE),
            index_key: result_key(&input.session_id, &candidate.tool_result_id, INDEX_FILE),
            index_json: index_json(&output_indexes[candidate.index])?,
            metadata_key: result_key(&input.session_id, &candidate.tool_result_id, METADATA_FILE),
            metadata_json: record::to_pretty_json(&record)?,
            stub: render_stub(
                &synopsis,
                &StubHeader {
                    title: &config.stub_header,
                    ..stub_header(
                        &candidate.reference,
                        &part.tool_name,
                        &candidate.sha256,
                        candidate.reason(&config),
                        (candidate.chars, candidate.tokens),
                        preview,
                        &config.tool_names,
                    )
                },
            ),
            original_chars: candidate.chars,
            original_tokens: candidate.tokens,
        });
    }
    Ok(TurnPlan {
        writes,
        rewritten_parts,
        ..unchanged(parts)
    })
}

/// The position index of an output about to be stored.
fn index_json(index: &OutputIndex) -> Result<String> {
    serde_json::to_string(index).map_err(|error| Error::new(ErrorCode::Internal, error.to_string()))
}

/// The header of a planned write's stub.
fn stub_header<'a>(
    reference: &'a str,
    tool_name: &'a str,
    sha256: &'a str,
    reason: &'a str,
    (original_chars, original_tokens): (usize, Option<ReportedTokens>),
    preview_chars: i64,
    tools: &'a ToolNames,
) -> StubHeader<'a> {
    StubHeader {
        title: "",
        reference,
        tool_name,
        sha256,
        reason,
        original_chars,
        original_tokens,
        preview_chars: effective_preview_chars(original_chars, preview_chars),
        tools: Some(tools),
    }
}

/// The stub of a write whose store already held a record of the same output: from that
/// record's synopsis, as the reference does.
fn stub_of_stored_record(
    metadata_json: &str,
    write: &PlannedWrite,
    tool_name: &str,
    plan: &TurnPlan,
) -> Result<String> {
    let (tools, title, max_stub_chars) = (&plan.tool_names, &plan.stub_header, plan.max_stub_chars);
    let stored = record::parse_stored(metadata_json).ok_or_else(|| {
        Error::new(
            ErrorCode::Corrupt,
            format!("stored metadata of {} is unreadable", write.tool_result_id),
        )
    })?;
    let mut synopsis: Synopsis =
        serde_json::from_value(stored["synopsis"].clone()).map_err(|e| {
            Error::new(
                ErrorCode::Corrupt,
                format!(
                    "stored synopsis of {} is unreadable: {e}",
                    write.tool_result_id
                ),
            )
        })?;
    // A record stored without masking (before the option, or by another writer) is masked now.
    if plan.redact_secrets {
        crate::redact::redact_synopsis(&mut synopsis);
    }
    let header = StubHeader {
        title,
        ..stub_header(
            &write.reference,
            tool_name,
            &write.sha256,
            &write.reason,
            (write.original_chars, write.original_tokens),
            write.preview_chars,
            tools,
        )
    };
    // A record written before the bound (or by another writer) may hold a longer synopsis.
    let limit = stub_limit(write.original_chars, max_stub_chars);
    Ok(render_bounded_stub(&mut synopsis, &header, limit))
}

/// Applies the store outcomes, one per planned write, in order.
pub fn finish_turn(mut plan: TurnPlan, outcomes: Vec<WriteOutcome>) -> Result<Vec<ToolPart>> {
    if outcomes.len() != plan.writes.len() {
        return Err(Error::invalid(format!(
            "expected {} write outcomes, got {}",
            plan.writes.len(),
            outcomes.len()
        )));
    }
    let mut parts = std::mem::take(&mut plan.parts);
    for (write, outcome) in plan.writes.iter().zip(outcomes) {
        let Some(part) = parts.get_mut(write.part_index) else {
            return Err(Error::new(
                ErrorCode::Internal,
                "planned write names a missing part",
            ));
        };
        let original_chars = write.original_chars;
        match outcome {
            WriteOutcome::Stored { metadata_json } => {
                let stub = if metadata_json.is_empty() || metadata_json == write.metadata_json {
                    write.stub.clone()
                } else {
                    stub_of_stored_record(&metadata_json, write, &part.tool_name, &plan)?
                };
                part.output_ref = write.reference.clone();
                part.storage_uri = write.reference.clone();
                part.externalized_reason = write.reason.clone();
                set_stub(part, stub, original_chars, &write.sha256);
            }
            WriteOutcome::Failed { error } => {
                part.externalization_error = error.clone();
                match plan.failure_mode {
                    FailureMode::Reject => {
                        return Err(Error::new(
                            ErrorCode::StoreFailed,
                            format!(
                                "storing tool output {} failed: {error}",
                                write.tool_result_id
                            ),
                        ))
                    }
                    FailureMode::PreserveRaw => {}
                    FailureMode::PreviewOnly => {
                        // The suffix is for the stub text only: the part keeps the reason it
                        // was selected for, as the reference does.
                        let stub_reason = format!("{}:externalization_failed", write.reason);
                        let (_, stub) = make_preview(
                            &part.output,
                            &PreviewRequest {
                                mime_type: part.mime_or_default(),
                                preview_chars: write.preview_chars,
                                tool_name: &part.tool_name,
                                sha256: &write.sha256,
                                reason: &stub_reason,
                                title: &plan.stub_header,
                                tools: Some(&plan.tool_names),
                                max_stub_chars: Some(plan.max_stub_chars),
                                mode: plan.synopsis_mode,
                                redact_secrets: plan.redact_secrets,
                                ..Default::default()
                            },
                        );
                        part.externalized_reason = write.reason.clone();
                        set_stub(part, stub, original_chars, &write.sha256);
                    }
                }
            }
        }
    }
    Ok(parts)
}

fn set_stub(part: &mut ToolPart, stub: String, original_chars: usize, sha256: &str) {
    part.truncated = true;
    part.original_chars = Some(original_chars as u64);
    part.preview_chars = Some(char_len(&stub) as u64);
    part.sha256 = sha256.to_string();
    part.mime_type = part.mime_or_default().to_string();
    part.output = stub;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::python::head_tail;

    fn part(id: &str, output: String) -> ToolPart {
        ToolPart {
            tool_id: id.into(),
            tool_name: "t".into(),
            output,
            ..Default::default()
        }
    }

    fn input(parts: Vec<ToolPart>, config: TurnConfig) -> TurnInput {
        TurnInput::new("s", "m", config, parts)
    }

    #[test]
    fn eff_clamps_between_min_and_preview() {
        let config = TurnConfig::default();
        assert_eq!(config.effective_preview(0), 2000);
        assert_eq!(config.effective_preview(1), 2000);
        assert_eq!(config.effective_preview(7), 1428);
        assert_eq!(config.effective_preview(50), 1000);
    }

    #[test]
    fn stub_header_brands_every_stub_of_a_turn_and_defaults_to_the_reference() {
        let branded: TurnConfig = serde_json::from_value(
            serde_json::json!({"stubHeader": "[acme: output stored]", "previewChars": 100}),
        )
        .expect("accepted");
        assert!(branded.check().is_ok());
        assert_eq!(
            TurnConfig::default().stub_header,
            "[OpenViking tool result externalized]"
        );
        let big = "word ".repeat(5_000);
        for (config, first_line) in [
            (branded, "[acme: output stored]"),
            (
                TurnConfig::default(),
                "[OpenViking tool result externalized]",
            ),
        ] {
            let plan = plan_turn(input(vec![part("a", big.clone())], config)).expect("planned");
            assert_eq!(plan.writes.len(), 1);
            assert_eq!(plan.writes[0].stub.lines().next(), Some(first_line));
        }
        for bad in ["", "two\nlines"] {
            let config: TurnConfig =
                serde_json::from_value(serde_json::json!({"stub_header": bad})).expect("parsed");
            assert!(config.check().is_err(), "{bad:?} is refused");
        }
    }

    #[test]
    fn synopsis_mode_is_read_from_the_config_and_used_by_every_stub_of_a_turn() {
        let enhanced: TurnConfig =
            serde_json::from_value(serde_json::json!({"synopsisMode": "enhanced"}))
                .expect("accepted");
        assert_eq!(enhanced.synopsis_mode, SynopsisMode::Enhanced);
        let snake: TurnConfig =
            serde_json::from_value(serde_json::json!({"synopsis_mode": "reference"}))
                .expect("accepted");
        assert_eq!(snake.synopsis_mode, SynopsisMode::Reference);
        assert_eq!(TurnConfig::default().synopsis_mode, SynopsisMode::Reference);
        let refused =
            serde_json::from_value::<TurnConfig>(serde_json::json!({"synopsisMode": "fancy"}))
                .expect_err("refused");
        assert!(refused.to_string().contains("synopsisMode"), "{refused}");
        let output = "2024-05-01 12:00:00 INFO started\n".repeat(2_000);
        let stubs: Vec<String> = [TurnConfig::default(), enhanced]
            .into_iter()
            .map(|config| {
                let plan =
                    plan_turn(input(vec![part("a", output.clone())], config)).expect("planned");
                plan.writes[0].stub.clone()
            })
            .collect();
        assert!(char_len(&stubs[1]) * 5 <= char_len(&stubs[0]) * 6);
        let explore = |stub: &str| stub.split("\nExplore:\n").nth(1).map(str::to_string);
        assert_eq!(explore(&stubs[0]), explore(&stubs[1]));
    }

    #[test]
    fn stub_length_arithmetic_matches_rendering() {
        let config = TurnConfig::default();
        for output in [
            "plain words here".repeat(50),
            "\u{1}\u{2}binary".repeat(40),
            "{broken".repeat(30),
        ] {
            let mut p = part("x", output.clone());
            p.mime_type = "application/json".into();
            let c = candidate(
                &p,
                0,
                char_len(&p.output),
                char_len(&p.output),
                "viking://s",
                &config,
                &|_, _| None,
            );
            for preview in [-5, 0, 1, 7, 100, 5000] {
                let (_, stub) = make_preview(
                    &output,
                    &PreviewRequest {
                        mime_type: "application/json",
                        preview_chars: preview,
                        tool_name: "t",
                        reference: &c.reference,
                        sha256: &c.sha256,
                        reason: c.reason(&config),
                        ..Default::default()
                    },
                );
                assert_eq!(c.stub_chars(preview), char_len(&stub), "preview {preview}");
            }
        }
    }

    #[test]
    fn disabled_or_empty_turns_change_nothing() {
        let parts = vec![part("a", "x".repeat(30_000))];
        let config = TurnConfig {
            enabled: false,
            ..Default::default()
        };
        let plan = plan_turn(input(parts.clone(), config)).expect("plans");
        assert_eq!(plan.parts, parts);
        assert!(plan.writes.is_empty());
    }

    #[test]
    fn budget_selects_longest_first_until_under_budget() {
        let config = TurnConfig {
            assistant_turn_inline_budget_chars: 12_000,
            ..Default::default()
        };
        let parts = vec![
            part("a", "a ".repeat(4_000)),
            part("b", "b ".repeat(5_000)),
            part("c", "c ".repeat(1_000)),
        ];
        let plan = plan_turn(input(parts, config)).expect("plans");
        let chosen: Vec<_> = plan
            .writes
            .iter()
            .map(|w| (w.part_index, w.reason.as_str()))
            .collect();
        assert_eq!(chosen, [(1, REASON_BUDGET)]);
    }

    #[test]
    fn kept_inline_and_exempt_parts_are_never_candidates() {
        let mut kept = part("a", "x ".repeat(30_000));
        kept.keep_inline = true;
        let mut exempt = part("b", "y ".repeat(30_000));
        exempt.tool_name = "shell".into();
        let config = TurnConfig {
            exempt_tool_names: vec!["shell".into()],
            ..Default::default()
        };
        let plan = plan_turn(input(
            vec![kept, exempt, part("c", "z ".repeat(30_000))],
            config,
        ))
        .expect("plans");
        let chosen: Vec<_> = plan.writes.iter().map(|w| w.part_index).collect();
        assert_eq!(chosen, [2]);
        assert_eq!(plan.parts[0].group_id, "m");
    }

    #[test]
    fn failure_modes() {
        let parts = vec![part("a", "word ".repeat(5_000))];
        let outcome = || {
            vec![WriteOutcome::Failed {
                error: "Error: disk full".into(),
            }]
        };
        for (mode, check) in [
            (FailureMode::PreserveRaw, "raw"),
            (FailureMode::PreviewOnly, "preview"),
            (FailureMode::Reject, "reject"),
        ] {
            let config = TurnConfig {
                failure_mode: mode,
                ..Default::default()
            };
            let plan = plan_turn(input(parts.clone(), config)).expect("plans");
            let result = finish_turn(plan, outcome());
            match check {
                "raw" => {
                    let parts = result.expect("finishes");
                    assert_eq!(parts[0].output, "word ".repeat(5_000));
                    assert_eq!(parts[0].externalization_error, "Error: disk full");
                }
                "preview" => {
                    let parts = result.expect("finishes");
                    assert!(parts[0]
                        .output
                        .contains("reason: single_threshold:externalization_failed"));
                    assert!(
                        !parts[0].output.contains("Explore:") && parts[0].output_ref.is_empty()
                    );
                    assert!(parts[0].truncated);
                    assert_eq!(parts[0].externalized_reason, REASON_SINGLE);
                }
                _ => assert_eq!(result.map_err(|e| e.code), Err(ErrorCode::StoreFailed)),
            }
        }
    }

    #[test]
    fn finishing_with_the_planned_record_or_a_stored_one() {
        let parts = vec![part("a", "some words here\n".repeat(3_000))];
        let plan = plan_turn(input(parts, TurnConfig::default())).expect("plans");
        let write = &plan.writes[0];
        let finish = |metadata_json: String| {
            finish_turn(plan.clone(), vec![WriteOutcome::Stored { metadata_json }])
                .expect("finishes")
        };
        // "" and an echo of the planned record both mean the planned stub.
        let planned = finish(String::new());
        assert_eq!(planned, finish(write.metadata_json.clone()));
        assert_eq!(planned[0].output, write.stub);
        // A record already stored is rendered from its own synopsis, as the reference does.
        let mut stored: Value = serde_json::from_str(&write.metadata_json).expect("record");
        stored["synopsis"]["summary"] = serde_json::json!(["Summarised when stored earlier."]);
        let from_store = finish(stored.to_string());
        assert!(
            from_store[0]
                .output
                .contains("Summarised when stored earlier."),
            "{}",
            from_store[0].output
        );
        assert_ne!(from_store[0].output, write.stub);
    }

    #[test]
    fn host_hashes_are_used_when_well_formed_and_a_head_tail_sample_is_cut_to_the_preview() {
        let parts = vec![
            part("a", "\u{1}binary".repeat(5_000)),
            part("b", "\u{1}other".repeat(5_000)),
        ];
        let known: [String; 2] = ["0f".repeat(32), "NOT-A-HASH".into()];
        let host = |index: usize, _: &str| known.get(index).cloned();
        let plan = plan_turn_with_hashes(input(parts.clone(), TurnConfig::default()), &host)
            .expect("plans");
        assert_eq!(plan.writes[0].sha256, known[0]);
        assert_eq!(plan.writes[1].sha256, sha256_hex(&parts[1].output));
        let record: Value = serde_json::from_str(&plan.writes[1].metadata_json).expect("record");
        let sample = record["synopsis"]["sample"].as_str().unwrap_or_default();
        assert_eq!(sample, head_tail(&parts[1].output, 2_000));
        assert_eq!(plan.writes[1].original_chars, char_len(&parts[1].output));
        assert!(plan.rewritten_parts.is_empty());
    }

    #[test]
    fn planning_a_thousand_parts_is_fast_enough_to_not_be_quadratic_in_stubs() {
        let parts: Vec<_> = (0..1_000)
            .map(|i| part(&format!("p{i}"), format!("line {i}\n").repeat(100 + i)))
            .collect();
        let plan = plan_turn(input(parts, TurnConfig::default())).expect("plans");
        assert!(!plan.writes.is_empty());
    }

    fn read_back(tool_input: Value) -> ToolPart {
        ToolPart {
            tool_name: ToolNames::default().read,
            tool_input: Some(tool_input),
            ..part("r", "window text ".repeat(100))
        }
    }

    #[test]
    fn read_backs_take_the_first_truthy_ref_only_when_it_is_a_string() {
        let session_ref = "viking://user/default/sessions/s/tool-results/tr_x";
        let reason = |tool_input: Value| {
            let plan = plan_turn(input(vec![read_back(tool_input)], TurnConfig::default()))
                .expect("plans");
            plan.parts[0].externalized_reason.clone()
        };
        assert_eq!(
            reason(serde_json::json!({"ref": session_ref})),
            REASON_SOURCE_READ
        );
        // Falsy values fall through to the next key, as Python's `or` does.
        for falsy in [
            serde_json::json!(""),
            serde_json::json!(0),
            serde_json::json!(null),
            serde_json::json!([]),
        ] {
            let tool_input = serde_json::json!({"tool_output_ref": falsy, "uri": session_ref});
            assert_eq!(reason(tool_input), REASON_SOURCE_READ);
        }
        // A truthy non-string is the ref the reference takes, and it is not a string: the part
        // is an ordinary output, whatever the next key holds.
        for truthy in [
            serde_json::json!(5),
            serde_json::json!({"a": 1}),
            serde_json::json!(true),
        ] {
            let tool_input = serde_json::json!({"tool_output_ref": truthy, "ref": session_ref});
            assert_eq!(reason(tool_input), "");
        }
    }

    #[test]
    fn read_back_offset_and_limit_keep_their_values_whatever_their_type() {
        let session_ref = "viking://user/default/sessions/s/tool-results/tr_x";
        let tool_input = serde_json::json!({"ref": session_ref, "offset": "10", "limit": 2.5});
        let plan =
            plan_turn(input(vec![read_back(tool_input)], TurnConfig::default())).expect("plans");
        let part = &plan.parts[0];
        assert_eq!(part.source_offset, Some(serde_json::json!("10")));
        assert_eq!(part.source_limit, Some(serde_json::json!(2.5)));
        let tool_input = serde_json::json!({"ref": session_ref, "offset": 7});
        let plan =
            plan_turn(input(vec![read_back(tool_input)], TurnConfig::default())).expect("plans");
        assert_eq!(plan.parts[0].source_offset, Some(serde_json::json!(7)));
        assert_eq!(plan.parts[0].source_limit, None);
    }

    #[test]
    fn records_carry_the_peer_and_each_parts_own_message_id() {
        let mut from_other_message = part("b", "b ".repeat(30_000));
        from_other_message.message_id = "m2".into();
        let mut turn = input(
            vec![part("a", "a ".repeat(30_000)), from_other_message],
            TurnConfig::default(),
        );
        turn.peer_id = Some("peer-7".into());
        let plan = plan_turn(turn).expect("plans");
        let records: Vec<Value> = plan
            .writes
            .iter()
            .map(|write| serde_json::from_str(&write.metadata_json).expect("record"))
            .collect();
        assert_eq!(records[0]["message_id"], "m");
        assert_eq!(records[1]["message_id"], "m2");
        assert!(records.iter().all(|record| record["peer_id"] == "peer-7"));
        // The group stays the call's message (SPEC 7.2), and the part's own id is not echoed.
        assert!(plan.parts.iter().all(|part| part.group_id == "m"));
        let echoed = serde_json::to_value(&plan.parts[1]).expect("serializes");
        assert!(echoed.get("messageId").is_none());
        let read: TurnInput = serde_json::from_value(serde_json::json!({
            "sessionId": "s", "messageId": "m", "peerId": "p",
            "parts": [{"toolId": "t", "messageId": "m3", "output": "x"}]
        }))
        .expect("reads");
        assert_eq!(
            (read.peer_id.as_deref(), read.parts[0].message_id.as_str()),
            (Some("p"), "m3")
        );
    }

    #[test]
    fn the_references_full_config_is_accepted() {
        // `ToolOutputExternalizationConfig().model_dump()` of the reference.
        let dumped = serde_json::json!({
            "enabled": true,
            "threshold_chars": 20000,
            "preview_chars": 2000,
            "assistant_turn_inline_budget_chars": 100000,
            "assistant_turn_preview_budget_chars": 10000,
            "min_preview_chars": 1000,
            "failure_mode": "preserve_raw",
            "aggregate_selection_strategy": "largest_first",
        });
        let config: TurnConfig = serde_json::from_value(dumped).expect("accepted");
        assert_eq!(config, TurnConfig::default());
        let camel: TurnConfig = serde_json::from_value(
            serde_json::json!({"aggregateSelectionStrategy": "largest_first"}),
        )
        .expect("accepted");
        assert_eq!(
            camel.aggregate_selection_strategy,
            SelectionStrategy::LargestFirst
        );
        let refused = serde_json::from_value::<TurnConfig>(
            serde_json::json!({"aggregate_selection_strategy": "smallest_first"}),
        )
        .expect_err("only largest_first exists");
        assert!(refused.to_string().contains("largest_first"), "{refused}");
    }

    #[test]
    fn stubs_in_a_turn_are_bounded_and_their_length_arithmetic_stays_exact() {
        let long_key = "k".repeat(200_000);
        let output = format!("{{\"{long_key}\": [1, 2], \"b\": {{\"{long_key}\": 3}}}}");
        let chars = char_len(&output);
        for max_stub_chars in [3_000, DEFAULT_MAX_STUB_CHARS] {
            let config = TurnConfig {
                max_stub_chars,
                ..Default::default()
            };
            let p = part("a", output.clone());
            let c = candidate(&p, 0, chars, chars, "viking://s", &config, &|_, _| None);
            for preview in [0, 7, 1_000, 2_000] {
                let stub = render_stub(
                    &c.synopsis,
                    &stub_header(
                        &c.reference,
                        "t",
                        &c.sha256,
                        c.reason(&config),
                        (chars, None),
                        preview,
                        &config.tool_names,
                    ),
                );
                assert_eq!(c.stub_chars(preview), char_len(&stub), "preview {preview}");
                assert!(char_len(&stub) <= max_stub_chars);
            }
            let plan = plan_turn(input(vec![p], config)).expect("plans");
            let record: Value =
                serde_json::from_str(&plan.writes[0].metadata_json).expect("record");
            assert!(record["synopsis"].to_string().len() < max_stub_chars);
            let outcomes = vec![WriteOutcome::Stored {
                metadata_json: String::new(),
            }];
            let parts = finish_turn(plan, outcomes).expect("finishes");
            assert!(char_len(&parts[0].output) <= max_stub_chars);
            assert!(parts[0].output.contains(" more chars)"));
        }
    }
}
