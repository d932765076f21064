// Generated from the core (src/js_constants.rs): what crosses the wasm boundary. Do not edit.
// Write it again with: TOOL_STUB_WRITE_GENERATED=1 cargo test --test generated_js

/** The unit of read offsets and limits. */
export declare const OFFSET_UNIT: "unicode_code_point";

/** The store layout's names: a session's results folder and each result's files. */
export type LayoutName = "tool-results" | "output.txt" | "metadata.json" | "index.json";
export declare const LAYOUT_NAMES: readonly LayoutName[];

/** The kinds the reference's detection names (a synopsis's `kind`, a record's `synopsis_kind`). */
export type ReferenceKind = "json" | "csv" | "tsv" | "yaml" | "xml" | "code" | "text" | "unknown";
export declare const REFERENCE_KINDS: readonly ReferenceKind[];

/** The kinds enhanced mode (`synopsisMode: "enhanced"`) names beyond the reference's. */
export type EnhancedKind =
  | "html"
  | "git_log"
  | "tree"
  | "diff"
  | "metrics"
  | "search_hits"
  | "build_output"
  | "log"
  | "text_table"
  | "markdown";
export declare const ENHANCED_KINDS: readonly EnhancedKind[];

/** The kinds whose search hits carry a `row` (CSV/TSV) or a `jsonPointer` (JSON). */
export type HitCoordinateKind = "csv" | "tsv" | "json";
export declare const KINDS_WITH_HIT_COORDINATES: readonly HitCoordinateKind[];

/** Why a part was externalized (`externalizedReason`, a record's `reason`). */
export type ExternalizedReason =
  | "single_threshold"
  | "turn_budget"
  | "source_read"
  | "context_budget"
  | "too_large";
export declare const EXTERNALIZED_REASONS: readonly ExternalizedReason[];

/** The synopsis rules a stub is made with (`config.synopsisMode`). */
export type SynopsisMode = "reference" | "enhanced";
export declare const SYNOPSIS_MODES: readonly SynopsisMode[];

/** What a failed store write does to a turn (`config.failureMode`). */
export type FailureMode = "preserve_raw" | "reject" | "preview_only";
export declare const FAILURE_MODES: readonly FailureMode[];

/** The shapes `toolDefinitions` gives the retrieval tools in (`format`). */
export type ToolDefinitionFormat = "openai" | "openai-responses" | "anthropic" | "json-schema";
export declare const TOOL_DEFINITION_FORMATS: readonly ToolDefinitionFormat[];

/** How `searchAll` ranks its results (`order`; the first is the default). */
export type SearchOrder = "relevance" | "newest";
export declare const SEARCH_ORDERS: readonly SearchOrder[];

/** The stable codes of ToolStubError: callers branch on these, never on messages. */
export type ErrorCode =
  /** The caller passed something the API does not take. */
  | "INVALID_ARGUMENT"
  /** No stored result has that id. */
  | "NOT_FOUND"
  /** The store failed, timed out or answered the wrong type (while externalizing: under failure mode `reject`). */
  | "STORE_FAILED"
  /** Stored data does not match its recorded SHA-256 or is unreadable. */
  | "CORRUPT"
  /** An output is larger than the configured limit. */
  | "TOO_LARGE"
  /** A ref names a result of a session this ToolStub was not granted read access to. */
  | "FORBIDDEN"
  /** The wasm module is not instantiated yet. */
  | "NOT_READY"
  /** A bug: an internal invariant did not hold. */
  | "INTERNAL";
export declare const ERROR_CODES: readonly ErrorCode[];

/** Every kind a synopsis may have. */
export type SynopsisKind = ReferenceKind | EnhancedKind;

/** What a stub says about an output (the core's `Synopsis`). */
export interface Synopsis {
  kind: SynopsisKind;
  title: string;
  summary: string[];
  structure: string[];
  notable_items: string[];
  sample: string;
}

/** `readWindow`: a window of an output by code-point offset and limit. */
export interface ReadWindow {
  content: string;
  offset: number;
  limit: number;
  offset_unit: typeof OFFSET_UNIT;
  total_chars: number;
  has_more: boolean;
}

/** `readLines`: a window of an output's lines. */
export interface LineWindow {
  content: string;
  startLine: number;
  endLine: number;
  totalLines: number;
  startOffset: number;
  endOffset: number;
  offsetUnit: typeof OFFSET_UNIT;
  totalChars: number;
  hasMore: boolean;
  cut: boolean;
  next: { line: number; column: number; offset: number; } | null;
}

/** `readJsonPointer`: the value a JSON pointer names, printed within `maxChars`. */
export interface PointerRead {
  pointer: string;
  type: "object" | "array" | "string" | "number" | "boolean" | "null";
  size: number;
  content: string;
  truncated: boolean;
  cuts: { pointer: string; type: "object" | "array" | "string" | "number" | "boolean" | "null"; size: number; shown: number; }[];
  totalCuts: number;
}

/** `readTableRows`: data rows of a CSV/TSV output, with its header. */
export interface RowsRead {
  content: string;
  delimiter: "," | "\t";
  startRow: number;
  endRow: number;
  totalRows: number;
  hasMore: boolean;
  cut: boolean;
}

/** `grepContent`: the matches of a search in one output. */
export interface GrepResult {
  matches: { offset: number; offsetUnit: typeof OFFSET_UNIT; snippet: string; line: number; column: number; length: number; }[];
  totalMatches: number;
  note?: string;
}

/** `rankSearchAll`: the results of a search over the session, ranked and cut. */
export interface RankedSearch {
  results: { toolResultId: string; ref: string; toolName: string; createdAt: string; totalMatches: number; matches: { offset: number; offsetUnit: typeof OFFSET_UNIT; snippet: string; line: number; column: number; length: number; }[]; }[];
  totalResults: number;
  totalMatches: number;
  unsearched?: number;
}

/** `contextPlan`: which tool results to clear, oldest first, and into what. */
export interface ContextPlan {
  clear: { index: number; to: "stub" | "reference"; }[];
  expectedTokens: number;
}

/** A result's record (metadata.json, `parseStoredRecord`), snake_case as stored. */
export interface ToolResultRecord {
  tool_result_id: string;
  session_id: string;
  message_id: string;
  tool_id: string;
  tool_name: string;
  user_id: string | null;
  peer_id: string | null;
  created_at: string;
  original_chars: number;
  preview_chars: number;
  sha256: string;
  mime_type: string;
  synopsis_kind: SynopsisKind;
  synopsis: Synopsis;
  storage_uri: string;
  output_uri: string;
  offset_unit: typeof OFFSET_UNIT;
  original_tokens?: number;
  original_tokens_estimated_from_chars?: number;
}

/** `catalogEntryOf`: one stored result as the session's catalog knows it. */
export interface CatalogEntry {
  toolResultId: string;
  toolName: string;
  messageId: string;
  createdAt: string;
  createdAtMs: number | null;
  kind: SynopsisKind;
  originalChars: number;
  storedBytes: number;
  sha256: string;
  ref: string;
  summary: string;
  originalTokens?: number;
  originalTokensEstimatedFromChars?: number;
}

/** `outputIndex`: a stored output's position index (index.json). */
export interface OutputIndex {
  version: number;
  step: number;
  chars: number;
  utf16: number;
  bytes: number;
  wellFormed: boolean;
  checkpoints: [number, number, number, number][];
}
