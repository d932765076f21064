// The public JavaScript API: `ToolStub` (a session over a store) and the re-exported stateless
// calls. Every decision (kinds, synopses, stubs, ids, which parts of a turn go out, read windows,
// search hits) is made by the wasm core; this file moves data between the caller, the core and a
// store.

import { ToolStubError, asToolStubError } from "./stores/errors.js";
import { MemoryStore } from "./stores/memory.js";
import {
  callerJson,
  readingCaller,
  wellFormed,
  isWellFormed,
  invalid,
  requireString,
  optionalString,
  optionalInteger,
  requireOptions,
  checkKnownKeys,
} from "./arguments.js";
import { withStoreTimeout } from "./stores/timeout.js";
import { withCheckedAnswers } from "./stores/checked.js";
import { planTurn } from "./planned-turn.js";
import { countCodePoints, parseOutputIndex, spanOf } from "./output-index.js";
import {
  RESULTS_DIR,
  OUTPUT_FILE,
  METADATA_FILE,
  INDEX_FILE,
  DEFAULT_READ_LIMIT,
  DEFAULT_LIST_LIMIT,
} from "./core-constants.js";
import { literalSearch } from "./literal-search.js";
import { needsGrepModule } from "./grep-module.js";
import { TextPieces, wholeText } from "./text-chunks.js";
import { SessionCatalog } from "./catalog.js";
import { statelessCalls } from "./functions.js";

export { ToolStubError, MemoryStore };

/**
 * The public API on `runtime` (runtime.js), as an entry module exports it: `ToolStub`, the
 * stateless calls, and the runtime's switches a caller may use (`useSha256`, `preloadGrep`,
 * `loadEnhancedMode`).
 */
export function createApi(runtime) {
  class ToolStub extends ToolStubOnRuntime {
    constructor(options) {
      super(runtime, options);
    }
  }
  return {
    ToolStub,
    /** The host's SHA-256 of text (`(text) => hex | Promise<hex>`), replacing the native ones. */
    useSha256: (host) => runtime.useSha256(host),
    preloadGrep: () => runtime.grep.preload(),
    loadEnhancedMode: () => runtime.enhanced.load(),
    ...statelessCalls(runtime),
  };
}

/** The code points offset..offset+limit of a string holding lone surrogates, exactly. */
function exactWindow(content, offset, limit) {
  const codePoints = [...content].slice(offset, limit === -1 ? undefined : offset + limit);
  return codePoints.join("");
}

const READ_OPTIONS = ["offset", "limit", "includeMetadata"];
/** Read modes beyond the reference's offset/limit, and the options each takes. */
const READ_MODES = {
  lines: ["line", "lines", "column", "numbered"],
  jsonPointer: ["jsonPointer"],
  rows: ["rows"],
};
const SEARCH_OPTIONS = ["query", "limit", "contextChars"];
const GREP_OPTIONS = ["regex", "ignoreCase", "wholeWord", "contextLines"];
const SEARCH_ALL_OPTIONS = [
  "query",
  "regex",
  "ignoreCase",
  "wholeWord",
  "toolName",
  "limit",
  "perResult",
  "contextChars",
  "contextLines",
  "order",
];

/** The read mode the options ask for ("offset" is the reference's), checked for mixing. */
function readMode(opts) {
  const modes = Object.keys(READ_MODES).filter((mode) =>
    READ_MODES[mode].some((key) => opts[key] !== undefined),
  );
  if (modes.length > 1)
    throw invalid(`read options mix modes (${modes.join(", ")}): use one of them`);
  const mode = modes[0] ?? "offset";
  if (mode !== "offset" && (opts.offset !== undefined || opts.limit !== undefined)) {
    throw invalid(`offset/limit do not combine with a ${mode} read`);
  }
  if (mode === "offset" && opts.maxChars !== undefined) {
    throw invalid("maxChars applies to line, jsonPointer and rows reads");
  }
  return mode;
}

/** Only the options that are set, for the core's JSON. */
function definedOptions(opts, keys) {
  return Object.fromEntries(
    keys.filter((key) => opts[key] !== undefined).map((key) => [key, opts[key]]),
  );
}

/** Result kinds whose search hits carry more than offset/line/column (src/retrieval/hit_coordinates.rs). */
const KINDS_WITH_HIT_COORDINATES = ["csv", "tsv", "json"];
const CORE_READS = { lines: "readLines", jsonPointer: "readJsonPointer", rows: "readTableRows" };
const LIST_OPTIONS = ["toolName", "limit"];

/** How many results of a turn a store with `saveMany` stores at once (see externalize). */
const WRITES_IN_FLIGHT = 16;

/** The pattern of the default session URI; `{sessionId}` is replaced. */
export const DEFAULT_SESSION_URI_PATTERN = "viking://user/default/sessions/{sessionId}";

/** A session over a store, on a runtime; entry modules export it as `ToolStub` (see createApi). */
class ToolStubOnRuntime {
  #runtime;
  #store;
  #sessionId;
  #sessionUri;
  #config;
  #userId;
  #now;
  #catalog;
  /** The core's part of the constructor, while it waits for the wasm (see #configured). */
  #configure;

  /**
   * @param {object} options
   * @param {object} [options.store] a store adapter (default: a new MemoryStore)
   * @param {string} options.sessionId
   * @param {string} [options.sessionUri] default `viking://user/default/sessions/<sessionId>`
   * @param {object} [options.config] the reference config, camelCase
   * @param {string} [options.userId] written into records as `user_id` (default "default")
   * @param {() => string} [options.now] ISO timestamp for `created_at`
   */
  constructor(runtime, options) {
    this.#runtime = runtime;
    const opts = requireOptions(options, "options");
    checkKnownKeys(
      opts,
      ["store", "sessionId", "sessionUri", "config", "userId", "now"],
      "ToolStub",
    );
    this.#sessionId = requireString(opts.sessionId, "sessionId");
    this.#sessionUri = optionalString(
      opts.sessionUri,
      "sessionUri",
      DEFAULT_SESSION_URI_PATTERN.replace("{sessionId}", this.#sessionId),
    );
    const configJson = callerJson(requireOptions(opts.config, "config"), "config");
    const store = opts.store ?? new MemoryStore();
    readingCaller("store", () => {
      if (store === null || typeof store !== "object")
        throw invalid("store must be a store object");
      for (const method of ["load", "save", "loadRange"]) {
        if (typeof store[method] !== "function") throw invalid(`store must implement ${method}()`);
      }
    });
    this.#userId = optionalString(opts.userId, "userId", "default");
    if (opts.now !== undefined && typeof opts.now !== "function")
      throw invalid("now must be a function returning an ISO timestamp");
    this.#now = opts.now ?? (() => new Date().toISOString());
    this.#configure = () => {
      this.#runtime.call("validateSessionId", this.#sessionId);
      // The core fills in the defaults and refuses unknown keys, so a typo fails here, not later.
      this.#config = JSON.parse(this.#runtime.call("resolveConfig", configJson));
      // A store's answers are checked (a non-string would trap the core), and time out if asked to.
      const timed =
        this.#config.storeTimeoutMs == null
          ? store
          : withStoreTimeout(store, this.#config.storeTimeoutMs);
      this.#store = withCheckedAnswers(timed);
      this.#catalog = new SessionCatalog(runtime, this.#store, this.#sessionId);
    };
    // The browser entry loads the wasm in the background: a ToolStub made before it is ready
    // checks its session id and config with the core on its first call.
    if (runtime.isReady()) this.#configured();
  }

  /** Runs the core's part of the constructor if it has not run (it throws as the constructor would). */
  #configured() {
    if (this.#configure === undefined) return;
    const configure = this.#configure;
    try {
      configure();
      this.#configure = undefined;
    } catch (error) {
      // Not ready yet: a later call tries again (after the host's init). A bad config stays bad.
      if (error?.code !== "NOT_READY")
        this.#configure = () => {
          throw error;
        };
      throw error;
    }
  }

  /**
   * The async methods wait for the wasm, then configure: only while either is pending, so a call
   * on a ready ToolStub still reads its arguments when it starts (nothing else runs in between).
   */
  static {
    for (const name of [
      "externalize",
      "read",
      "verify",
      "rebuildCatalog",
      "search",
      "searchAll",
      "restore",
      "list",
      "delete",
      "deleteSession",
      "usage",
      "prune",
    ]) {
      const method = this.prototype[name];
      const waiting = {
        [name](...args) {
          if (this.#runtime.isReady() && this.#configure === undefined)
            return method.apply(this, args);
          return this.#runtime.whenReady().then(() => {
            this.#configured();
            return method.apply(this, args);
          });
        },
      }[name];
      Object.defineProperty(this.prototype, name, {
        value: waiting,
        writable: true,
        configurable: true,
      });
    }
  }

  get sessionId() {
    return this.#sessionId;
  }

  get sessionUri() {
    return this.#sessionUri;
  }

  /**
   * Externalizes one turn's tool parts: returns new part objects (the inputs are not touched).
   * Outputs that go out are stored first, then replaced by their stub.
   */
  async externalize(parts, options) {
    const opts = requireOptions(options, "options");
    checkKnownKeys(opts, ["messageId", "peerId"], "externalize");
    const messageId = requireString(opts.messageId, "messageId");
    // The records' `peer_id`; a part's own `messageId` (parts from several messages) names its record's.
    const peerId = optionalString(opts.peerId, "peerId", null);
    // The outputs go beside the turn's JSON, never through it (see planTurn in src/wasm.rs). They
    // go as they are: crossing into wasm (TextEncoder) turns a lone surrogate into U+FFFD, so an
    // output holding one gets its digest from the host (planExactly in planned-turn.js); the store keeps it exactly.
    // Each part is read once, here: getters and Proxies of the caller's parts are not touched again.
    const { outputs, coreParts } = readingCaller("parts", () => {
      if (!Array.isArray(parts)) throw invalid("parts must be an array of tool parts");
      const outputs = new Array(parts.length);
      const coreParts = new Array(parts.length);
      for (let i = 0; i < parts.length; i++) {
        const part = parts[i];
        if (part === null || typeof part !== "object" || Array.isArray(part)) {
          throw invalid(
            `parts[${i}] must be a tool part object (got ${i in parts ? (part === null ? "null" : typeof part) : "a hole in a sparse array"})`,
          );
        }
        coreParts[i] = { ...part, output: undefined };
        outputs[i] = optionalString(part.output, `parts[${i}].output`);
      }
      return { outputs, coreParts };
    });
    const createdAt = readingCaller("options.now()", () =>
      requireString(this.#now(), "the timestamp options.now() returned"),
    );
    const input = {
      sessionId: this.#sessionId,
      sessionUri: this.#sessionUri,
      messageId,
      config: this.#config,
      parts: coreParts,
      peerId,
      createdAt,
      userId: this.#userId,
    };
    // The plan stays in the core (see planned-turn.js); what comes out is what storing needs: each
    // write's keys, then its index and record files, two strings per write.
    // Enhanced synopses come from a module of their own, loaded on first use (enhanced-module.js).
    await this.#runtime.enhanced.loadForMode(this.#config.synopsisMode);
    const plan = await planTurn(this.#runtime, callerJson(input, ""), outputs);
    const { writes, files } = plan;
    const retain = this.#hasRetention();
    // Writes, the catalog's record of them and retention happen under the session's lock, so a
    // prune (of this or another process) never deletes a result a call in flight writes or reuses.
    const outcomes = [];
    let finished;
    let finishError;
    let retention;
    const finish = () => {
      const failedOutputs = writes.map((write, i) =>
        outcomes[i].status === "failed" ? outputs[write.partIndex] : "",
      );
      try {
        finished = plan.finish(outcomes, failedOutputs);
      } catch (error) {
        finishError = error;
      }
    };
    try {
      if (writes.length > 0 || retain) {
        try {
          await this.#catalog.locked(async () => {
            // The catalog is brought up to date before this call's writes, so they are its only news.
            await this.#catalog.use(() => {}, { underLock: true }).catch(() => {});
            // A store that writes a result in one call (saveMany: Redis) gets up to
            // WRITES_IN_FLIGHT results at once, so a turn is not one round trip per result; others
            // store one result after another, as the crash and fault tests of each expect.
            const stored = new Array(writes.length);
            let nextWrite = 0;
            const storeNext = async () => {
              while (nextWrite < writes.length) {
                const i = nextWrite++;
                const write = writes[i];
                stored[i] = await this.#store_output(
                  write,
                  files[2 * i],
                  files[2 * i + 1],
                  outputs[write.partIndex],
                );
              }
            };
            const inFlight = typeof this.#store.saveMany === "function" ? WRITES_IN_FLIGHT : 1;
            await Promise.all(Array.from({ length: Math.min(inFlight, writes.length) }, storeNext));
            const entries = [];
            for (const [i, write] of writes.entries()) {
              const outcome = stored[i];
              outcomes.push(outcome);
              if (outcome.status === "stored") {
                const entry = await this.#entryOfStoredWrite(
                  write,
                  outcome,
                  files[2 * i],
                  files[2 * i + 1],
                  outputs[write.partIndex],
                );
                if (entry) entries.push(entry);
              }
            }
            // The results are stored: a failure to record them is repaired by the next check of the
            // catalog against the records, never by losing the turn.
            await this.#catalog.commit(entries, []).catch(() => this.#catalog.invalidate());
            finish();
            if (retain && finished)
              retention = await this.#retain(this.#referencedIds(finished, coreParts));
          });
        } catch (error) {
          // The lock could not be had (nothing was stored) or failed to release (all was).
          const failure = { status: "failed", error: describeStoreError(error) };
          while (outcomes.length < writes.length) outcomes.push(failure);
          if (retain && retention === undefined)
            retention = { deleted: [], skipped: [], error: errorReport(error) };
        }
      }
      if (finished === undefined && finishError === undefined) finish();
      if (finishError !== undefined) throw this.#runtime.toToolStubError(finishError);
    } finally {
      plan.release();
    }
    // An output the core left as it was comes back as "": the caller's own is kept. Object.assign,
    // not two spreads: spreading the core's part over the caller's took ~10 µs a part in V8 (a
    // sixtieth of a 1,000-part turn); a caller's own "__proto__" key still gets the spread.
    const result = finished.map((part, i) => {
      const output = part.output || outputs[i];
      return Object.hasOwn(coreParts[i], "__proto__")
        ? { ...coreParts[i], ...part, output }
        : Object.assign({}, coreParts[i], part, { output });
    });
    // What retention did (or why it could not), beside the parts: never thrown after storing.
    if (retention !== undefined)
      Object.defineProperty(result, "retention", { value: retention, enumerable: false });
    return result;
  }

  /** The catalog entry of a stored write: from the files written, or the record it reused. */
  async #entryOfStoredWrite(write, outcome, indexJson, metadataJson, output) {
    const id = write.metadataKey[2];
    try {
      if (outcome.metadataJson === "")
        return this.#catalog.entryOfWritten(id, metadataJson, indexJson, output);
      const known = await this.#catalog.use((catalog) => catalog.has(id), { underLock: true });
      return known ? undefined : await this.#catalog.entryOfStored(id);
    } catch {
      return undefined;
    }
  }

  /** The ids of this session's results a turn's parts refer to (refs of other sessions are not ours). */
  #referencedIds(finished, parts) {
    const ids = new Set();
    for (const [i, part] of finished.entries()) {
      for (const ref of [
        part.outputRef,
        part.sourceRef,
        parts[i]?.outputRef,
        parts[i]?.sourceRef,
      ]) {
        if (typeof ref !== "string" || ref === "") continue;
        try {
          ids.add(this.#resolveId(ref));
        } catch {
          // Another session's ref, or not a ref: nothing of this session to keep.
        }
      }
    }
    return [...ids];
  }

  /**
   * Stores one planned output and its files unless an identical one is stored; never throws. The
   * outcome names the record found, or "" for the planned one.
   */
  async #store_output(write, indexJson, metadataJson, output) {
    try {
      const existing = await this.#store.load(write.metadataKey);
      if (existing !== undefined && this.#runtime.call("storedMatches", existing, write.sha256)) {
        // Reused only when the stored output is this very text: a record whose output is
        // missing, cut short or changed behind the store's back would make the new stub's ref
        // unreadable or wrong. Then everything is written again.
        if ((await this.#store.load(write.outputKey)) === output) {
          const index = parseOutputIndex(await this.#store.load(write.indexKey));
          if (this.#store.expires === true) {
            // Values that expire (a TTL): the reused result is saved again, so it lives as long as
            // a result stored now; its new stub's ref must not vanish with the first one's TTL.
            await saveInOrder(this.#store, [
              { key: write.outputKey, value: output },
              { key: write.indexKey, value: indexJson },
              { key: write.metadataKey, value: existing },
            ]);
          } else if (index?.utf16 !== output.length) {
            await this.#store.save(write.indexKey, indexJson);
          }
          return { status: "stored", metadataJson: existing };
        }
      }
      // Output first: a record is only ever written for an output that is fully stored. The index
      // before the record, so a recorded result never has a stale one (see output-index.js). A
      // store with `saveMany` writes the three at once (a transaction: all or none).
      await saveInOrder(this.#store, [
        { key: write.outputKey, value: output },
        { key: write.indexKey, value: indexJson },
        { key: write.metadataKey, value: metadataJson },
      ]);
      return { status: "stored", metadataJson: "" };
    } catch (error) {
      const name = error?.cause?.name ?? error?.name ?? "Error";
      return { status: "failed", error: `${name}: ${error?.message ?? String(error)}` };
    }
  }

  /** The id of a ref of this session, or an id as given. */
  #resolveId(refOrId) {
    const value = requireString(refOrId, "ref");
    const prefix = `${this.#sessionUri}/tool-results/`;
    if (!value.startsWith(prefix) && value.includes("://")) {
      throw invalid(
        `ref ${JSON.stringify(value.slice(0, 200))} is not a result of this session (${prefix}...)`,
      );
    }
    const id = value.startsWith(prefix) ? value.slice(prefix.length) : value;
    this.#runtime.call("validateId", id);
    return id;
  }

  #key(id, file) {
    return [this.#sessionId, RESULTS_DIR, id, file];
  }

  /**
   * A stored output, whole. A result exists once its record is written: the output is always
   * written first. Its length is checked against its index (or, for a result stored without one,
   * its record): an output cut short or grown behind the store's back is CORRUPT, never read as
   * if it were whole. (`verify` checks the SHA-256 too.)
   */
  async #loadOutput(id, { pieces = false } = {}) {
    const record = await this.#store.load(this.#key(id, METADATA_FILE));
    if (record === undefined) {
      throw new ToolStubError("NOT_FOUND", `no tool result ${id} in session ${this.#sessionId}`);
    }
    const content = await this.#loadOutputText(id, pieces);
    if (content === undefined) {
      throw new ToolStubError("CORRUPT", `tool result ${id} has a record but no stored output`);
    }
    const index = parseOutputIndex(await this.#store.load(this.#key(id, INDEX_FILE)));
    if (index !== undefined) {
      if (content.length !== index.utf16)
        throw changedOutput(id, content.length, index.utf16, "UTF-16 units", "index");
    } else {
      const parsed = this.#runtime.call("parseStoredRecord", record);
      const chars = parsed === undefined ? undefined : JSON.parse(parsed).original_chars;
      const stored = Number.isSafeInteger(chars) ? countCodePoints(wholeText(content)) : chars;
      if (stored !== chars) throw changedOutput(id, stored, chars, "chars", "record");
    }
    return content;
  }

  /**
   * The stored output: a string, or with `pieces` and a store that has `loadPieces`, the store's
   * pieces not joined (a TextPieces, for the search worker); undefined if there is none.
   */
  async #loadOutputText(id, pieces) {
    const key = this.#key(id, OUTPUT_FILE);
    if (!pieces || typeof this.#store.loadPieces !== "function") return this.#store.load(key);
    const stored = await this.#store.loadPieces(key);
    if (stored === undefined) return undefined;
    return stored.length === 1 ? stored[0] : new TextPieces(stored);
  }

  async #loadMetadata(id) {
    const text = await this.#store.load(this.#key(id, METADATA_FILE));
    if (text === undefined) return null;
    const record = this.#runtime.call("parseStoredRecord", text);
    if (record === undefined) {
      throw new ToolStubError("CORRUPT", `the metadata of tool result ${id} is unreadable`);
    }
    return JSON.parse(record);
  }

  /**
   * A window of a stored output: by code-point offset and limit (`-1`: to the end; the
   * reference's read), or by lines (`line`, `lines`, `column`, `numbered`), or a JSON subtree
   * (`jsonPointer`), or CSV/TSV rows (`rows: { start, count }`); the last three within `maxChars`.
   */
  async read(refOrId, options) {
    const opts = requireOptions(options, "options");
    const mode = readMode(opts);
    if (mode !== "offset") return this.#readStructured(refOrId, opts, mode);
    checkKnownKeys(opts, READ_OPTIONS, "read");
    const id = this.#resolveId(refOrId);
    const offset = optionalInteger(opts.offset, "offset", 0);
    const limit = optionalInteger(opts.limit, "limit", DEFAULT_READ_LIMIT);
    this.#runtime.call("checkReadArgs", offset, limit);
    const window =
      (await this.#indexedWindow(id, offset, limit)) ??
      this.#window(await this.#loadOutput(id), offset, limit);
    const result = {
      toolResultId: id,
      content: window.content,
      offset,
      limit,
      offsetUnit: window.offset_unit,
      totalChars: window.total_chars,
      hasMore: window.has_more,
    };
    if (opts.includeMetadata !== false) result.metadata = await this.#loadMetadata(id);
    return result;
  }

  /** The core's read window of `content`, cut exactly when it holds lone surrogates. */
  #window(content, offset, limit) {
    const window = JSON.parse(this.#runtime.call("readWindow", content, offset, limit));
    if (!isWellFormed(content)) window.content = exactWindow(content, offset, limit);
    return window;
  }

  /**
   * The read window from only the span of the output around it, when the result has an index and
   * the store a ranged read (`loadSlice`); undefined otherwise (then the whole output is loaded).
   */
  async #indexedWindow(id, offset, limit) {
    const unit = this.#store.sliceUnit;
    if (typeof this.#store.loadSlice !== "function" || (unit !== "utf16" && unit !== "utf8"))
      return undefined;
    if ((await this.#store.load(this.#key(id, METADATA_FILE))) === undefined) {
      throw new ToolStubError("NOT_FOUND", `no tool result ${id} in session ${this.#sessionId}`);
    }
    const index = parseOutputIndex(await this.#store.load(this.#key(id, INDEX_FILE)));
    if (index === undefined) return undefined;
    const to = limit === -1 ? index.chars : offset + limit;
    const span = spanOf(index, offset, to, unit);
    // The index is trusted for the span, so the span is checked: its text must be as long as the
    // index says (in UTF-16 units, which the index gives for the same checkpoints: no counting),
    // and a span reaching the output's end asks for one unit more, which must not be there. A
    // file cut short or grown behind the store's back is CORRUPT, not an empty window.
    const total = unit === "utf8" ? index.bytes : index.utf16;
    const asked = span.end >= total ? span.end + 1 : span.end;
    const slice = await this.#store.loadSlice(this.#key(id, OUTPUT_FILE), span.start, asked);
    if (slice === undefined) {
      throw new ToolStubError("CORRUPT", `tool result ${id} has a record but no stored output`);
    }
    const inUtf16 = spanOf(index, offset, to, "utf16");
    if (slice.length !== inUtf16.end - inUtf16.start) {
      throw changedOutput(
        id,
        inUtf16.start + slice.length,
        inUtf16.end,
        "UTF-16 units",
        "index",
        inUtf16.start,
      );
    }
    const window = this.#window(slice, Math.max(0, offset - span.firstChar), limit);
    window.total_chars = index.chars;
    window.has_more = limit !== -1 && offset + limit < index.chars;
    return window;
  }

  /**
   * Checks a stored output against its record: the SHA-256 and the length must match, else
   * `CORRUPT`. Returns `{ toolResultId, sha256, totalChars }`.
   */
  async verify(refOrId) {
    const id = this.#resolveId(refOrId);
    const content = await this.#loadOutput(id);
    const record = await this.#loadMetadata(id);
    const sha256 = this.#runtime.run((text) => this.#runtime.storedSha256(text), content);
    const totalChars = countCodePoints(content);
    if (sha256 !== record.sha256 || totalChars !== record.original_chars) {
      throw new ToolStubError(
        "CORRUPT",
        `stored output of ${id} does not match its record (sha256 ${sha256.slice(0, 16)} vs ${String(record.sha256).slice(0, 16)}, ${totalChars} vs ${record.original_chars} chars)`,
      );
    }
    // A verified result the catalog lacks (stored by another tool, or before a crash) is added.
    try {
      const known = await this.#catalog.use((catalog) => catalog.has(id));
      if (!known) await this.#catalog.locked(() => this.#catalog.recheck({ underLock: true }));
    } catch {
      // The catalog is a cache: verifying the output is what this call promises.
    }
    return { toolResultId: id, sha256, totalChars };
  }

  /**
   * Rebuilds the session's catalog from the stored records (results stored by another tool or an
   * older version are added, entries without a record dropped). Answers `{ results, added, removed }`.
   */
  async rebuildCatalog() {
    return this.#catalog.locked(() => this.#catalog.rebuild());
  }

  async #readStructured(refOrId, opts, mode) {
    checkKnownKeys(opts, [...READ_MODES[mode], "maxChars", "includeMetadata"], `${mode} read`);
    const id = this.#resolveId(refOrId);
    const request = callerJson(definedOptions(opts, [...READ_MODES[mode], "maxChars"]), "options");
    this.#runtime.call("checkReadOptions", mode, request);
    const content = await this.#loadOutput(id);
    const result = {
      toolResultId: id,
      mode,
      ...JSON.parse(this.#runtime.call(CORE_READS[mode], content, request)),
    };
    if (opts.includeMetadata !== false) result.metadata = await this.#loadMetadata(id);
    return result;
  }

  /**
   * Search in a stored output: literal and case-sensitive by default (the reference's matches),
   * or `regex`, `ignoreCase`, `wholeWord`; context by `contextChars` or `contextLines`. Each
   * match says its offset, line and column; `totalMatches` counts all, also beyond `limit`.
   */
  async search(refOrId, options) {
    const opts = requireOptions(options, "options");
    checkKnownKeys(opts, [...SEARCH_OPTIONS, ...GREP_OPTIONS], "search");
    const id = this.#resolveId(refOrId);
    requireString(opts.query, "query");
    const request = callerJson(
      definedOptions(opts, [...SEARCH_OPTIONS, ...GREP_OPTIONS]),
      "options",
    );
    this.#runtime.call("checkGrep", request);
    // The pattern is checked (and the grep module loaded) before any I/O. In browsers the grep
    // module, and the core's calls on a large text, run in a worker (see grep-module.js).
    const engine = needsGrepModule(opts) ? await this.#runtime.grep.engine() : undefined;
    if (engine) await engine.check(request);
    // A search in the worker takes the output as the store keeps it (its pieces, sent one by one),
    // so a large output is never joined on the page's main thread.
    const content = await this.#loadOutput(id, { pieces: engine?.thread === "worker" });
    const found = engine
      ? JSON.parse(await engine.search(content, request))
      : ((await this.#literalSearch(id, content, opts)) ??
        JSON.parse(await this.#runtime.grep.coreOnText("grepContent", content, request)));
    const matches = await this.#withHitCoordinates(id, content, found.matches);
    return { toolResultId: id, matches, totalMatches: found.totalMatches, ...noteOf(found) };
  }

  /**
   * The hits with what their result's kind adds for the next read: `row` (CSV/TSV, as
   * `rows.start`) or `jsonPointer` (JSON), decided by the core.
   */
  async #withHitCoordinates(id, content, matches) {
    if (matches.length === 0) return matches;
    const kind = (await this.#loadMetadata(id))?.synopsis_kind;
    if (!KINDS_WITH_HIT_COORDINATES.includes(kind)) return matches;
    const hits = new Uint32Array(matches.flatMap((m) => [m.offset, m.length]));
    const extra = JSON.parse(
      await this.#runtime.grep.coreOnText("hitCoordinates", content, kind, hits),
    );
    return matches.map((match, i) => Object.assign(match, extra[i]));
  }

  /**
   * The reference's literal search run in JS (see literal-search.js) when the options ask for
   * nothing more and the result's index says the output is well-formed; undefined otherwise.
   */
  async #literalSearch(id, content, opts) {
    if (
      opts.regex ||
      opts.ignoreCase ||
      opts.wholeWord ||
      opts.contextLines != null ||
      !isWellFormed(opts.query)
    ) {
      return undefined;
    }
    const index = parseOutputIndex(await this.#store.load(this.#key(id, INDEX_FILE)));
    if (index === undefined || !index.wellFormed || index.utf16 !== content.length)
      return undefined;
    return literalSearch(content, opts, index);
  }

  /**
   * Searches every stored result of the session. Results are ranked by their number of matches,
   * then newest first; each carries its ref, its first `perResult` matches and `totalMatches`.
   */
  async searchAll(options) {
    const opts = requireOptions(options, "options");
    checkKnownKeys(opts, SEARCH_ALL_OPTIONS, "searchAll");
    requireString(opts.query, "query");
    if (opts.toolName !== undefined) requireString(opts.toolName, "toolName");
    const request = callerJson(definedOptions(opts, SEARCH_ALL_OPTIONS), "options");
    // Checked before any I/O (a bad regex fails here); the candidates come from the catalog.
    const plan = JSON.parse(this.#runtime.call("searchAllPlan", request));
    const grep = JSON.stringify(plan.grep);
    const engine = needsGrepModule(plan.grep) ? await this.#runtime.grep.engine() : undefined;
    if (engine) await engine.check(grep);
    // `toolName` is applied here, from the catalog, before any output is loaded.
    let candidates = await this.#catalog.use((catalog) => catalog.candidates(opts.toolName));
    const stopAfter = plan.stopAfter;
    if (stopAfter !== undefined) {
      // order "newest": searched in its ranking order (the core's), so it can stop at `limit` hits.
      const known = candidates.map(({ toolResultId, createdAt }) => ({
        toolResultId,
        createdAt: typeof createdAt === "string" ? createdAt : "",
      }));
      const order = this.#runtime.call("searchAllScanOrder", JSON.stringify(known));
      candidates = Array.from(order, (i) => candidates[i]);
    }
    const hits = [];
    const skipped = [];
    let searched = 0;
    // One output in memory at a time; what cannot be read is reported, not fatal to the session.
    for (const candidate of candidates) {
      if (stopAfter !== undefined && hits.length >= stopAfter) break;
      searched++;
      const id = candidate.toolResultId;
      let content;
      try {
        content = await this.#store.load(this.#key(id, "output.txt"));
      } catch (error) {
        skipped.push(skipReport(id, error));
        continue;
      }
      if (content === undefined) {
        skipped.push({
          toolResultId: id,
          code: "CORRUPT",
          message: `tool result ${id} has no stored output`,
        });
        continue;
      }
      const found = JSON.parse(
        engine
          ? await engine.search(content, grep)
          : await this.#runtime.grep.coreOnText("grepContent", content, grep),
      );
      const matches = await this.#withHitCoordinates(id, content, found.matches);
      content = undefined;
      if (found.totalMatches > 0) {
        const { ref, toolName, createdAt } = candidate;
        hits.push({
          toolResultId: id,
          ref,
          toolName,
          createdAt,
          totalMatches: found.totalMatches,
          matches,
        });
      }
    }
    const ranked = JSON.parse(
      this.#runtime.call(
        "rankSearchAll",
        JSON.stringify(hits),
        plan.limit,
        opts.order,
        candidates.length - searched,
      ),
    );
    if (skipped.length > 0) ranked.skipped = skipped;
    return ranked;
  }

  /**
   * The inverse of `externalize`: new parts with each externalized output put back from the
   * store (a read-back part gets the window it read), SHA-256 verified (`CORRUPT` on mismatch).
   */
  async restore(parts) {
    // Each part is read once, here (see externalize).
    const { coreParts, restored } = readingCaller("parts", () => {
      if (!Array.isArray(parts)) throw invalid("parts must be an array of tool parts");
      const coreParts = new Array(parts.length);
      const restored = new Array(parts.length);
      for (let i = 0; i < parts.length; i++) {
        const part = parts[i];
        if (part === null || typeof part !== "object" || Array.isArray(part)) {
          throw invalid(
            `parts[${i}] must be a tool part object (got ${i in parts ? (part === null ? "null" : typeof part) : "a hole in a sparse array"})`,
          );
        }
        restored[i] = { ...part };
        // Through JSON, not a string argument: a lone surrogate would reach the core as a \uD800 escape.
        coreParts[i] = {
          ...restored[i],
          output: wellFormed(optionalString(restored[i].output, `parts[${i}].output`)),
        };
      }
      return { coreParts, restored };
    });
    for (const need of JSON.parse(
      this.#runtime.call("restorePlan", callerJson(coreParts, "parts")),
    )) {
      const id = this.#resolveId(need.ref);
      const content = await this.#loadOutput(id);
      const metadata = await this.#store.load(this.#key(id, METADATA_FILE));
      // The core sees a lone surrogate as U+FFFD: for such an output it checks the digest of
      // what is stored, computed here.
      const exact = !isWellFormed(content);
      const { part, window } = JSON.parse(
        this.#runtime.call(
          "restorePart",
          JSON.stringify(coreParts[need.partIndex]),
          content,
          metadata,
          exact ? this.#runtime.storedSha256(content) : "",
        ),
      );
      const output = !exact
        ? part.output
        : window
          ? exactWindow(content, window[0], window[1])
          : content;
      restored[need.partIndex] = { ...restored[need.partIndex], output, truncated: false };
    }
    return restored;
  }

  /** The session's stored records (as written, snake_case), in id order. */
  async list(options) {
    const opts = requireOptions(options, "options");
    checkKnownKeys(opts, LIST_OPTIONS, "list");
    const toolName =
      opts.toolName === undefined ? undefined : requireString(opts.toolName, "toolName");
    const limit = optionalInteger(opts.limit, "limit", DEFAULT_LIST_LIMIT);
    this.#runtime.call("checkListLimit", limit);
    const { records, skipped } = await this.#listRecords({ toolName }, limit);
    return skipped.length > 0 ? { toolResults: records, skipped } : { toolResults: records };
  }

  /**
   * Up to `limit` stored records of the catalog's entries in `select`'s order (`toolName`,
   * `order`, `offset`), loading only those records. A record that does not read is skipped and
   * reported; an entry whose record is gone is dropped from the catalog.
   */
  async #listRecords(select, limit) {
    const records = [];
    const skipped = [];
    const gone = [];
    let offset = select.offset ?? 0;
    let page;
    await this.#catalog.use(async (catalog) => {
      do {
        const want = Math.min(limit - records.length + skipped.length + gone.length, 1000);
        page = catalog.select({ ...select, offset, limit: Math.max(want, 1) });
        // The page's records are read up to RECORDS_IN_FLIGHT at a time (a store over the network
        // answers them in one round trip), then taken in the page's order.
        const loaded = await loadEach(
          this.#store,
          page.entries.map((entry) => this.#key(entry.toolResultId, "metadata.json")),
        );
        for (const [i, entry] of page.entries.entries()) {
          const id = entry.toolResultId;
          const { text, error } = loaded[i];
          if (error !== undefined) {
            skipped.push(skipReport(id, error));
            continue;
          }
          if (text === undefined) {
            gone.push(id);
            continue;
          }
          const record = listedRecord(text);
          if (record === undefined) {
            skipped.push({
              toolResultId: id,
              code: "CORRUPT",
              message: `the record of tool result ${id} is not a JSON object`,
            });
            continue;
          }
          records.push(record);
          if (records.length === limit) break;
        }
        offset += page.entries.length;
      } while (records.length < limit && page.hasMore);
    });
    this.#catalog.dropInMemory(gone);
    return {
      records,
      skipped,
      totalResults: page.totalResults - gone.length,
      hasMore: page.hasMore,
    };
  }

  // --- Agent integration and lifecycle -------------------------------------------------------

  /** The retrieval tools as JSON Schema, in the shape an SDK takes: "openai", "openai-responses", "anthropic" or "json-schema". */
  toolDefinitions(options) {
    const opts = requireOptions(options, "options");
    checkKnownKeys(opts, ["format"], "toolDefinitions");
    const format = optionalString(opts.format, "format", "openai");
    this.#configured();
    return JSON.parse(
      this.#runtime.call("toolDefinitions", JSON.stringify(this.#config.toolNames), format),
    );
  }

  /**
   * Runs a model's call of a retrieval tool. Never throws: a bad call or a failed lookup comes back
   * as `{ error: { code, message, allowed? } }` for the model to read. Results are bounded by
   * `config.maxResultChars`.
   */
  async handleToolCall(name, args) {
    let parsedArgs = args;
    if (typeof args === "string") {
      try {
        parsedArgs = JSON.parse(args);
      } catch (error) {
        return {
          error: {
            code: "INVALID_ARGUMENT",
            message: `arguments are not valid JSON: ${error.message}`,
          },
        };
      }
    }
    try {
      if (!this.#runtime.isReady() || this.#configure !== undefined) {
        // As the other methods do (see the static block), but a failure becomes this call's answer.
        await this.#runtime.whenReady();
        this.#configured();
      }
      if (typeof name !== "string")
        throw invalid(
          `the tool name must be a string (got ${name === null ? "null" : typeof name})`,
        );
      const checked = JSON.parse(
        this.#runtime.call(
          "validateToolCall",
          JSON.stringify(this.#config.toolNames),
          name,
          callerJson(parsedArgs ?? null, "arguments"),
          this.#config.maxResultChars,
        ),
      );
      if (checked.error) return { error: checked.error };
      return await this.#runToolCall(checked.call);
    } catch (error) {
      const known = this.#runtime.toToolStubError(error);
      return { error: { code: known.code, message: known.message } };
    }
  }

  async #runToolCall(call) {
    const max = this.#config.maxResultChars;
    const bounded = (items, what) => {
      const kept = JSON.parse(this.#runtime.call("boundItems", JSON.stringify(items), max));
      return { items: kept.items, note: leftOutNote(kept.leftOut, what) };
    };
    const { tool, reference, ...args } = call;
    switch (tool) {
      case "read":
        return modelFacing(
          await this.read(reference, {
            offset: args.offset,
            limit: args.limit,
            includeMetadata: false,
          }),
        );
      case "readLines":
        return modelFacing(
          await this.read(reference, {
            line: args.line,
            lines: args.lines ?? undefined,
            column: args.column ?? undefined,
            maxChars: args.maxChars,
            includeMetadata: false,
          }),
        );
      case "readJsonPointer":
        return modelFacing(
          await this.read(reference, {
            jsonPointer: args.jsonPointer,
            maxChars: args.maxChars,
            includeMetadata: false,
          }),
        );
      case "readRows":
        return modelFacing(
          await this.read(reference, {
            rows: { start: args.start, count: args.count ?? undefined },
            maxChars: args.maxChars,
            includeMetadata: false,
          }),
        );
      case "search": {
        const { contextLines, ...rest } = args;
        const r = await this.search(
          reference,
          contextLines == null ? rest : { ...rest, contextChars: undefined, contextLines },
        );
        const { items, note } = bounded(r.matches, "matches");
        const notes = [r.note, note.note].filter(Boolean);
        return modelFacing({
          ...r,
          matches: items,
          ...note,
          ...(notes.length ? { note: notes.join(" ") } : {}),
        });
      }
      case "searchAll": {
        const r = await this.searchAll({ ...args, toolName: args.toolName ?? undefined });
        const { items, note } = bounded(r.results, "results");
        return modelFacing({ ...r, results: items, ...note });
      }
      default: {
        // One line per output unless the model asks for the whole records; paged and counted.
        const select = {
          toolName: args.toolName ?? undefined,
          order: args.order,
          offset: args.offset,
        };
        let listed;
        if (args.full) {
          const { records, totalResults, hasMore } = await this.#listRecords(select, args.limit);
          listed = { items: records, totalResults, hasMore };
        } else {
          const page = await this.#catalog.use((catalog) =>
            catalog.select({ ...select, limit: args.limit }),
          );
          const items = page.entries.map((e) => ({
            ref: e.ref,
            tool_name: e.toolName,
            kind: e.kind,
            chars: e.originalChars,
            created_at: e.createdAt,
            summary: e.summary,
          }));
          listed = { items, totalResults: page.totalResults, hasMore: page.hasMore };
        }
        const { items, note } = bounded(listed.items, "results");
        return {
          tool_results: items,
          total_results: listed.totalResults,
          offset: args.offset,
          has_more: listed.hasMore || items.length < listed.items.length,
          ...modelFacing(note),
        };
      }
    }
  }

  /** Deletes one stored result. `{ deleted: false }` when there was none. */
  async delete(refOrId) {
    const id = this.#resolveId(refOrId);
    this.#requireRemoveRange();
    return this.#catalog.locked(async () => {
      const prefix = [this.#sessionId, RESULTS_DIR, id];
      const existed =
        (await this.#store.load([...prefix, METADATA_FILE])) !== undefined ||
        (await this.#store.load([...prefix, OUTPUT_FILE])) !== undefined;
      // The entry goes first: a crash before the files go leaves a result without an entry,
      // which the next check of the catalog adds back, never an entry without its result.
      await this.#catalog.commit([], [id]).catch(() => this.#catalog.invalidate());
      await this.#removeResult(id);
      return { deleted: existed };
    });
  }

  /**
   * Removes one result's files in the inverse of the write order (record, index, output), then
   * anything else under it: a crash in between leaves an output without a record (not a result:
   * nothing lists or reads it), never a record naming a missing output.
   */
  async #removeResult(id) {
    const removeRange = this.#requireRemoveRange();
    if (typeof this.#store.remove === "function") {
      for (const file of [METADATA_FILE, INDEX_FILE, OUTPUT_FILE])
        await this.#store.remove(this.#key(id, file));
    }
    await removeRange.call(this.#store, [this.#sessionId, RESULTS_DIR, id]);
  }

  /**
   * Deletes every stored result of this session and its catalog: exactly what this package
   * wrote under the session (its `tool-results` and `tool-stub` entries), nothing else.
   */
  async deleteSession() {
    const removeRange = this.#requireRemoveRange();
    await this.#catalog.locked(async () => {
      await removeRange.call(this.#store, [this.#sessionId, "tool-results"]);
      await this.#catalog.remove();
    });
  }

  /**
   * What this session stores, from its catalog: `{ results, chars, bytes }` (UTF-8 bytes of the
   * outputs, their indexes and records). It counts what `list` lists: a directory without a
   * record (a write cut short) and temp files are not results.
   */
  async usage() {
    return this.#catalog.use((catalog) => catalog.usage());
  }

  /**
   * Applies the retention policy (`maxResults`, `maxBytes`, `maxAgeMs`): deletes the oldest results
   * first, never one in `protect` (refs or ids). Runs after every `externalize` too, under the
   * session's lock. Answers `{ deleted: [ids] }`, with `skipped` for results it could not delete.
   */
  async prune(options) {
    const opts = requireOptions(options, "options");
    checkKnownKeys(opts, ["protect"], "prune");
    const protect = (opts.protect ?? []).map((ref) => this.#resolveId(ref));
    if (!this.#hasRetention()) return { deleted: [] };
    this.#requireRemoveRange();
    const outcome = await this.#catalog.locked(() => this.#retain(protect));
    if (outcome.error) throw new ToolStubError(outcome.error.code, outcome.error.message);
    return outcome.skipped.length > 0
      ? { deleted: outcome.deleted, skipped: outcome.skipped }
      : { deleted: outcome.deleted };
  }

  /**
   * Retention under the lock: plans from the catalog, records the removals, then deletes each
   * result. Never throws: `{ deleted, skipped: [{ toolResultId, code, message }], error? }`.
   */
  async #retain(protect) {
    if (typeof this.#store.removeRange !== "function") {
      return {
        deleted: [],
        skipped: [],
        error: {
          code: "INVALID_ARGUMENT",
          message: "store must implement removeRange() to delete",
        },
      };
    }
    let doomed;
    try {
      doomed = await this.#catalog.use(
        (catalog) => catalog.planPrune(this.#config, Date.now(), protect),
        { underLock: true },
      );
      if (doomed.length === 0) return { deleted: [], skipped: [] };
      // A removal that cannot be recorded (a full disk) still frees the space; the catalog is
      // then checked against the records at its next use.
      await this.#catalog.commit([], doomed).catch(() => this.#catalog.invalidate());
    } catch (error) {
      return { deleted: [], skipped: [], error: errorReport(error) };
    }
    const deleted = [];
    const skipped = [];
    for (const id of doomed) {
      try {
        await this.#removeResult(id);
        deleted.push(id);
      } catch (error) {
        // Its entry is gone, its files are not: the next check of the catalog lists it again.
        skipped.push(skipReport(id, error));
      }
    }
    return { deleted, skipped };
  }

  #hasRetention() {
    const c = this.#config;
    return c.maxResults != null || c.maxBytes != null || c.maxAgeMs != null;
  }

  #requireRemoveRange() {
    if (typeof this.#store.removeRange !== "function")
      throw invalid("store must implement removeRange() to delete");
    return this.#store.removeRange;
  }
}

/** How many records `list` reads at once. */
const RECORDS_IN_FLIGHT = 16;

/** `[{ text } | { error }]`: each key loaded, up to RECORDS_IN_FLIGHT at once, in the keys' order. */
async function loadEach(store, keys) {
  const out = new Array(keys.length);
  let next = 0;
  const worker = async () => {
    while (next < keys.length) {
      const i = next++;
      try {
        out[i] = { text: await store.load(keys[i]) };
      } catch (error) {
        out[i] = { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(RECORDS_IN_FLIGHT, keys.length) }, worker));
  return out;
}

/**
 * Saves `entries` with the store's `saveMany` (all or none) when it has one, else one `save` at a
 * time in their order (a crash in between leaves the earlier ones: the record goes last).
 */
async function saveInOrder(store, entries) {
  if (typeof store.saveMany === "function") return store.saveMany(entries);
  for (const { key, value } of entries) await store.save(key, value);
}

/**
 * A stored record as `list` returns it: any JSON object, as the reference lists it (SPEC 6), else
 * undefined. Parsed here, not in the core: Python's `json`, like `JSON.parse`, keeps a record
 * holding an escaped lone surrogate, which serde_json refuses; and the page's filter and order
 * come from the catalog.
 */
function listedRecord(text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return value !== null && typeof value === "object" && !Array.isArray(value) ? value : undefined;
}

/** `{ toolResultId, code, message }` for a result a session-level call could not read or delete. */
function skipReport(toolResultId, error) {
  const known = asToolStubError(error);
  return { toolResultId, code: known.code, message: known.message };
}

function errorReport(error) {
  const known = asToolStubError(error);
  return { code: known.code, message: known.message };
}

/** A store failure as a part's `externalizationError` reads it. */
function describeStoreError(error) {
  const name = error?.cause?.name ?? error?.name ?? "Error";
  return `${name}: ${error?.message ?? String(error)}`;
}

/** CORRUPT: a stored output whose length is not the one its index or record gives. */
function changedOutput(id, found, expected, unit, by, from = 0) {
  const what = found < expected ? "cut short" : "longer than it was";
  return new ToolStubError(
    "CORRUPT",
    `the stored output of tool result ${id} was changed behind the store's back: ${what} (${found} ${unit} where its ${by} says ${expected}${from ? `, reading from ${from}` : ""})`,
  );
}

/** `{ note }` when a grep result carries one, else nothing. */
function noteOf(found) {
  return found.note === undefined ? {} : { note: found.note };
}

function leftOutNote(leftOut, what) {
  return leftOut > 0
    ? {
        leftOut,
        note: `${leftOut} more ${what} left out to keep this result small; narrow the call (lower limit or context)`,
      }
    : {};
}

/** A result as the model sees it: snake_case keys, like the reference's tool results. */
function modelFacing(value) {
  if (Array.isArray(value)) return value.map(modelFacing);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([key, v]) => [key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), modelFacing(v)]),
  );
}
