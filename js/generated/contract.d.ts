// Generated from the core (src/js_constants.rs): what crosses the wasm boundary. Do not edit.
// Write it again with: TOOL_STUB_WRITE_GENERATED=1 cargo test --test generated_js

/** The unit of read offsets and limits. */
export declare const OFFSET_UNIT: "unicode_code_point";

/** The store layout's names: a session's results folder and each result's files. */
export type LayoutName = "tool-results" | "output.txt" | "metadata.json" | "index.json";
export declare const LAYOUT_NAMES: readonly LayoutName[];

/** Why a part was externalized (`externalizedReason`, a record's `reason`). */
export type ExternalizedReason = "single_threshold" | "turn_budget" | "source_read" | "too_large";
export declare const EXTERNALIZED_REASONS: readonly ExternalizedReason[];

/** The synopsis rules a stub is made with (`config.synopsisMode`). */
export type SynopsisMode = "reference" | "enhanced";
export declare const SYNOPSIS_MODES: readonly SynopsisMode[];

/** What a failed store write does to a turn (`config.failureMode`). */
export type FailureMode = "preserve_raw" | "reject" | "preview_only";
export declare const FAILURE_MODES: readonly FailureMode[];

/** The stable codes of ToolStubError: callers branch on these, never on messages. */
export type ErrorCode =
  | "INVALID_ARGUMENT"
  | "NOT_FOUND"
  | "STORE_FAILED"
  | "CORRUPT"
  | "TOO_LARGE"
  | "FORBIDDEN"
  | "NOT_READY"
  | "INTERNAL";
export declare const ERROR_CODES: readonly ErrorCode[];

/** What a stub says about an output (the core's `Synopsis`). */
export interface Synopsis {
  kind: string;
  title: string;
  summary: string[];
  structure: string[];
  notable_items: string[];
  sample: string;
}
