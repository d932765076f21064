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

/** Why a part was externalized (`externalizedReason`, a record's `reason`). */
export const EXTERNALIZED_REASONS = Object.freeze([
  "single_threshold",
  "turn_budget",
  "source_read",
  "too_large",
]);

/** The synopsis rules a stub is made with (`config.synopsisMode`). */
export const SYNOPSIS_MODES = Object.freeze(["reference", "enhanced"]);

/** What a failed store write does to a turn (`config.failureMode`). */
export const FAILURE_MODES = Object.freeze(["preserve_raw", "reject", "preview_only"]);

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
