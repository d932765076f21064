// The runtime: one object per environment (Node, browser), built by its entry module and passed
// to everything that calls the wasm core. It holds the core's glue, whether the core is ready (and
// why not), the host's SHA-256, the core's instance (restarted to give memory back, or after a
// trap), and the lazily loaded grep, enhanced and extras modules. It is the one way into the core: the
// single error conversion, and recovery from a wasm trap.

import { ToolStubError, asToolStubError, caught, isWasmTrap } from "./stores/errors.js";
import { encode as wtf8Bytes, isWellFormed } from "./stores/wtf8.js";
import { GrepModule } from "./grep-module.js";
import { EnhancedModule } from "./enhanced-module.js";
import { ExtrasModule } from "./extras-module.js";

/**
 * The main module's wasm-bindgen glue: its exports are the core's calls.
 * @typedef {typeof import("../wasm/tool_stub.js")} Core
 */
/**
 * The name of one of the core's calls.
 * @typedef {keyof Core} CoreCallName
 */
/**
 * Node's synchronous SHA-256 of bytes the core calls while it plans a turn (HostHasher in the
 * main module's bindings).
 * @typedef {{ sha256: (utf8: Uint8Array) => string }} InCoreHasher
 */

/**
 * Wasm memory only grows: one large output (a 63 MB YAML needs ~1.4 GB while its synopsis is made)
 * would stay resident for the life of the process. Past this size, and when the core keeps nothing
 * for a call in flight, the core starts afresh and the old memory goes with the old instance. Most
 * calls stay far below it (a 10 MB output of any kind needs less), so they never pay for a restart.
 */
export const KEPT_MEMORY_BYTES = 256 * 1024 * 1024;

const NOT_INITIALIZED =
  "the tool-stub wasm module is not initialized yet: import the package's entry point ('tool-stub', 'tool-stub/node' or 'tool-stub/browser') and await it before calling";

export class Runtime {
  /**
   * The main module's wasm-bindgen glue (its exports are the core's calls).
   * @type {Core}
   */
  core;
  /**
   * Regex/ignoreCase/wholeWord searches' module (grep-module.js).
   * @type {GrepModule}
   */
  grep;
  /**
   * Enhanced mode's module (enhanced-module.js).
   * @type {EnhancedModule}
   */
  enhanced;
  /**
   * The module of the calls few sessions make (extras-module.js).
   * @type {ExtrasModule}
   */
  extras;
  #ready = false;
  #notReadyReason = "";
  /**
   * Settles when the instantiation in flight (the browser entry loads the wasm in the background)
   * has succeeded or failed; ToolStub's methods wait for it before their first use of the core.
   */
  #readiness = Promise.resolve();
  /**
   * Hex SHA-256 of a well-formed string's UTF-8 bytes, possibly async. The entry modules install the
   * host's native one (node:crypto, WebCrypto), several times faster than the core's; the digests
   * are the same, and the core's stays the fallback.
   * @type {(text: string) => string | Promise<string>}
   */
  #hasher = (text) => this.core.sha256Hex(text);
  /**
   * A synchronous SHA-256 of bytes that the core calls on an output in its own memory while it
   * plans a turn (`{ sha256(utf8: Uint8Array): hex }`, HostHasher in the main module's bindings),
   * or undefined. Node has one (node:crypto): hashing the UTF-8 the core already holds skips a
   * second encoding of every output. WebCrypto is async, so browsers hash up front instead.
   * @type {InCoreHasher | undefined}
   */
  #inCoreHasher;
  /**
   * An asynchronous SHA-256 of bytes (`(utf8: Uint8Array) => Promise<hex>`) that copies its input
   * before it returns, as WebCrypto's `digest` does, or undefined. Browsers have one: `externalize`
   * stages the outputs in the core and hashes the bytes there (HostDigests in the bindings) instead
   * of encoding every output a second time for the hasher of text.
   * @type {((utf8: Uint8Array<ArrayBuffer>) => Promise<string>) | undefined}
   */
  #stagedHasher;
  /**
   * How many times the core was started afresh. Anything the core keeps between two calls (a
   * planned turn, staged outputs) belongs to the instance it was made in: a
   * holder compares this number with the one it saw then before it uses it (see planned-turn.js).
   */
  #instance = 0;
  /** Turns planned in the core and not yet finished or dropped (see planned-turn.js). */
  #holds = 0;

  /**
   * Locks of stores without a `lock()` of their own, within this realm: a table (lock name to
   * its queue, stores/lock.js) per store object, shared by every ToolStub on that store.
   * @type {WeakMap<object, Map<string, Promise<unknown>>>}
   */
  #localLocks = new WeakMap();

  /**
   * `core`: the main module's glue, instantiated by the entry module before `markReady()`.
   * @param {Core} core
   */
  constructor(core) {
    this.core = core;
    this.grep = new GrepModule(this);
    this.enhanced = new EnhancedModule(KEPT_MEMORY_BYTES);
    this.extras = new ExtrasModule(KEPT_MEMORY_BYTES);
  }

  /**
   * The table of local locks of `store` (see #localLocks).
   * @param {object} store
   */
  localLocks(store) {
    let table = this.#localLocks.get(store);
    if (table === undefined) {
      table = new Map();
      this.#localLocks.set(store, table);
    }
    return table;
  }

  // --- Readiness (only the entry modules mark it) ---------------------------------------------

  markReady() {
    this.#ready = true;
    this.#notReadyReason = "";
  }

  /**
   * Records why the module did not load (the message NOT_READY errors give).
   * @param {string} reason
   */
  markNotReady(reason) {
    this.#notReadyReason = reason;
  }

  isReady() {
    return this.#ready;
  }

  notReadyMessage() {
    return this.#notReadyReason || NOT_INITIALIZED;
  }

  whenReady() {
    return this.#readiness;
  }

  /**
   * Called by the browser entry with its instantiation's promise (one that never rejects).
   * @param {Promise<void>} settled
   */
  useReadiness(settled) {
    this.#readiness = settled;
  }

  // --- The host's SHA-256 -------------------------------------------------------------------

  /**
   * The host's SHA-256 of text (`(text) => hex | Promise<hex>`); a hasher installed from outside
   * replaces the ones of bytes too, so it is the one used.
   * @param {(text: string) => string | Promise<string>} host
   */
  useSha256(host) {
    this.#hasher = host;
    this.#inCoreHasher = undefined;
    this.#stagedHasher = undefined;
  }

  /**
   * Called by the Node entry with node:crypto's SHA-256 of bytes.
   * @param {((utf8: Uint8Array) => string) | undefined} sha256OfBytes
   */
  useInCoreSha256(sha256OfBytes) {
    this.#inCoreHasher = sha256OfBytes === undefined ? undefined : { sha256: sha256OfBytes };
  }

  /**
   * Called by the browser entry with WebCrypto's SHA-256 of bytes.
   * @param {((utf8: Uint8Array<ArrayBuffer>) => Promise<string>) | undefined} sha256OfBytes
   */
  useStagedSha256(sha256OfBytes) {
    this.#stagedHasher = sha256OfBytes;
  }

  /** @param {string} text */
  hashOutput(text) {
    return this.#hasher(text);
  }

  inCoreSha256() {
    return this.#inCoreHasher;
  }

  stagedSha256() {
    return this.#stagedHasher;
  }

  /**
   * Hex SHA-256 of the bytes a store keeps for `text`: its UTF-8, or, when it holds lone surrogates
   * (which UTF-8 cannot hold; every store keeps them exactly), its WTF-8, where each lone surrogate
   * is the 3-byte form of its code point. So an output with a lone surrogate and one with U+FFFD in
   * its place, which look alike to the core, never share a digest or an id. Synchronous; the core
   * hashes such rare text itself.
   * @param {string} text
   */
  storedSha256(text) {
    return isWellFormed(text)
      ? this.core.sha256Hex(text)
      : this.core.sha256HexOfBytes(wtf8Bytes(text));
  }

  // --- The core's instance --------------------------------------------------------------------

  coreInstance() {
    return this.#instance;
  }

  /** Keeps what the core holds for a turn: no restart to give memory back until it is released. */
  holdInstance() {
    this.#holds++;
  }

  releaseInstance() {
    this.#holds--;
    this.#giveMemoryBack();
  }

  /** Replaces the core's instance with a fresh one: a new memory, nothing kept from before. */
  #restartCore() {
    this.core.__wbg_reset_state();
    this.#instance++;
  }

  #giveMemoryBack() {
    if (this.#holds === 0 && this.core.memoryBytes() > KEPT_MEMORY_BYTES) this.#restartCore();
  }

  /**
   * Turns what the core throws into a ToolStubError, starting the core afresh after a trap.
   * @param {unknown} error
   */
  toToolStubError(error) {
    if (isWasmTrap(error)) {
      // A trap leaves the instance's stack and allocator in an unknown state: start afresh so the
      // next call works.
      this.#restartCore();
      return new ToolStubError(
        "INTERNAL",
        `internal error in the wasm core (module reset): ${caught(error)?.message}`,
        { cause: error },
      );
    }
    return asToolStubError(error);
  }

  /**
   * Calls the core's export `name`, with one error conversion for the whole package.
   * @template {CoreCallName} N
   * @param {N} name
   * @param {Parameters<Core[N]>} args
   * @returns {ReturnType<Core[N]>}
   */
  call(name, ...args) {
    const call = /** @type {(...args: Parameters<Core[N]>) => ReturnType<Core[N]>} */ (
      this.core[name]
    );
    return this.run(call, ...args);
  }

  /**
   * Runs `fn`, which calls into the core, as `call` does.
   * @template {unknown[]} A
   * @template R
   * @param {(...args: A) => R} fn
   * @param {A} args
   * @returns {R}
   */
  run(fn, ...args) {
    if (!this.#ready) {
      throw new ToolStubError("NOT_READY", this.notReadyMessage());
    }
    try {
      return fn(...args);
    } catch (error) {
      throw this.toToolStubError(error);
    } finally {
      this.#giveMemoryBack();
    }
  }
}
