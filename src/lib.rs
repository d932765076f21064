//! tool-stub core: typed synopsis stubs for oversized tool outputs, identical to the reference
//! (OpenViking's tool-result stub). Pure Rust: no wasm-bindgen, no JavaScript. The three wasm
//! modules are thin binding crates in `bindings/` (main, grep, enhanced) over this crate's API.

#![forbid(unsafe_code)]

// What the crate offers Rust callers (the bindings, the parity and property tests, the fuzz
// targets, the native determinism check) is the public modules and the `pub use` list below.
// The modules the main binding calls into are public (agent tools, the session catalog, ids,
// records, retention, retrieval, turns, the source of enhanced synopses); the others are
// private, so their internals can move without breaking a caller.

pub mod agent;
pub mod budget_unit;
pub mod catalog;
mod context;
// Enhanced mode's analyzers, and what only they use (the value tree below, the readers of whole
// values and table rows in `kinds`, each marked `cfg(feature = "enhanced")`), are compiled with
// the `enhanced` feature only: the main wasm module is built without it (see `enhanced_source`).
#[cfg(feature = "enhanced")]
mod enhanced;
pub mod enhanced_source;
mod error;
mod fx_hasher;
pub mod ids;
// The generated JavaScript files (and the shapes they declare) list the enhanced layer's kinds
// too: written from a build with the analyzers (tests/generated_js.rs).
#[cfg(feature = "enhanced")]
mod js_constants;
#[cfg(feature = "enhanced")]
mod js_shapes;
mod json_fields;
mod kinds;
mod priority_bound;
mod python;
pub mod record;
pub mod redact;
pub mod refs;
pub mod retention;
pub mod retrieval;
mod stub;
mod stub_options;
mod synopsis;
mod synopsis_mode;
#[cfg(test)]
mod test_support;
pub mod turn;
// The value tree the JSON and YAML parsers build for enhanced mode's analyses only.
#[cfg(feature = "enhanced")]
mod value;

/// The context governor's policy: which tool results of a conversation to clear, and into what.
pub use context::{
    forms::{classify as context_form, Form as ContextForm, HEAD_CHARS as CONTEXT_HEAD_CHARS},
    plan as context_plan, replacement as context_replacement, Clearing, ContextInput, ContextPlan,
    ContextPolicy, ContextResult, Replaced, Replacement,
};
pub use error::{Error, ErrorCode, Result};
pub use ids::{safe_id, sha256_hex, tool_result_id, validate_id};
/// The JavaScript files generated from the core's constants (checked by tests/generated_js.rs),
/// with the kinds of the enhanced layer, which the crate root (a seam between the layers) passes.
#[cfg(feature = "enhanced")]
pub fn generated_js_files() -> [(&'static str, String); 3] {
    js_constants::generated_js_files(&enhanced::ENHANCED_KINDS)
}
/// The enhanced mode's analyzers of outputs the reference calls `text`, each
/// `synopsis(output) -> Option<Synopsis>` (the fuzz targets drive them).
#[cfg(feature = "enhanced")]
pub mod enhanced_kinds {
    /// The analyzers' names, in the order they are tried.
    pub use crate::enhanced::registry::names as analyzer_names;
    pub use crate::enhanced::{
        build_output, dep_tree, git_log, html, log, text_table, xml, yaml_sample,
    };
}
/// The enhanced synopsis given the reference's (what the enhanced wasm module, bindings/enhanced,
/// answers).
#[cfg(feature = "enhanced")]
pub use enhanced_source::analyzers_synopsis as enhanced_synopsis;
/// The synopsis kinds, each `synopsis(output)`; `None` when the output is not of that kind.
pub use kinds::{code, json, table, text, xml, yaml, Synopsis};
pub use python::{char_len, is_py_space, py_lstrip, py_strip, py_word_count, py_words};
pub use record::{stored_matches, ToolResultRecord};
/// Credential-looking values masked in stubs (`config.redactSecrets`).
pub use redact::{redact_synopsis, redact_text, MASK as REDACTION_MASK};
pub use retention::RetentionPolicy;
/// The search the grep module (bindings/grep) drives with its own matcher.
pub use retrieval::grep;
/// Line windows, JSON pointer reads and CSV/TSV rows reads (the fuzz targets drive them).
pub use retrieval::{json_pointer, lines, table_rows};
pub use retrieval::{output_index::output_index, read, ReadWindow};
pub use stub::{
    make_preview, render_stub, synopsis_in_mode, PreviewRequest, StubHeader, ToolNames,
    DEFAULT_MAX_STUB_CHARS, ENHANCED_STUB_RATIO,
};
pub use stub_options::StubOptions;
pub use synopsis::{generate, MAX_YAML_BYTES};
/// The enhanced synopsis mode (`config.synopsisMode: "enhanced"`).
pub use synopsis_mode::SynopsisMode;
pub use turn::{
    finish_turn, plan_turn, FailureMode, ToolPart, TurnConfig, TurnInput, TurnPlan, WriteOutcome,
    DEFAULT_MAX_OUTPUT_BYTES, REASON_BUDGET, REASON_CONTEXT, REASON_SINGLE, REASON_SOURCE_READ,
    REASON_TOO_LARGE,
};
