// Type declarations for the tool-stub store layer.

import type { ErrorCode } from "../generated/contract.js";
// Generated from src/error.rs, the one list of error codes.
export { ERROR_CODES } from "../generated/contract.js";
/** The stable codes of ToolStubError: callers branch on these, never on messages. */
export type ToolStubErrorCode = ErrorCode;

export declare class ToolStubError extends Error {
  constructor(code: ToolStubErrorCode, message: string, options?: { cause?: unknown });
  readonly name: "ToolStubError";
  /** Stable machine-readable code; branch on this, not on the message. */
  readonly code: ToolStubErrorCode;
  readonly cause?: unknown;
}

/**
 * A key: a non-empty array of segments. Each segment is a non-empty,
 * well-formed string without "/", "\\" or NUL, and not "." or "..";
 * anything else is rejected with ToolStubError("INVALID_ARGUMENT").
 */
export type StoreKey = string[];

export interface StoreEntry {
  key: StoreKey;
  value: string;
}

/** Modelled on automerge-repo's StorageAdapter. Values are strings, stored exactly (lone surrogates included). */
export interface Store {
  /** The value, or undefined if there is none. */
  load(key: StoreKey): Promise<string | undefined>;
  /** Creates or atomically replaces the value. */
  save(key: StoreKey, value: string): Promise<void>;
  /**
   * Optional: saves every entry at once, all or none (a transaction), where the backend allows it.
   * ToolStub writes a result's output, index and record with it; without it, one save at a time.
   */
  saveMany?(entries: StoreEntry[]): Promise<void>;
  /** Removes the value; a missing key is not an error. */
  remove(key: StoreKey): Promise<void>;
  /**
   * All entries whose key starts with `prefix` (whole segments; a key is in
   * its own range), sorted segment-wise in UTF-16 code unit order.
   * An empty prefix means every entry.
   */
  loadRange(prefix: string[]): Promise<StoreEntry[]>;
  /** Removes every entry loadRange(prefix) would return. */
  removeRange(prefix: string[]): Promise<void>;
  /**
   * Optional: value.length (UTF-16 code units), or undefined for a missing key, without
   * materialising the value where the backend allows it. ToolStub does not need it; the
   * conformance suite checks it when the store has it.
   */
  size?(key: StoreKey): Promise<number | undefined>;
  /** Optional: the keys loadRange(prefix) would return, in the same order, without their values. */
  loadKeys?(prefix: string[]): Promise<StoreKey[]>;
  /**
   * Optional: an exclusive lock named by `key` (across processes where the backend allows it).
   * `recovered` says the last holder died holding it. ToolStub holds the session's lock while it
   * writes a turn, records it in the session's catalog and applies retention.
   */
  lock?(key: StoreKey): Promise<StoreLock>;
  /**
   * Optional ranged read: the part of the value between positions `start` and `end` (integers,
   * 0 <= start <= end; `end` past the value is clamped), in `sliceUnit`; undefined if there is no
   * value. ToolStub's `read` uses it with the output index to fetch only the span it needs.
   */
  loadSlice?(key: StoreKey, start: number, end: number): Promise<string | undefined>;
  /**
   * Optional: the value as the pieces the store keeps it in, in order, not joined (their join is
   * `load(key)`'s value; a value kept whole is one piece); undefined if there is no value. In
   * browsers a search run in the search worker sends an output to it piece by piece, so a large
   * output is never joined into one string on the page's main thread.
   */
  loadPieces?(key: StoreKey): Promise<string[] | undefined>;
  /**
   * Optional: true when values may expire on their own (a TTL). ToolStub then saves a result it
   * reuses (an identical output stored before) again, so it lives as long as one stored now, and
   * a loaded session catalog checks that its oldest log record is still there before it trusts itself.
   */
  readonly expires?: boolean;
  /** Unit of loadSlice's positions: "utf16" code units of the value, or "utf8" bytes of its stored form (which must lie on character boundaries). */
  readonly sliceUnit?: SliceUnit;
}

export type SliceUnit = "utf16" | "utf8";

export interface StoreLock {
  /** The last holder died holding the lock (it may have stopped between two writes). */
  readonly recovered: boolean;
  /** Releases the lock; calling it again does nothing. */
  release(): Promise<void>;
}

/** In-memory store backed by a Map. */
export declare class MemoryStore implements Store {
  constructor();
  load(key: StoreKey): Promise<string | undefined>;
  save(key: StoreKey, value: string): Promise<void>;
  remove(key: StoreKey): Promise<void>;
  loadRange(prefix: string[]): Promise<StoreEntry[]>;
  removeRange(prefix: string[]): Promise<void>;
  loadKeys(prefix: string[]): Promise<StoreKey[]>;
  lock(key: StoreKey): Promise<StoreLock>;
  size(key: StoreKey): Promise<number | undefined>;
  /** value.slice(start, end). */
  loadSlice(key: StoreKey, start: number, end: number): Promise<string | undefined>;
  readonly sliceUnit: "utf16";
}

/**
 * Node file-system store: key segments are path components under `dir`
 * (["s1","tool-results","tr_x","output.txt"] → <dir>/s1/tool-results/tr_x/output.txt).
 * Values are UTF-8 (WTF-8 for lone surrogates); writes are atomic (temp file + rename).
 * A key cannot also be a prefix of another key (a path is a file or a directory).
 */
export declare class NodeFsStore implements Store {
  constructor(dir: string);
  /** Absolute root directory. */
  readonly dir: string;
  load(key: StoreKey): Promise<string | undefined>;
  save(key: StoreKey, value: string): Promise<void>;
  remove(key: StoreKey): Promise<void>;
  loadRange(prefix: string[]): Promise<StoreEntry[]>;
  removeRange(prefix: string[]): Promise<void>;
  loadKeys(prefix: string[]): Promise<StoreKey[]>;
  lock(key: StoreKey): Promise<StoreLock>;
  /** Counted from the file's bytes in chunks, without decoding the whole value. */
  size(key: StoreKey): Promise<number | undefined>;
  /** Reads only bytes start..end of the file (UTF-8/WTF-8) and decodes them. */
  loadSlice(key: StoreKey, start: number, end: number): Promise<string | undefined>;
  readonly sliceUnit: "utf8";
}

export interface IndexedDbStoreOptions {
  /** Default "tool-stub". */
  dbName?: string;
  /** Default "records". Several stores may share one database. */
  storeName?: string;
  /** Default globalThis.indexedDB; inject e.g. fake-indexeddb's IDBFactory in Node. */
  indexedDB?: IDBFactory;
  /** Default globalThis.IDBKeyRange; must come from the same implementation as indexedDB. */
  IDBKeyRange?: typeof IDBKeyRange;
  /**
   * Default 1,048,576. A longer value is stored in pieces of this many UTF-16 code units (beside
   * its key, invisible to loadRange), so loadSlice reads only the pieces it needs.
   */
  chunkChars?: number;
}

/** Browser store over IndexedDB; the key array is the IndexedDB key. */
export declare class IndexedDbStore implements Store {
  constructor(options?: IndexedDbStoreOptions);
  readonly dbName: string;
  readonly storeName: string;
  readonly chunkChars: number;
  load(key: StoreKey): Promise<string | undefined>;
  save(key: StoreKey, value: string): Promise<void>;
  remove(key: StoreKey): Promise<void>;
  loadRange(prefix: string[]): Promise<StoreEntry[]>;
  removeRange(prefix: string[]): Promise<void>;
  loadKeys(prefix: string[]): Promise<StoreKey[]>;
  lock(key: StoreKey): Promise<StoreLock>;
  /** From the record of a value stored in pieces; otherwise reads the value (IndexedDB keeps no per-record size). */
  size(key: StoreKey): Promise<number | undefined>;
  /** value.slice(start, end), reading only the pieces that hold it. */
  loadSlice(key: StoreKey, start: number, end: number): Promise<string | undefined>;
  /** The value's stored pieces (of `chunkChars` units; one for a short value), not joined. */
  loadPieces(key: StoreKey): Promise<string[] | undefined>;
  readonly sliceUnit: "utf16";
  /** Closes the connection; the next call reopens it. */
  close(): Promise<void>;
}
