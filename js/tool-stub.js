// `ToolStub`, a session over a store: it checks its options, configures itself with the core
// (once the wasm is ready: the browser entry loads it in the background), and hands each call to
// the module of its concern with the session (session.js): turns.js, retrieval.js,
// session-results.js and tool-calls.js. Every decision is the core's; those modules move data
// between the caller, the core and the store.

import { MemoryStore } from "./stores/memory.js";
import { withStoreTimeout } from "./stores/timeout.js";
import { withCheckedAnswers } from "./stores/checked.js";
import {
  callerJson,
  readingCaller,
  invalid,
  requireString,
  optionalString,
  requireOptions,
  checkKnownKeys,
} from "./arguments.js";
import { Session } from "./session.js";
import { externalize, restore } from "./turns.js";
import { read, search, searchAll, verify } from "./retrieval.js";
import {
  deleteResult,
  deleteSession,
  list,
  prune,
  rebuildCatalog,
  usage,
} from "./session-results.js";
import { handleToolCall, toolDefinitions } from "./tool-calls.js";
import { ContextGovernor } from "./context/fit-context.js";
import { refArguments, resolveRefs } from "./refs.js";
import { caught } from "./stores/errors.js";

/** @typedef {import("./index.js").ReadOptions} ReadOptions */
/** @typedef {import("./index.js").LineReadOptions} LineReadOptions */
/** @typedef {import("./index.js").JsonPointerReadOptions} JsonPointerReadOptions */
/** @typedef {import("./index.js").RowsReadOptions} RowsReadOptions */
/** @typedef {import("./index.js").ReadResult} ReadResult */
/** @typedef {import("./index.js").LineReadResult} LineReadResult */
/** @typedef {import("./index.js").JsonPointerReadResult} JsonPointerReadResult */
/** @typedef {import("./index.js").RowsReadResult} RowsReadResult */

/** The pattern of the default session URI; `{sessionId}` is replaced. */
export const DEFAULT_SESSION_URI_PATTERN = "viking://user/default/sessions/{sessionId}";

/** The async methods that wait for the wasm and the configuration (see the static block). */
const WAITING_METHODS = [
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
  "fitContext",
  "resolveRefs",
];

/** A session over a store, on a runtime; entry modules export it as `ToolStub` (see api.js). */
export class ToolStubOnRuntime {
  /** @type {import("./runtime.js").Runtime} */
  #runtime;
  /** @type {string} */
  #sessionId;
  /** @type {string} */
  #sessionUri;
  /** @type {Session | undefined} The session, once configured. */
  #session;
  /**
   * The core's part of the constructor, while it waits for the wasm (see #configured).
   * @type {(() => void) | undefined}
   */
  #configure;
  /**
   * The context governor (context/fit-context.js), made on the first fitContext.
   * @type {ContextGovernor | undefined}
   */
  #governor;

  /**
   * @param {import("./runtime.js").Runtime} runtime
   * @param {object} options
   * @param {object} [options.store] a store adapter (default: a new MemoryStore)
   * @param {string} options.sessionId
   * @param {string} [options.sessionUri] default `viking://user/default/sessions/<sessionId>`
   * @param {object} [options.config] the reference config, camelCase
   * @param {string} [options.userId] written into records as `user_id` (default "default")
   * @param {() => string} [options.now] ISO timestamp for `created_at`
   * @param {Array<string | {sessionId: string, sessionUri?: string}>} [options.readableSessions]
   *   other sessions (ids, or grants from their ToolStub's `readGrant()`) whose results this one
   *   may read, search, restore and resolve (never change)
   * @param {(text: string, limit?: number) => number} [options.countTokens] counts tokens for
   *   `config.budgetUnit: "tokens"` (default: the config's `tokenizer`, from gpt-tokenizer); one
   *   declared with both parameters may stop past `limit` (see docs/context-governor.md)
   */
  constructor(runtime, options) {
    this.#runtime = runtime;
    const opts = requireOptions(options, "options");
    checkKnownKeys(
      opts,
      [
        "store",
        "sessionId",
        "sessionUri",
        "config",
        "userId",
        "now",
        "readableSessions",
        "countTokens",
      ],
      "ToolStub",
    );
    const sessionId = requireString(opts.sessionId, "sessionId");
    const sessionUri = optionalString(
      opts.sessionUri,
      "sessionUri",
      DEFAULT_SESSION_URI_PATTERN.replace("{sessionId}", sessionId),
    );
    this.#sessionId = sessionId;
    this.#sessionUri = sessionUri;
    const configJson = callerJson(requireOptions(opts.config, "config"), "config");
    const givenStore = opts.store ?? new MemoryStore();
    const store = readingCaller("store", () => {
      if (givenStore === null || typeof givenStore !== "object")
        throw invalid("store must be a store object");
      const methods = /** @type {Record<string, unknown>} */ (givenStore);
      for (const method of ["load", "save", "loadRange"]) {
        if (typeof methods[method] !== "function")
          throw invalid(`store must implement ${method}()`);
      }
      // The methods a store needs are there; what they answer is checked (withCheckedAnswers).
      return /** @type {import("./stores/store.js").Store} */ (givenStore);
    });
    const userId = optionalString(opts.userId, "userId", "default");
    if (opts.now !== undefined && typeof opts.now !== "function")
      throw invalid("now must be a function returning an ISO timestamp");
    // A caller's function, checked to be one: what it answers is checked where it is called.
    const now = /** @type {() => string} */ (opts.now ?? (() => new Date().toISOString()));
    if (opts.countTokens !== undefined && typeof opts.countTokens !== "function")
      throw invalid("countTokens must be a function (text) => number");
    const countTokens = /** @type {((text: string, limit?: number) => number) | undefined} */ (
      opts.countTokens
    );
    const grants = readingCaller("readableSessions", () => {
      if (opts.readableSessions === undefined) return [];
      if (!Array.isArray(opts.readableSessions))
        throw invalid("readableSessions must be an array of session ids or read grants");
      return opts.readableSessions.map((grant) =>
        grant !== null && typeof grant === "object" ? { ...grant } : grant,
      );
    });
    this.#configure = () => {
      runtime.call("validateSessionId", sessionId);
      // The core fills in the defaults and refuses unknown keys, so a typo fails here, not later.
      const config = JSON.parse(runtime.call("resolveConfig", configJson));
      // A store's answers are checked (a non-string would trap the core), and time out if asked to.
      const timed =
        config.storeTimeoutMs == null ? store : withStoreTimeout(store, config.storeTimeoutMs);
      this.#session = new Session({
        runtime,
        store: withCheckedAnswers(timed),
        sessionId,
        sessionUri,
        config,
        userId,
        now,
        grants,
        countTokens,
      });
    };
    // The browser entry loads the wasm in the background: a ToolStub made before it is ready
    // checks its session id and config with the core on its first call.
    if (runtime.isReady()) this.#configured();
  }

  /**
   * Runs the core's part of the constructor if it has not run (it throws as the constructor would).
   * @returns {Session}
   */
  #configured() {
    if (this.#configure === undefined) return this.#ready;
    const configure = this.#configure;
    try {
      configure();
      this.#configure = undefined;
    } catch (error) {
      // Not ready yet: a later call tries again (after the host's init). A bad config stays bad.
      if (caught(error)?.code !== "NOT_READY")
        this.#configure = () => {
          throw error;
        };
      throw error;
    }
    return this.#ready;
  }

  /**
   * The session: configured before any method that uses it runs (the waiting methods, see the
   * static block below, configure first).
   */
  get #ready() {
    return /** @type {Session} */ (this.#session);
  }

  /** Whether a call must wait for the wasm or the configuration before it runs. */
  #pending() {
    return !this.#runtime.isReady() || this.#configure !== undefined;
  }

  /**
   * The async methods wait for the wasm, then configure: only while either is pending, so a call
   * on a ready ToolStub still reads its arguments when it starts (nothing else runs in between).
   */
  static {
    // The methods are looked up, and replaced, by name.
    const prototype = /** @type {{ [name: string]: (...args: unknown[]) => unknown }} */ (
      /** @type {unknown} */ (ToolStubOnRuntime.prototype)
    );
    for (const name of WAITING_METHODS) {
      const method = prototype[name];
      const waiting = {
        /**
         * @this {ToolStubOnRuntime}
         * @param {unknown[]} args
         */
        [name](...args) {
          if (!this.#pending()) return method.apply(this, args);
          return this.#runtime.whenReady().then(() => {
            this.#configured();
            return method.apply(this, args);
          });
        },
      }[name];
      Object.defineProperty(prototype, name, {
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

  // --- Turns (turns.js) -------------------------------------------------------------------

  /**
   * Externalizes one turn's tool parts: returns new part objects (the inputs are not touched).
   * Outputs that go out are stored first, then replaced by their stub.
   * @param {unknown} parts
   * @param {unknown} options
   */
  externalize(parts, options) {
    return externalize(this.#ready, parts, options);
  }

  /**
   * The inverse of `externalize`: new parts with each externalized output put back from the
   * store (a read-back part gets the window it read), SHA-256 verified (`CORRUPT` on mismatch).
   * @param {unknown} parts
   */
  restore(parts) {
    return restore(this.#ready, parts);
  }

  /**
   * Fits a conversation to its context budget: older tool results become stubs and one-line
   * references to their stored outputs (context/, docs/context-governor.md). Never mutates
   * `messages`.
   * @template M
   * @param {M[]} messages
   * @param {import("./index.js").FitContextOptions} options
   * @returns {Promise<import("./index.js").FitContextResult<M>>}
   */
  fitContext(messages, options) {
    const session = this.#ready;
    this.#governor ??= new ContextGovernor(
      session,
      (/** @type {unknown} */ parts, /** @type {unknown} */ opts) =>
        externalize(session, parts, opts),
    );
    // The conversation's own messages where nothing changed, copies of them (the same shape) where
    // a result was cleared.
    return /** @type {Promise<import("./index.js").FitContextResult<M>>} */ (
      this.#governor.fit(messages, options)
    );
  }

  // --- Retrieval (retrieval.js) -----------------------------------------------------------

  /**
   * A window of a stored output: by code-point offset and limit (`-1`: to the end; the
   * reference's read), or by lines (`line`, `lines`, `column`, `numbered`), or a JSON subtree
   * (`jsonPointer`), or CSV/TSV rows (`rows: { start, count }`); the last three within `maxChars`.
   * @overload
   * @param {string} refOrId
   * @param {ReadOptions} [options]
   * @returns {Promise<ReadResult>}
   */
  /**
   * @overload
   * @param {string} refOrId
   * @param {LineReadOptions} options
   * @returns {Promise<LineReadResult>}
   */
  /**
   * @overload
   * @param {string} refOrId
   * @param {JsonPointerReadOptions} options
   * @returns {Promise<JsonPointerReadResult>}
   */
  /**
   * @overload
   * @param {string} refOrId
   * @param {RowsReadOptions} options
   * @returns {Promise<RowsReadResult>}
   */
  /**
   * @param {unknown} refOrId
   * @param {unknown} [options]
   * @returns {Promise<ReadResult | LineReadResult | JsonPointerReadResult | RowsReadResult>}
   */
  async read(refOrId, options) {
    return read(this.#owner(refOrId), refOrId, options);
  }

  /**
   * Checks a stored output against its record: the SHA-256 and the length must match, else
   * `CORRUPT`. Returns `{ toolResultId, sha256, totalChars }`.
   * @param {unknown} refOrId
   */
  async verify(refOrId) {
    return verify(this.#owner(refOrId), refOrId);
  }

  /**
   * Search in a stored output: literal and case-sensitive by default (the reference's matches),
   * or `regex`, `ignoreCase`, `wholeWord`; context by `contextChars` or `contextLines`. Each
   * match says its offset, line and column; `totalMatches` counts all, also beyond `limit`.
   * @param {unknown} refOrId
   * @param {unknown} options
   */
  async search(refOrId, options) {
    return search(this.#owner(refOrId), refOrId, options);
  }

  /**
   * Searches every stored result of the session. Results are ranked by their number of matches,
   * then newest first; each carries its ref, its first `perResult` matches and `totalMatches`.
   * @param {unknown} options
   */
  searchAll(options) {
    return searchAll(this.#ready, options);
  }

  // --- Refs as values (refs.js) ----------------------------------------------------------

  /**
   * The session `refOrId` is a result of: this one, or a granted one (FORBIDDEN for others).
   * @param {unknown} refOrId
   */
  #owner(refOrId) {
    return this.#ready.owner(refOrId);
  }

  /**
   * What another ToolStub of the store needs (in its `readableSessions`) to read this session's
   * results. Read access only; nothing of the session is copied.
   */
  readGrant() {
    return Object.freeze({ sessionId: this.#sessionId, sessionUri: this.#sessionUri });
  }

  /**
   * The arguments of a tool call with each ref of a readable session put in as the stored content
   * it names: a ref as a whole string argument, or `{ ref, offset?/limit? | pointer | rows | lines }`
   * for a part (docs/refs.md). The same object when it holds no ref. Refs of other sessions are
   * FORBIDDEN, unknown ones NOT_FOUND, changed outputs CORRUPT; more than `maxResolvedChars` in all
   * (default 1,000,000) is TOO_LARGE. Apply it only to tools that keep data on the machine.
   * @template T
   * @param {T} args
   * @param {unknown} [options]
   * @returns {Promise<T>}
   */
  resolveRefs(args, options) {
    return resolveRefs(this.#ready, args, options);
  }

  /**
   * What a tool that accepts refs tells the model: `{ note, schema }`, the sentence for its
   * description and, given its input's JSON Schema, that schema taking the ref form beside each
   * top-level property.
   * @overload
   * @returns {{ note: string }}
   */
  /**
   * @overload
   * @param {object} inputSchema
   * @returns {{ note: string, schema: object }}
   */
  /**
   * @param {unknown} [inputSchema]
   * @returns {{ note: string, schema?: object }}
   */
  refArguments(inputSchema) {
    this.#configured();
    return refArguments(this.#runtime, inputSchema);
  }

  /**
   * The one-line reference form of one of this session's stubs (what `fitContext` shrinks a stub
   * into, made by the core): its ref, tool name, kind and sizes, and the tools that get it back.
   * `undefined` when `stub` is no stub of this session with a ref.
   * @param {unknown} stub
   * @returns {string | undefined}
   */
  referenceForm(stub) {
    const session = this.#configured();
    const text = requireString(stub, "stub");
    const replaced = this.#runtime.call(
      "contextReplacement",
      "reference",
      text,
      0,
      0,
      session.config.stubHeader,
      JSON.stringify(session.config.toolNames),
    );
    return replaced === undefined ? undefined : JSON.parse(replaced).text;
  }

  // --- The session's results (session-results.js) ----------------------------------------

  /**
   * The session's stored records (as written, snake_case), in id order.
   * @param {unknown} [options]
   */
  list(options) {
    return list(this.#ready, options);
  }

  /**
   * Deletes one stored result. `{ deleted: false }` when there was none.
   * @param {unknown} refOrId
   */
  delete(refOrId) {
    return deleteResult(this.#ready, refOrId);
  }

  /**
   * Deletes every stored result of this session and its catalog: exactly what this package
   * wrote under the session (its `tool-results` and `tool-stub` entries), nothing else.
   */
  deleteSession() {
    return deleteSession(this.#ready);
  }

  /**
   * What this session stores, from its catalog: `{ results, chars, bytes }` (UTF-8 bytes of the
   * outputs, their indexes and records). It counts what `list` lists: a directory without a
   * record (a write cut short) and temp files are not results.
   */
  usage() {
    return usage(this.#ready);
  }

  /**
   * Applies the retention policy (`maxResults`, `maxBytes`, `maxAgeMs`): deletes the oldest results
   * first, never one in `protect` (refs or ids). Runs after every `externalize` too, under the
   * session's lock. Answers `{ deleted: [ids] }`, with `skipped` for results it could not delete.
   * @param {unknown} [options]
   */
  prune(options) {
    return prune(this.#ready, options);
  }

  /**
   * Rebuilds the session's catalog from the stored records (results stored by another tool or an
   * older version are added, entries without a record dropped). Answers `{ results, added, removed }`.
   */
  rebuildCatalog() {
    return rebuildCatalog(this.#ready);
  }

  // --- A model's tool calls (tool-calls.js) -----------------------------------------------

  /**
   * The retrieval tools as JSON Schema, in the shape an SDK takes: "openai", "openai-responses", "anthropic" or "json-schema".
   * @overload
   * @param {{ format: "openai-responses" }} options
   * @returns {import("./index.js").OpenAiResponsesToolDefinition[]}
   */
  /**
   * @overload
   * @param {{ format: "anthropic" }} options
   * @returns {import("./index.js").AnthropicToolDefinition[]}
   */
  /**
   * @overload
   * @param {{ format: "json-schema" }} options
   * @returns {import("./index.js").JsonSchemaToolDefinition[]}
   */
  /**
   * @overload
   * @param {{ format?: "openai" }} [options]
   * @returns {import("./index.js").OpenAiToolDefinition[]}
   */
  /**
   * @overload
   * @param {{ format?: import("./index.js").ToolDefinitionFormat }} [options]
   * @returns {import("./index.js").ToolDefinition[]}
   */
  /**
   * @param {unknown} [options]
   * @returns {import("./index.js").ToolDefinition[]}
   */
  toolDefinitions(options) {
    return toolDefinitions(() => this.#configured(), options);
  }

  /**
   * Runs a model's call of a retrieval tool. Never throws: a bad call or a failed lookup comes back
   * as `{ error: { code, message, allowed? } }` for the model to read. Results are bounded by
   * `config.maxResultChars`.
   * @param {unknown} name
   * @param {unknown} args
   */
  handleToolCall(name, args) {
    return handleToolCall(
      this,
      () =>
        this.#pending() ? this.#runtime.whenReady().then(() => this.#configured()) : this.#ready,
      name,
      args,
    );
  }
}
