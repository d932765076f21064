// The page's side of the search worker (search-worker.js): starts it, sends it the text of an output
// as transferred UTF-8 buffers (in pieces, yielding between them: never a structured clone of a
// 100 MB string), and runs one search at a time there. Errors come back with their codes, as the
// same calls on the main thread would throw them.

import { ToolStubError, asToolStubError } from "./stores/errors.js";
import { textPieces, yieldToEventLoop } from "./text-chunks.js";

/** How long a new worker may take to answer its first message before searches stay on this thread. */
const START_TIMEOUT_MS = 20_000;

/** The worker could not instantiate the main module: its calls run on the main thread instead. */
export class CoreUnavailable extends Error {}

/**
 * A wasm source as a worker can take it in a message: an absolute URL string, a Module or bytes.
 * @typedef {string | WebAssembly.Module | ArrayBuffer | ArrayBufferView} WorkerWasm
 */
/**
 * An error as the worker sends it back (search-worker.js).
 * @typedef {object} WorkerError
 * @property {unknown} code
 * @property {string} message
 * @property {unknown} name
 * @property {unknown} coreUnavailable
 */
/**
 * A message the worker answers: `{ id, result }` or `{ id, error }`.
 * @typedef {{ id: number, result?: unknown, error?: WorkerError }} WorkerAnswer
 */
/**
 * A call waiting for the worker's answer.
 * @typedef {{ resolve: (result: unknown) => void, reject: (error: unknown) => void }} PendingCall
 */
/** @typedef {import("./text-chunks.js").TextPieces} TextPieces */

/**
 * An error the worker sent back, as the thrower on this thread would have thrown it.
 * @param {WorkerError} error
 */
function fromWorker({ code, message, name, coreUnavailable }) {
  if (coreUnavailable) return new CoreUnavailable(message);
  if (code === undefined) {
    return new ToolStubError(
      "INTERNAL",
      `the search worker failed: ${name ?? "Error"}: ${message}`,
    );
  }
  const error = Object.assign(new Error(message), { code });
  return asToolStubError(error);
}

export class SearchWorker {
  /** @type {"worker"} */
  thread = "worker";
  /** @type {Worker} */
  #worker;
  /** @type {Map<number, PendingCall>} */
  #pending = new Map();
  #nextId = 1;
  /**
   * The string whose UTF-8 the worker holds; undefined while none, or while one is on its way.
   * @type {string | TextPieces | undefined}
   */
  #text;
  /**
   * Operations run one at a time: a text sent in pieces must not interleave with another.
   * @type {Promise<unknown>}
   */
  #queue = Promise.resolve();
  /** @type {ToolStubError | undefined} */
  #failure;
  /** @type {boolean} */
  #hasCore;
  /** Whether `start` succeeded: only a worker that did is reported as stopped. */
  #started = false;

  /**
   * `worker`: a started module Worker; `sources`: `{ grep, core }` wasm the worker can take;
   * `onStopped(this)`: called once if the worker fails (it is then terminated).
   * @param {Worker} worker
   * @param {{ grep: WorkerWasm, core: WorkerWasm | undefined }} sources
   * @param {(worker: SearchWorker) => void} [onStopped]
   */
  constructor(worker, sources, onStopped) {
    this.#worker = worker;
    this.#hasCore = sources.core !== undefined;
    worker.onmessage = (/** @type {MessageEvent<WorkerAnswer>} */ { data }) => {
      const pending = this.#pending.get(data.id);
      if (!pending) return;
      this.#pending.delete(data.id);
      if (data.error) pending.reject(fromWorker(data.error));
      else pending.resolve(data.result);
    };
    /** @param {string} why */
    const fail = (why) => {
      // A worker that could not load its script, or threw outside a call: its state is unknown, so
      // it ends; the calls waiting on it fail, and the owner starts searches elsewhere.
      if (this.#failure) return;
      const failure = new ToolStubError("NOT_READY", `the search worker stopped: ${why}`);
      this.#failure = failure;
      worker.terminate();
      for (const { reject } of this.#pending.values()) reject(failure);
      this.#pending.clear();
      if (this.#started) onStopped?.(this);
    };
    worker.onerror = (event) => {
      event.preventDefault?.();
      fail(event.message || "its script could not be loaded or threw");
    };
    worker.onmessageerror = () => fail("a message could not be read");
    this.#post({ op: "sources", grep: sources.grep, core: sources.core });
  }

  /** Waits for the worker to load its script and the grep module; rejects if it cannot. */
  async start() {
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`it did not answer within ${START_TIMEOUT_MS} ms`)),
        START_TIMEOUT_MS,
      );
    });
    try {
      await Promise.race([this.#call({ op: "loadGrep" }), timeout]);
    } catch (error) {
      this.#worker.terminate();
      throw error;
    } finally {
      clearTimeout(timer);
    }
    this.#started = true;
    return this;
  }

  /** Whether the worker can run the main module's calls too (it was given that wasm). */
  get hasCore() {
    return this.#hasCore && !this.#failure;
  }

  /**
   * Whether the worker holds `text` (a string or TextPieces) already.
   * @param {string | TextPieces} text
   */
  holds(text) {
    return this.#text !== undefined && this.#text === text;
  }

  /**
   * @param {object} message
   * @param {Transferable[]} [transfer]
   */
  #post(message, transfer = []) {
    if (this.#failure) throw this.#failure;
    this.#worker.postMessage(message, transfer);
  }

  /**
   * @param {object} message
   * @param {Transferable[]} [transfer]
   * @returns {Promise<unknown>}
   */
  #call(message, transfer) {
    return new Promise((resolve, reject) => {
      const id = this.#nextId++;
      this.#pending.set(id, { resolve, reject });
      try {
        this.#post({ ...message, id }, transfer);
      } catch (error) {
        this.#pending.delete(id);
        reject(error);
      }
    });
  }

  /**
   * Runs `task` after the operations before it.
   * @template T
   * @param {() => Promise<T>} task
   * @returns {Promise<T>}
   */
  #exclusive(task) {
    const run = this.#queue.then(task);
    this.#queue = run.catch(() => {});
    return run;
  }

  /**
   * Sends `text` (a string, or a store's TextPieces, never joined here) unless the worker holds it:
   * UTF-8 pieces, each transferred, yielding between.
   * @param {string | TextPieces} text
   */
  async #load(text) {
    if (this.holds(text)) return;
    this.#text = undefined;
    this.#post({ op: "begin", capacity: text.length });
    const encoder = new TextEncoder();
    for (const piece of textPieces(text)) {
      // encodeInto, not encode: ~4x faster in Chromium. A buffer of the piece's length holds it
      // when it is ASCII; what does not fit (encodeInto stops at a code point) goes in a second one.
      let rest = piece;
      for (let size = rest.length; rest.length > 0; size = rest.length * 3) {
        const buffer = new Uint8Array(size);
        const { read, written } = encoder.encodeInto(rest, buffer);
        this.#post({ op: "append", bytes: buffer.subarray(0, written) }, [buffer.buffer]);
        rest = rest.slice(read);
      }
      await yieldToEventLoop();
    }
    this.#text = text;
  }

  /**
   * Runs a call on the text the worker holds; a failed call drops that text (it may be reset).
   * @param {string | TextPieces} text
   * @param {object} message
   */
  async #onText(text, message) {
    await this.#load(text);
    try {
      return await this.#call(message);
    } catch (error) {
      this.#text = undefined;
      throw error;
    }
  }

  /**
   * Checks a search request and its pattern in the worker's grep module.
   * @param {string} request
   */
  check(request) {
    return this.#exclusive(() => this.#call({ op: "checkGrep", request }));
  }

  /**
   * The grep module's answer (JSON text) for `request` over `text` (a string or TextPieces).
   * @param {string | TextPieces} text
   * @param {string} request
   * @returns {Promise<string>}
   */
  search(text, request) {
    return this.#exclusive(
      async () => /** @type {string} */ (await this.#onText(text, { op: "grep", request })),
    );
  }

  /**
   * The main module's `name(text, ...args)` run in the worker (only when `hasCore`): its answer
   * (JSON text).
   * @param {import("./grep-module.js").CoreOnTextName} name
   * @param {string | TextPieces} text
   * @param {unknown[]} args
   * @returns {Promise<string>}
   */
  async core(name, text, args) {
    try {
      return await this.#exclusive(
        async () => /** @type {string} */ (await this.#onText(text, { op: "core", name, args })),
      );
    } catch (error) {
      if (error instanceof CoreUnavailable) this.#hasCore = false;
      throw error;
    }
  }
}
