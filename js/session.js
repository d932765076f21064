// A ToolStub's session once it is configured: the runtime it calls, its checked store, its
// resolved config, its catalog, and what every call on its results shares (keys, ids, loading an
// output and its record). The calls themselves live by concern: turns.js (externalize, restore),
// retrieval.js (read, search, searchAll, verify), session-results.js (list, delete, prune, usage)
// and tool-calls.js (a model's calls of the retrieval tools).

import { TurnTokens } from "./turn-tokens.js";
import { ToolStubError, asToolStubError, caught } from "./stores/errors.js";
import { callerJson, invalid, requireString } from "./arguments.js";
import { SessionCatalog } from "./catalog.js";
import { countCodePoints, parseOutputIndex } from "./output-index.js";
import { INDEX_FILE, METADATA_FILE, OUTPUT_FILE, RESULTS_DIR } from "./core-constants.js";
import { TextPieces, wholeText } from "./text-chunks.js";

/** @typedef {import("./stores/store.js").Store} Store */
/** @typedef {import("./generated/contract.js").ToolResultRecord} ToolResultRecord */
/** @typedef {import("./index.js").ToolStubConfig} ToolStubConfig */
/**
 * The config the core resolved (`resolveConfig`: the core's `TurnConfig`): every field of
 * ToolStubConfig, each default filled in.
 * @typedef {Required<ToolStubConfig> & { toolNames: Required<import("./index.js").ToolNames> }} ResolvedConfig
 */
/**
 * The readable session (its index in `readableJson`; 0: this one) and result a ref or id names
 * (`refTarget`).
 * @typedef {{ session: number, toolResultId: string }} RefTarget
 */
/**
 * What a Session is made of; `grants` and `countTokens` only for a ToolStub's own session.
 * @typedef {object} SessionParts
 * @property {import("./runtime.js").Runtime} runtime
 * @property {Store} store the store, its answers checked (stores/checked.js)
 * @property {string} sessionId
 * @property {string} sessionUri
 * @property {ResolvedConfig} config the config the core resolved
 * @property {string} userId
 * @property {() => string} now
 * @property {unknown[]} [grants] the sessions it may read too (ids or read grants)
 * @property {(text: string) => number} [countTokens] counts a turn's tokens in token mode
 */

export class Session {
  /**
   * @param {object} parts
   * @param {import("./runtime.js").Runtime} parts.runtime
   * @param {Store} parts.store the store, its answers checked (stores/checked.js)
   * @param {string} parts.sessionId
   * @param {string} parts.sessionUri
   * @param {ResolvedConfig} parts.config the config the core resolved
   * @param {string} parts.userId
   * @param {() => string} parts.now
   * @param {unknown[]} [parts.grants] the sessions it may read too (ids or read grants)
   * @param {(text: string) => number} [parts.countTokens] counts a turn's tokens in token mode
   */
  constructor({
    runtime,
    store,
    sessionId,
    sessionUri,
    config,
    userId,
    now,
    grants = [],
    countTokens,
  }) {
    this.runtime = runtime;
    this.store = store;
    this.sessionId = sessionId;
    this.sessionUri = sessionUri;
    this.config = config;
    this.userId = userId;
    this.now = now;
    this.catalog = new SessionCatalog(runtime, store, sessionId);
    /** Counts its turns' outputs in token mode (`budgetUnit: "tokens"`). */
    this.turnTokens = new TurnTokens(countTokens);
    /** JSON of the sessions this one may read, its own first (the core's `readableSessions`). */
    this.readableJson = runtime.call(
      "readableSessions",
      callerJson([{ sessionId, sessionUri }, ...grants], "readableSessions"),
    );
    /** A Session per granted session, made on its first read: index -> Session. */
    this.#readers = new Map();
    this.#parts = { runtime, store, config, userId, now };
  }

  /** @type {Map<number, Session>} */
  #readers;
  /** @type {Omit<SessionParts, "sessionId" | "sessionUri" | "grants" | "countTokens">} */
  #parts;

  /**
   * `{ session, toolResultId }`: the readable session (0: this one) and result, decided by the core.
   * @param {unknown} refOrId
   * @returns {RefTarget}
   */
  target(refOrId) {
    const value = requireString(refOrId, "ref");
    return JSON.parse(this.runtime.call("refTarget", value, this.readableJson));
  }

  /**
   * The id of a ref of this session, or an id as given (a granted session's ref is read-only).
   * @param {unknown} refOrId
   */
  resolveId(refOrId) {
    const { session, toolResultId } = this.target(refOrId);
    if (session !== 0) {
      // A string: `target` refuses anything else.
      const ref = String(refOrId);
      throw new ToolStubError(
        "FORBIDDEN",
        `ref ${JSON.stringify(ref.slice(0, 200))} is a result of session ${this.reader(session).sessionId}, which this ToolStub may read but not change`,
      );
    }
    return toolResultId;
  }

  /**
   * The session `refOrId` is a result of: this one, or a granted one (FORBIDDEN for others).
   * @param {unknown} refOrId
   */
  owner(refOrId) {
    return this.reader(this.target(refOrId).session);
  }

  /**
   * Readable session `index` (0: this one), over the same store.
   * @param {number} index
   * @returns {Session}
   */
  reader(index) {
    if (index === 0) return this;
    let reader = this.#readers.get(index);
    if (reader === undefined) {
      /** @type {{ sessionId: string, sessionUri: string }[]} */
      const readable = JSON.parse(this.readableJson);
      const { sessionId, sessionUri } = readable[index];
      reader = new Session({ ...this.#parts, sessionId, sessionUri });
      this.#readers.set(index, reader);
    }
    return reader;
  }

  /**
   * The store key of a result's `file`.
   * @param {string} id
   * @param {string} file
   */
  key(id, file) {
    return [this.sessionId, RESULTS_DIR, id, file];
  }

  /**
   * The error of a result whose record was found and whose output was not. On a store whose values
   * expire (`ttlSeconds`), the output (written first) expires first: the result is gone, not
   * damaged, so NOT_FOUND; elsewhere a record without its output is CORRUPT.
   * @param {string} id
   * @param {string} what
   */
  missingOutput(id, what) {
    if (this.store.expires === true)
      return new ToolStubError(
        "NOT_FOUND",
        `no tool result ${id} in session ${this.sessionId} (it expired: the store's values have a TTL)`,
      );
    return new ToolStubError("CORRUPT", `tool result ${id} ${what}`);
  }

  /**
   * A stored output, whole. A result exists once its record is written: the output is always
   * written first. Its length is checked against its index (or, for a result stored without one,
   * its record): an output cut short or grown behind the store's back is CORRUPT, never read as
   * if it were whole. (`verify` checks the SHA-256 too.)
   * @overload
   * @param {string} id
   * @returns {Promise<string>}
   */
  /**
   * @overload
   * @param {string} id
   * @param {{ pieces?: boolean }} options
   * @returns {Promise<string | TextPieces>}
   */
  /**
   * @param {string} id
   * @param {{ pieces?: boolean }} [options]
   * @returns {Promise<string | TextPieces>}
   */
  async loadOutput(id, { pieces = false } = {}) {
    const record = await this.store.load(this.key(id, METADATA_FILE));
    if (record === undefined) {
      throw new ToolStubError("NOT_FOUND", `no tool result ${id} in session ${this.sessionId}`);
    }
    const content = await this.#loadOutputText(id, pieces);
    if (content === undefined) throw this.missingOutput(id, "has a record but no stored output");
    const index = parseOutputIndex(await this.store.load(this.key(id, INDEX_FILE)));
    if (index !== undefined) {
      if (content.length !== index.utf16)
        throw changedOutput(id, content.length, index.utf16, "UTF-16 units", "index");
    } else {
      const parsed = this.runtime.call("parseStoredRecord", record);
      /** @type {ToolResultRecord | undefined} */
      const parsedRecord = parsed === undefined ? undefined : JSON.parse(parsed);
      const chars = parsedRecord?.original_chars;
      if (typeof chars === "number" && Number.isSafeInteger(chars)) {
        const stored = countCodePoints(wholeText(content));
        if (stored !== chars) throw changedOutput(id, stored, chars, "chars", "record");
      }
    }
    return content;
  }

  /**
   * The stored output: a string, or with `pieces` and a store that has `loadPieces`, the store's
   * pieces not joined (a TextPieces, for the search worker); undefined if there is none.
   * @param {string} id
   * @param {boolean} pieces
   * @returns {Promise<string | TextPieces | undefined>}
   */
  async #loadOutputText(id, pieces) {
    const key = this.key(id, OUTPUT_FILE);
    if (!pieces || typeof this.store.loadPieces !== "function") return this.store.load(key);
    const stored = await this.store.loadPieces(key);
    if (stored === undefined) return undefined;
    return stored.length === 1 ? stored[0] : new TextPieces(stored);
  }

  /**
   * A result's record, parsed; null when it has none, CORRUPT when it does not read.
   * @param {string} id
   * @returns {Promise<ToolResultRecord | null>}
   */
  async loadMetadata(id) {
    const text = await this.store.load(this.key(id, METADATA_FILE));
    if (text === undefined) return null;
    const record = this.runtime.call("parseStoredRecord", text);
    if (record === undefined) {
      throw new ToolStubError("CORRUPT", `the metadata of tool result ${id} is unreadable`);
    }
    return JSON.parse(record);
  }

  /** Whether the config asks for retention. */
  hasRetention() {
    const c = this.config;
    return c.maxResults != null || c.maxBytes != null || c.maxAgeMs != null;
  }

  /** The store's `removeRange`, which deleting needs; INVALID_ARGUMENT without one. */
  requireRemoveRange() {
    if (typeof this.store.removeRange !== "function")
      throw invalid("store must implement removeRange() to delete");
    return this.store.removeRange;
  }
}

/**
 * `{ toolResultId, code, message }` for a result a session-level call could not read or delete.
 * @param {string} toolResultId
 * @param {unknown} error
 * @returns {import("./index.js").SkippedResult}
 */
export function skipReport(toolResultId, error) {
  const known = asToolStubError(error);
  return { toolResultId, code: known.code, message: known.message };
}

/**
 * `{ code, message }` of a failure a call reports instead of throwing it.
 * @param {unknown} error
 */
export function errorReport(error) {
  const known = asToolStubError(error);
  return { code: known.code, message: known.message };
}

/**
 * A store failure as a part's `externalizationError` reads it.
 * @param {unknown} error
 */
export function describeStoreError(error) {
  const thrown = caught(error);
  const name = caught(thrown?.cause)?.name ?? thrown?.name ?? "Error";
  return `${name}: ${thrown?.message ?? String(error)}`;
}

/**
 * CORRUPT: a stored output whose length is not the one its index or record gives.
 * @param {string} id
 * @param {number} found
 * @param {number} expected
 * @param {string} unit
 * @param {string} by
 */
export function changedOutput(id, found, expected, unit, by, from = 0) {
  const what = found < expected ? "cut short" : "longer than it was";
  return new ToolStubError(
    "CORRUPT",
    `the stored output of tool result ${id} was changed behind the store's back: ${what} (${found} ${unit} where its ${by} says ${expected}${from ? `, reading from ${from}` : ""})`,
  );
}
