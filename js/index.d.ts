// Type declarations of tool-stub's main entry point ("tool-stub").

export {
  ToolStubError,
  ToolStubErrorCode,
  MemoryStore,
  Store,
  StoreKey,
  StoreEntry,
} from "./stores/store.js";
import type { Store, ToolStubErrorCode } from "./stores/store.js";
// What crosses the wasm boundary is generated from the core (js/generated/contract.d.ts): the
// kinds, modes, reasons, formats and error codes below are the core's own lists, so a change
// there fails the type check of everything that uses them (tests/types/contract-drift.ts).
import type {
  GrepResult,
  LineWindow,
  PointerRead,
  RowsRead,
  ToolResultRecord,
  ExternalizedReason,
  FailureMode,
  OFFSET_UNIT,
  SearchOrder,
  SynopsisKind,
  SynopsisMode,
  ToolDefinitionFormat,
} from "./generated/contract.js";

// SynopsisKind: the reference's kinds (`ReferenceKind`) and the ones enhanced mode adds
// (`EnhancedKind`). SynopsisMode: "reference" (default) synopses are the reference's, byte for
// byte; "enhanced" ones go beyond it (record fields and value counts, column types, YAML
// documents, logs, HTML, test and compiler output), in stubs at most 20% longer.
export type {
  EnhancedKind,
  ExternalizedReason,
  FailureMode,
  ReferenceKind,
  SearchOrder,
  SynopsisKind,
  SynopsisMode,
  ToolDefinitionFormat,
} from "./generated/contract.js";

/** The unit of every offset and limit: a Unicode code point. */
export type OffsetUnit = typeof OFFSET_UNIT;
type GrepMatch = GrepResult["matches"][number];

/** What the stub says about an output. */
export interface Synopsis {
  kind: SynopsisKind;
  title: string;
  summary: string[];
  structure: string[];
  notableItems: string[];
  /** Head/tail sample, only for `unknown` outputs; "" otherwise. */
  sample: string;
}

export interface SynopsisOptions {
  /** Default "text/plain". A MIME type with "json" or "xml" forces that parser first. */
  mimeType?: string;
  /** Sizes the head/tail sample of `unknown` outputs only. Default 2000. */
  previewChars?: number;
  toolName?: string;
  /** Default "reference". */
  synopsisMode?: SynopsisMode;
}

/** The names the stub's Explore lines give the retrieval tools. */
export interface ToolNames {
  read?: string;
  search?: string;
  list?: string;
  searchAll?: string;
}

export interface StubOptions {
  ref?: string;
  toolName?: string;
  sha256?: string;
  reason?: string;
  originalChars?: number;
  previewChars?: number;
  mimeType?: string;
  toolNames?: ToolNames;
  /** The stub's first line; default "[OpenViking tool result externalized]". */
  stubHeader?: string;
}

export declare function synopsis(output: string, options?: SynopsisOptions): Synopsis;
export declare function renderStub(synopsis: Synopsis, options?: StubOptions): string;
/** The synopsis and its stub; `previewChars` (default 2000) is clamped to the output's length.
 * `maxStubChars` (default 20000) bounds the stub: the synopsis's lists and long names are clipped
 * with "... N more" markers (and a stub is never longer than an output over 4000 chars). */
export declare function makePreview(
  output: string,
  options?: StubOptions & {
    maxStubChars?: number;
    synopsisMode?: SynopsisMode;
    /** Mask credential-looking values in the synopsis and stub (see config.redactSecrets);
     * default on in enhanced mode, off in reference mode. */
    redactSecrets?: boolean;
  },
): { synopsis: Synopsis; stub: string };
/** `tr_{safe tool id}_{sha256[:16]}`, or `tr_{sha256[:24]}` when toolId is empty. */
export declare function toolResultId(toolId: string, sha256: string): string;
/** Lower-case hex SHA-256 of the output's UTF-8 bytes (WTF-8 when it holds lone surrogates: the bytes a store keeps). */
export declare function sha256Hex(output: string): string;
/**
 * Installs the SHA-256 that `externalize` uses (hex of the UTF-8 bytes of a well-formed string;
 * may return a promise). The entry points install node:crypto or WebCrypto; a wrong digest would
 * be written into the records, so only replace it with an equivalent one.
 */
export declare function useSha256(hasher: (text: string) => string | Promise<string>): void;
/** Where searches run: in the browser entry's search worker, or on the calling thread. */
export interface GrepThread {
  thread: "worker" | "main";
  /** Why a browser's searches run on the main thread: the worker could not start (its script did
   * not load, no Worker, an iife bundle without a module URL). */
  workerUnavailable?: string;
}
/**
 * Loads the grep module (the second wasm module that runs `regex`, `ignoreCase` and `wholeWord`
 * searches) now instead of on the first such search; in browsers it starts the search worker that
 * runs it. Resolves with where searches run; rejects with `NOT_READY` if it cannot load.
 */
export declare function preloadGrep(): Promise<GrepThread>;
/**
 * Loads enhanced mode's module (the third wasm module, with the analyzers of `synopsisMode:
 * "enhanced"`) now. Reference mode never loads it. In Node it loads by itself the first time an
 * enhanced synopsis is needed; in browsers `synopsis()` and `makePreview()` with `synopsisMode:
 * "enhanced"` throw `NOT_READY` until this has resolved (ToolStub's methods await it themselves
 * when `config.synopsisMode` is `"enhanced"`). Rejects with `NOT_READY` if it cannot load.
 */
export declare function loadEnhancedMode(): Promise<void>;

/** Where `init` takes the wasm from: a compiled module, its bytes, or its address. */
export interface WasmSource {
  module?: WebAssembly.Module;
  bytes?: BufferSource | Response;
  url?: string | URL;
  /** The same for the grep module (wasm/tool_stub_grep_bg.wasm), loaded on the first
   * regex/ignoreCase/wholeWord search. */
  grepModule?: WebAssembly.Module;
  grepBytes?: BufferSource | Response;
  grepUrl?: string | URL;
  /** The same for enhanced mode's module (wasm/tool_stub_enhanced_bg.wasm), loaded by
   * `loadEnhancedMode()` or the first ToolStub call configured for enhanced synopses. */
  enhancedModule?: WebAssembly.Module;
  enhancedBytes?: BufferSource | Response;
  enhancedUrl?: string | URL;
  /** The same for the extras module (wasm/tool_stub_extras_bg.wasm), loaded on the first call
   * that needs it: `resolveRefs`, a read by lines, JSON pointer or rows, `fitContext`, `restore`,
   * `searchAll`. */
  extrasModule?: WebAssembly.Module;
  extrasBytes?: BufferSource | Response;
  extrasUrl?: string | URL;
  /** Where the host serves js/search-worker.js (export `tool-stub/search-worker`), for bundlers that
   * do not emit it as a worker (esbuild, Rollup): build it as its own ESM entry. Default: next to the
   * module, as Vite and webpack emit it. Like `searchWorker`, it applies to an `init` after the core is
   * ready too (before the first search). */
  searchWorkerUrl?: string | URL;
  /** `false`: searches run on the main thread (no worker is started). */
  searchWorker?: boolean;
}

/**
 * Browser entry: instantiates the wasm from what the host gives, for bundlers that do not emit the
 * package's wasm (esbuild). The import itself starts loading the wasm from next to the package (no
 * top-level await); `init()` resolves when it is ready (the synchronous calls need that; ToolStub's
 * methods wait by themselves). In Node it does nothing: the module is ready at import.
 */
export declare function init(source?: WasmSource): Promise<void>;

export declare const DEFAULT_SESSION_URI_PATTERN: "viking://user/default/sessions/{sessionId}";

/** The reference config, camelCase; every field optional (defaults shown). */
export interface ToolStubConfig {
  /** true */
  enabled?: boolean;
  /** 20000: a single output longer than this goes out. */
  thresholdChars?: number;
  /** 2000 */
  previewChars?: number;
  /** 100000: a turn larger than this sends its longest outputs out until it fits. */
  assistantTurnInlineBudgetChars?: number;
  /** 10000: shared by the stubs of one turn. */
  assistantTurnPreviewBudgetChars?: number;
  /** 1000 */
  minPreviewChars?: number;
  /** "preserve_raw" */
  failureMode?: FailureMode;
  /** "largest_first", the only strategy (accepted so the reference's full config is). */
  aggregateSelectionStrategy?: "largest_first";
  /** The names the stubs' Explore lines and the tool definitions use. */
  toolNames?: ToolNames;
  /** Outputs of these tools always stay inline. */
  exemptToolNames?: string[];
  /** Retention: the most results the session keeps (oldest deleted first). */
  maxResults?: number | null;
  /** Retention: the most UTF-8 bytes (outputs and records) the session keeps. */
  maxBytes?: number | null;
  /** Retention: results older than this are deleted. */
  maxAgeMs?: number | null;
  /** 20000: the most chars one retrieval tool call returns to the model. */
  maxResultChars?: number;
  /** 256 MB: an output over this many UTF-8 bytes is refused (TOO_LARGE) under the failure mode. */
  maxOutputBytes?: number;
  /** 20000: the most chars of a stub; its synopsis's lists and long names are clipped with
   * "... N more" markers (a stub is also never longer than an output over 4000 chars). */
  maxStubChars?: number;
  /** The first line of every stub: one non-empty line; default the reference's
   * "[OpenViking tool result externalized]". */
  stubHeader?: string;
  /** "reference" (default, byte-identical to the reference) or "enhanced" (see SynopsisMode). */
  synopsisMode?: SynopsisMode;
  /** Mask credential-looking values (cloud and provider API keys, tokens, JWTs, private keys,
   * passwords in URLs, values of keys named like password/secret/token) in stubs, list
   * summaries and enhanced excerpts, keeping a short prefix. The stored output is never altered.
   * Default (null/undefined): on in enhanced mode, off in reference mode (parity). See docs/secrets.md. */
  redactSecrets?: boolean | null;
  /** A store call that takes longer fails (as STORE_FAILED, cause TimeoutError). */
  storeTimeoutMs?: number | null;
  /** "chars" (default, the reference's): `thresholdChars` and `assistantTurnInlineBudgetChars`
   * decide. "tokens": `thresholdTokens` and `assistantTurnInlineBudgetTokens` do, each output
   * counted with `tokenizer` (or the ToolStub's `countTokens`); stubs and list entries then
   * report the outputs' tokens. See docs/context-governor.md. */
  budgetUnit?: BudgetUnit;
  /** 5000: in token mode, a single output of more tokens goes out. */
  thresholdTokens?: number;
  /** 25000: in token mode, a turn of more tokens sends its largest outputs out until it fits. */
  assistantTurnInlineBudgetTokens?: number;
  /** "o200k" (default) or "cl100k": token mode's tokenizer, from the optional peer dependency
   * gpt-tokenizer (NOT_READY without it). */
  tokenizer?: TokenizerName;
}

export type BudgetUnit = "chars" | "tokens";
export type TokenizerName = "o200k" | "cl100k";

export interface ToolStubOptions {
  /** Default: a new MemoryStore. */
  store?: Store;
  sessionId: string;
  /** Default `viking://user/default/sessions/<sessionId>`. */
  sessionUri?: string;
  config?: ToolStubConfig;
  /** Written into records as `user_id`. Default "default". */
  userId?: string;
  /** ISO timestamp for `created_at`. */
  now?: () => string;
  /**
   * Other sessions of the store whose results this ToolStub may read, search, restore and
   * resolve (never change): session ids (default session URI) or grants from their ToolStub's
   * `readGrant()`. Refs of any other session are FORBIDDEN.
   */
  readableSessions?: Array<string | ReadGrant>;
  /**
   * Counts tokens for `config.budgetUnit: "tokens"` instead of `config.tokenizer`. Declared with
   * both parameters, it is given a `limit` (Infinity when the whole count is wanted) and may stop
   * once the text has more tokens than that, returning any number above it.
   */
  countTokens?: (text: string, limit?: number) => number;
}

/** Read access to a session's results, made by its ToolStub's `readGrant()`. */
export interface ReadGrant {
  readonly sessionId: string;
  readonly sessionUri: string;
}

/**
 * A ref as a tool argument: the whole stored output, or one part of it. A ref alone as a string
 * argument is the whole output too.
 */
export type RefForm =
  | { ref: string }
  | { ref: string; offset?: number; limit?: number }
  | { ref: string; pointer: string }
  | { ref: string; rows: { start?: number; count?: number } }
  | { ref: string; lines: { start?: number; count?: number } };

/** One tool result of a turn; the externalization fields are filled in by `externalize`. */
export interface ToolPart {
  toolId?: string;
  toolName?: string;
  toolInput?: unknown;
  output: string;
  mimeType?: string;
  outputRef?: string;
  truncated?: boolean;
  originalChars?: number | null;
  previewChars?: number | null;
  sha256?: string;
  storageUri?: string;
  groupId?: string;
  /** An `ExternalizedReason`, or "" (inline). A `preview_only` stub of a failed store keeps the
   * reason it was selected for (its text says `reason: …:externalization_failed`). */
  externalizedReason?: ExternalizedReason | "";
  groupOriginalChars?: number | null;
  groupBudgetChars?: number | null;
  externalizationError?: string;
  sourceRef?: string;
  /** A read-back's `offset`/`limit` input as given (a non-integer is kept as is). */
  sourceOffset?: unknown;
  sourceLimit?: unknown;
  /** The message this part came from, when a turn's parts come from several: its record's
   * `message_id` (the call's `messageId` otherwise). */
  messageId?: string;
  /** Ask for this output to stay inline whatever its size. */
  keepInline?: boolean;
  /** Ask for this output to go out whatever its size (reason `context_budget`; `keepInline` wins). */
  forceExternalize?: boolean;
  [extra: string]: unknown;
}

/** The stored metadata record, exactly as written (snake_case, as on disk): the core's type. */
export type { ToolResultRecord } from "./generated/contract.js";

export interface ReadOptions {
  /** Code points; default 0. */
  offset?: number;
  /** Code points; -1 reads to the end; default 20000. */
  limit?: number;
  /** Default true. */
  includeMetadata?: boolean;
}

export interface ReadResult {
  toolResultId: string;
  content: string;
  offset: number;
  limit: number;
  offsetUnit: OffsetUnit;
  totalChars: number;
  hasMore: boolean;
  metadata?: ToolResultRecord | null;
}

/** A line window: lines end at `\n`; 1-based lines and columns, code-point offsets. */
export interface LineReadOptions {
  /** 1-based first line; default 1. */
  line?: number;
  /** Default 200. */
  lines?: number;
  /** 1-based column in the first line (continues a cut line); default 1. */
  column?: number;
  /** Prefix lines with their number, `cat -n` style. */
  numbered?: boolean;
  /** Default 20000, at least 200; the content never exceeds it. */
  maxChars?: number;
  includeMetadata?: boolean;
}

/** The core's line window (`LineWindow`): `cut` says the last line shown was cut to fit
 * maxChars (the content ends with a marker); `next` is where to go on reading. */
export interface LineReadResult extends LineWindow {
  toolResultId: string;
  mode: "lines";
  metadata?: ToolResultRecord | null;
}

export interface JsonPointerReadOptions {
  /** RFC 6901; "" is the whole document. */
  jsonPointer: string;
  maxChars?: number;
  includeMetadata?: boolean;
}

/** A value printed in part: its pointer, type, size (keys, items or chars) and what was shown. */
export type JsonCut = PointerRead["cuts"][number];

/** The core's pointer read (`PointerRead`): `size` counts keys, items or chars; `content` is
 * pretty-printed (2-space indent), scalars as written; `cuts` lists the first 20 cut values. */
export interface JsonPointerReadResult extends PointerRead {
  toolResultId: string;
  mode: "jsonPointer";
  metadata?: ToolResultRecord | null;
}

export interface RowsReadOptions {
  /** 1-based data rows (row 1 follows the header); count defaults to 50. */
  rows: { start?: number; count?: number };
  maxChars?: number;
  includeMetadata?: boolean;
}

/** The core's rows read (`RowsRead`): `content` is the header and the rows, each exactly as
 * written. */
export interface RowsReadResult extends RowsRead {
  toolResultId: string;
  mode: "rows";
  metadata?: ToolResultRecord | null;
}

export interface SearchOptions {
  query: string;
  /** Default 20. */
  limit?: number;
  /** Default 300 (unless contextLines is given). */
  contextChars?: number;
  /** Whole lines around the match (at most 1000 chars either side). */
  contextLines?: number;
  /** `query` is a regular expression (Rust `regex` syntax: linear time, Unicode `\w`/`\d`/`\s`/`\b`/`\p{..}`; `^`/`$` match at lines). */
  regex?: boolean;
  ignoreCase?: boolean;
  wholeWord?: boolean;
}

/** A match as the core found it: `line` and `column` 1-based, `column` and `length` in code
 * points. */
export interface SearchMatch extends GrepMatch {
  /** CSV/TSV results: the data row holding the match, as `rows.start` takes it (absent in the header). */
  row?: number;
  /** JSON results: the pointer of the innermost value holding the match, as `jsonPointer` takes it. */
  jsonPointer?: string;
}

export interface SearchResult {
  toolResultId: string;
  matches: SearchMatch[];
  /** All matches in the output, also beyond `limit`. */
  totalMatches: number;
  /**
   * Why fewer than `limit` matches are listed although more exist (the snippets' shared budget),
   * or why the search stopped early (a regex out of its time budget; `totalMatches` then counts
   * the matches before the point it names).
   */
  note?: string;
}

export interface SearchAllOptions {
  query: string;
  regex?: boolean;
  ignoreCase?: boolean;
  wholeWord?: boolean;
  toolName?: string;
  /** Results returned; default 10. */
  limit?: number;
  /** Matches per result; default 3. */
  perResult?: number;
  /** Default 120. */
  contextChars?: number;
  contextLines?: number;
  /**
   * "relevance" (default): most matches first, then newest; every candidate is searched.
   * "newest": newest first; the search stops once `limit` results matched (see `unsearched`).
   */
  order?: SearchOrder;
}

export interface SearchAllResult {
  /** Most matches first, then newest first (or newest first with `order: "newest"`). */
  results: {
    ref: string;
    toolResultId: string;
    toolName: string;
    createdAt: string;
    totalMatches: number;
    matches: SearchMatch[];
  }[];
  /** Results that matched, and their matches (of those searched, with `unsearched`). */
  totalResults: number;
  totalMatches: number;
  /** Candidates not searched: an `order: "newest"` search stopped once `limit` results matched. */
  unsearched?: number;
  /** Results whose output could not be read: reported, never fatal to the session. */
  skipped?: SkippedResult[];
}

/** The message shapes `fitContext` walks. */
export type ContextFormat =
  | "openai"
  | "openai-responses"
  | "anthropic"
  | "ai-sdk"
  | "openai-agents"
  | "langchain";

export interface FitContextOptions {
  format: ContextFormat;
  /** The model's context window in tokens: the sizes below may then be fractions of it. */
  contextWindow?: number;
  /** Clearing starts past this (tokens, or a fraction of contextWindow; default 0.8 of it). */
  trigger?: number;
  /** And goes down to this (tokens or a fraction; default 0.6 of trigger; at most trigger). */
  target?: number;
  /** The last this-many tool results are never cleared (default 3). */
  keepRecent?: number;
  /** A clearing frees whole multiples of this (tokens or a fraction; default 0): fewer, larger prefix changes. */
  clearAtLeast?: number;
  /** Results of these tools are never cleared. */
  excludeTools?: string[];
  /** Tool call ids whose results are never cleared. */
  pinned?: string[];
  /** Counts a text's tokens; default: the named `tokenizer`. */
  countTokens?: (text: string) => number;
  /** A tokenizer of the optional peer dependency gpt-tokenizer (default "o200k"). */
  tokenizer?: "o200k" | "cl100k";
}

export interface FitContextResult<M> {
  /** The fitted conversation: the input's own messages where nothing changed, copies elsewhere. */
  messages: M[];
  changed: boolean;
  tokensBefore: number;
  tokensAfter: number;
  /** The refs of the results it cleared (each reads and searches back the output). */
  cleared: string[];
}

export declare class ToolStub {
  constructor(options: ToolStubOptions);
  readonly sessionId: string;
  readonly sessionUri: string;
  /** Externalizes one turn's tool parts; returns new parts (inputs untouched). */
  /** `peerId` is written into the records as `peer_id`. */
  /** With a retention policy, the answer's non-enumerable `retention` says what the prune did. */
  externalize(
    parts: ToolPart[],
    options: { messageId: string; peerId?: string },
  ): Promise<ToolPart[] & { readonly retention?: RetentionReport }>;
  read(refOrId: string, options?: ReadOptions): Promise<ReadResult>;
  read(refOrId: string, options: LineReadOptions): Promise<LineReadResult>;
  read(refOrId: string, options: JsonPointerReadOptions): Promise<JsonPointerReadResult>;
  read(refOrId: string, options: RowsReadOptions): Promise<RowsReadResult>;
  search(refOrId: string, options: SearchOptions): Promise<SearchResult>;
  searchAll(options: SearchAllOptions): Promise<SearchAllResult>;
  /** Puts externalized outputs back (SHA-256 verified; `CORRUPT` on mismatch). */
  restore(parts: ToolPart[]): Promise<ToolPart[]>;
  /** The session's records in id order, from its catalog (see README "Sessions at scale"). */
  list(options?: {
    toolName?: string;
    limit?: number;
  }): Promise<{ toolResults: ToolResultRecord[]; skipped?: SkippedResult[] }>;
  /** Checks a stored output against its record (SHA-256 and length); CORRUPT on a mismatch. */
  verify(refOrId: string): Promise<{ toolResultId: string; sha256: string; totalChars: number }>;
  /** What another ToolStub of the store needs (in `readableSessions`) to read this session. */
  readGrant(): ReadGrant;
  /**
   * A tool call's arguments with each ref of a readable session (a whole string argument, or a
   * `RefForm` object) replaced by the stored content it names; the same object when there is
   * none. FORBIDDEN (another session's ref), NOT_FOUND, CORRUPT, INVALID_ARGUMENT (a bad ref form
   * or a part past the end), TOO_LARGE (more than `maxResolvedChars`, default 1,000,000, in all).
   * Apply it only to tools that keep data on the machine.
   */
  resolveRefs<T = unknown>(args: T, options?: { maxResolvedChars?: number }): Promise<T>;
  /**
   * What a tool that accepts refs tells the model: the sentence for its description and, given
   * its input's JSON Schema, that schema taking a `RefForm` beside each top-level property.
   */
  refArguments(): { note: string };
  refArguments(inputSchema: object): { note: string; schema: object };
  /**
   * The retrieval tools as JSON Schema in an SDK's shape (default "openai"). Each format's result
   * is assignable to that SDK's own type: "openai" to `ChatCompletionTool[]` (openai chat
   * completions), "openai-responses" to `FunctionTool[]` (openai Responses API), "anthropic" to
   * `Tool[]` (@anthropic-ai/sdk). Both OpenAI formats are `strict: true`, their schemas in OpenAI's
   * strict subset (optional arguments nullable; `handleToolCall` reads a null as "not given").
   */
  toolDefinitions(options: { format: "openai-responses" }): OpenAiResponsesToolDefinition[];
  toolDefinitions(options: { format: "anthropic" }): AnthropicToolDefinition[];
  toolDefinitions(options: { format: "json-schema" }): JsonSchemaToolDefinition[];
  toolDefinitions(options?: { format?: "openai" }): OpenAiToolDefinition[];
  toolDefinitions(options?: { format?: ToolDefinitionFormat }): ToolDefinition[];
  /**
   * Runs a model's retrieval call; never throws: errors come back as `{ error }`, so
   * `if ("error" in r) r.error.code` tells them apart.
   */
  handleToolCall(name: string, args: unknown): Promise<ToolCallResult>;
  delete(refOrId: string): Promise<{ deleted: boolean }>;
  /** Removes the session's `tool-results` and its catalog, nothing else of the session's folder. */
  deleteSession(): Promise<void>;
  usage(): Promise<{ results: number; chars: number; bytes: number }>;
  /**
   * The context governor: fits a conversation to its budget by turning older tool results into
   * stubs and one-line references to their stored outputs (readable and searchable by ref).
   * Never mutates `messages`; deterministic and idempotent. See docs/context-governor.md.
   */
  fitContext<M>(messages: M[], options: FitContextOptions): Promise<FitContextResult<M>>;
  /**
   * The one-line reference form of one of this session's stubs (what `fitContext` shrinks a stub
   * into): `[tool result cleared from context] ref: …`; undefined for text that is no stub of this
   * session with a ref.
   */
  referenceForm(stub: string): string | undefined;
  /** Applies the retention policy; `protect` lists refs or ids that must survive. */
  prune(options?: {
    protect?: string[];
  }): Promise<{ deleted: string[]; skipped?: SkippedResult[] }>;
  /** Rebuilds the session's catalog from the stored records. */
  rebuildCatalog(): Promise<{ results: number; added: string[]; removed: string[] }>;
}

/** A result a session-level call could not read or delete: reported, never fatal to the session. */
export interface SkippedResult {
  toolResultId: string;
  code: string;
  message: string;
}

/** What retention did after an `externalize` (the returned array's non-enumerable `retention`). */
export interface RetentionReport {
  deleted: string[];
  skipped: SkippedResult[];
  error?: { code: string; message: string };
}

/** A retrieval tool's arguments as JSON Schema: always an object schema. */
/** A JSON Schema type name, as the tool schemas use them. */
export type ToolSchemaType =
  | "string"
  | "integer"
  | "number"
  | "boolean"
  | "object"
  | "array"
  | "null";

/**
 * One argument's schema: the JSON Schema (draft 7) keywords the retrieval tools use. Typed, not
 * `unknown`, so that the schemas are assignable to SDK types built on `JSONSchema7` (the AI SDK's
 * `jsonSchema`).
 */
export interface ToolArgumentSchema {
  type?: ToolSchemaType | ToolSchemaType[];
  description?: string;
  enum?: Array<string | number | boolean | null>;
  items?: ToolArgumentSchema;
  properties?: { [name: string]: ToolArgumentSchema };
  required?: string[];
  additionalProperties?: boolean;
  minimum?: number;
  maximum?: number;
  anyOf?: ToolArgumentSchema[];
}

export interface ToolParametersSchema {
  type: "object";
  properties: { [argument: string]: ToolArgumentSchema };
  required?: string[];
  additionalProperties: false;
  [keyword: string]: unknown;
}

/** `format: "openai"`: assignable to the openai package's `ChatCompletionTool`. */
export interface OpenAiToolDefinition {
  type: "function";
  function: { name: string; description: string; parameters: ToolParametersSchema; strict: true };
}

/** `format: "openai-responses"`: assignable to the openai package's Responses `FunctionTool`. */
export interface OpenAiResponsesToolDefinition {
  type: "function";
  name: string;
  description: string;
  parameters: ToolParametersSchema;
  strict: true;
}

/** `format: "anthropic"`: assignable to @anthropic-ai/sdk's `Tool`. */
export interface AnthropicToolDefinition {
  name: string;
  description: string;
  input_schema: ToolParametersSchema;
}

/** `format: "json-schema"`: plain JSON Schema (what the AI SDK's `jsonSchema` takes). */
export interface JsonSchemaToolDefinition {
  name: string;
  description: string;
  parameters: ToolParametersSchema;
}

export type ToolDefinition =
  | OpenAiToolDefinition
  | OpenAiResponsesToolDefinition
  | AnthropicToolDefinition
  | JsonSchemaToolDefinition;

export interface ToolCallError {
  error: { code: ToolStubErrorCode; message: string; allowed?: unknown };
}

/** A search match as a tool call returns it (snake_case). */
export interface ToolCallMatch {
  offset: number;
  offset_unit: OffsetUnit;
  snippet: string;
  line: number;
  column: number;
  length: number;
}

/** The read tool's result; which fields come depends on the mode (offset, lines, jsonPointer, rows). */
export interface ReadToolCallResult {
  tool_result_id: string;
  content: string;
  mode?: "lines" | "jsonPointer" | "rows";
  offset?: number;
  limit?: number;
  offset_unit?: OffsetUnit;
  total_chars?: number;
  has_more?: boolean;
  start_line?: number;
  end_line?: number;
  total_lines?: number;
  start_offset?: number;
  end_offset?: number;
  cut?: boolean;
  next?: { line: number; column: number; offset: number } | null;
  pointer?: string;
  type?: JsonCut["type"];
  size?: number;
  truncated?: boolean;
  cuts?: JsonCut[];
  total_cuts?: number;
  delimiter?: "," | "\t";
  start_row?: number;
  end_row?: number;
  total_rows?: number;
  note?: string;
}

export interface SearchToolCallResult {
  tool_result_id: string;
  matches: ToolCallMatch[];
  total_matches: number;
  note?: string;
}

export interface SearchAllToolCallResult {
  results: {
    ref: string;
    tool_result_id: string;
    tool_name: string;
    created_at: string;
    total_matches: number;
    matches: ToolCallMatch[];
  }[];
  total_results: number;
  total_matches: number;
  note?: string;
}

export interface ListToolCallResult {
  tool_results: ToolResultRecord[];
  note?: string;
}

/** What `handleToolCall` resolves to: a tool's result, or `{ error }` (the only shape with `error`). */
export type ToolCallResult =
  | ReadToolCallResult
  | SearchToolCallResult
  | SearchAllToolCallResult
  | ListToolCallResult
  | ToolCallError;
