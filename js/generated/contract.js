// Generated from the core (src/js_constants.rs): what crosses the wasm boundary. Do not edit.
// Write it again with: TOOL_STUB_WRITE_GENERATED=1 cargo test --test generated_js

/** The unit of read offsets and limits. */
export const OFFSET_UNIT = "unicode_code_point";

/** The store layout's names: a session's results folder and each result's files. */
export const LAYOUT_NAMES = Object.freeze([
  "tool-results",
  "output.txt",
  "metadata.json",
  "index.json",
]);

/** The kinds the reference's detection names (a synopsis's `kind`, a record's `synopsis_kind`). */
export const REFERENCE_KINDS = Object.freeze([
  "json",
  "csv",
  "tsv",
  "yaml",
  "xml",
  "code",
  "text",
  "unknown",
]);

/** The kinds enhanced mode (`synopsisMode: "enhanced"`) names beyond the reference's. */
export const ENHANCED_KINDS = Object.freeze([
  "html",
  "git_log",
  "tree",
  "diff",
  "metrics",
  "search_hits",
  "build_output",
  "log",
  "text_table",
  "markdown",
]);

/** The kinds whose search hits carry a `row` (CSV/TSV) or a `jsonPointer` (JSON). */
export const KINDS_WITH_HIT_COORDINATES = Object.freeze(["csv", "tsv", "json"]);

/** Why a part was externalized (`externalizedReason`, a record's `reason`). */
export const EXTERNALIZED_REASONS = Object.freeze([
  "single_threshold",
  "turn_budget",
  "source_read",
  "context_budget",
  "too_large",
]);

/** The synopsis rules a stub is made with (`config.synopsisMode`). */
export const SYNOPSIS_MODES = Object.freeze(["reference", "enhanced"]);

/** What a failed store write does to a turn (`config.failureMode`). */
export const FAILURE_MODES = Object.freeze(["preserve_raw", "reject", "preview_only"]);

/** The shapes `toolDefinitions` gives the retrieval tools in (`format`). */
export const TOOL_DEFINITION_FORMATS = Object.freeze([
  "openai",
  "openai-responses",
  "anthropic",
  "json-schema",
]);

/** How `searchAll` ranks its results (`order`; the first is the default). */
export const SEARCH_ORDERS = Object.freeze(["relevance", "newest"]);

/** The stable codes of ToolStubError: callers branch on these, never on messages. */
export const ERROR_CODES = Object.freeze([
  "INVALID_ARGUMENT",
  "NOT_FOUND",
  "STORE_FAILED",
  "CORRUPT",
  "TOO_LARGE",
  "FORBIDDEN",
  "NOT_READY",
  "INTERNAL",
]);
