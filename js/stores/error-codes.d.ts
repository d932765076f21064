// Generated from ErrorCode in src/error.rs, the one list of error codes: do not edit.
// Write it again with: TOOL_STUB_WRITE_GENERATED=1 cargo test --test generated_js

/** The stable codes of ToolStubError: callers branch on these, never on messages. */
export type ToolStubErrorCode =
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

export declare const ERROR_CODES: readonly ToolStubErrorCode[];
