// The grep module: searches with `regex`, `ignoreCase` or `wholeWord` run in a second wasm module
// (grep/ in the repository: the `regex` engine and its Unicode tables), too large for the main
// module every page loads. It is instantiated on the first search that needs it, or ahead of time
// with `preloadGrep()`; everything else works without it. The entry modules say how to load it
// (a file read in Node, a fetch next to the package in browsers).
//
// Browsers run it in a search worker (search-worker.js, started by the browser entry) so that a
// search over a large output never holds the page's main thread; where no worker can start (no
// Worker, a bundle whose worker URL does not resolve), it runs on the main thread as in Node.
// Either way the same wasm decides the answer.

import { ToolStubError, asToolStubError, isWasmTrap, caught } from "./stores/errors.js";
import { CoreUnavailable } from "./search-worker-client.js";
import { CHUNK_UNITS, chunkRanges, wholeText, yieldToEventLoop } from "./text-chunks.js";

/**
 * Outputs from this many UTF-16 units on have the main module's calls on their whole text (the
 * core's literal search, hit coordinates) run in the search worker too where there is one; smaller
 * ones take a few ms on the main thread, less than sending them.
 */
export const OFF_THREAD_MIN_UNITS = 1 << 20;

/**
 * The grep module's wasm-bindgen glue.
 * @typedef {typeof import("../wasm/tool_stub_grep.js")} GrepGlue
 */
/** @typedef {import("./text-chunks.js").TextPieces} TextPieces */
/** @typedef {import("./search-worker-client.js").SearchWorker} SearchWorker */
/**
 * The grep module on the calling thread: `check(request)` and `search(content, request)` (JSON
 * text).
 * @typedef {object} ThisThreadEngine
 * @property {"main"} thread
 * @property {(request: string) => Promise<void>} check
 * @property {(content: string | TextPieces, request: string) => Promise<string>} search
 */
/**
 * Where regex/ignoreCase/wholeWord searches run: the search worker, or this thread.
 * @typedef {SearchWorker | ThisThreadEngine} GrepEngine
 */
/**
 * Starts a search worker (`onStopped(worker)` is called if it fails later); throws when none
 * can start.
 * @typedef {(onStopped: (worker: SearchWorker) => void) => Promise<SearchWorker>} WorkerStarter
 */
/**
 * The main module's calls on a whole output's text that may run in the search worker.
 * @typedef {"grepContent" | "hitCoordinates"} CoreOnTextName
 */

/**
 * Whether a search's options need the grep module (the core's `GrepRequest::is_literal`).
 * @param {{ regex?: unknown, ignoreCase?: unknown, wholeWord?: unknown }} options
 */
export function needsGrepModule(options) {
  return Boolean(options.regex || options.ignoreCase || options.wholeWord);
}

/** The grep module of one runtime (runtime.js): how it loads, where searches run. */
export class GrepModule {
  /** @type {import("./runtime.js").Runtime} */
  #runtime;
  /**
   * `async () => instantiated glue module`, installed by an entry module.
   * @type {(() => Promise<GrepGlue>) | undefined}
   */
  #loader;
  /** @type {Promise<GrepGlue> | undefined} */
  #loading;
  /** @type {GrepGlue | undefined} */
  #loaded;
  /**
   * `async (onStopped) => SearchWorker` (search-worker-client.js), installed by the browser entry;
   * `onStopped(worker)` is called if that worker fails later.
   * @type {WorkerStarter | undefined}
   */
  #workerStarter;
  /**
   * Why searches run on the main thread although a worker was tried.
   * @type {string | undefined}
   */
  #workerUnavailable;
  /**
   * The engine searches use: a promise of `{ thread, check, search }`.
   * @type {Promise<GrepEngine> | undefined}
   */
  #engine;
  /**
   * The string whose UTF-8 the grep module holds (`loadText`): searching one output again skips
   * copying it in, which costs more than most searches (~2 ms per MB of non-Latin-1 text). Holds
   * the last searched output alive until another one is searched.
   * @type {string | undefined}
   */
  #loadedText;

  /** @param {import("./runtime.js").Runtime} runtime */
  constructor(runtime) {
    this.#runtime = runtime;
  }

  /**
   * Called by an entry module with `async () => instantiated glue module`.
   * @param {() => Promise<GrepGlue>} load
   */
  useLoader(load) {
    this.#loader = load;
  }

  /**
   * Called by the browser entry with `async (onStopped) => a started SearchWorker` (throws when none can start).
   * @param {WorkerStarter | undefined} start
   */
  useSearchWorker(start) {
    this.#workerStarter = start;
    this.#engine = undefined;
  }

  /**
   * The grep module on this thread, instantiated now if needed (idempotent).
   * @returns {Promise<GrepGlue>}
   */
  #loadOnThisThread() {
    if (this.#loaded) return Promise.resolve(this.#loaded);
    if (!this.#loading) {
      if (!this.#loader) {
        return Promise.reject(
          new ToolStubError(
            "NOT_READY",
            "no grep module loader: import the package's entry point ('tool-stub', 'tool-stub/node' or 'tool-stub/browser')",
          ),
        );
      }
      this.#loading = Promise.resolve()
        .then(this.#loader)
        .then(
          (module) => {
            this.#loaded = module;
            return module;
          },
          (error) => {
            this.#loading = undefined;
            throw new ToolStubError(
              "NOT_READY",
              `the grep module (wasm/tool_stub_grep_bg.wasm) could not be loaded: ${caught(error)?.message ?? error}`,
              { cause: error },
            );
          },
        );
    }
    return this.#loading;
  }

  /**
   * The engine on this thread: `check(request)` and `search(content, request)` (JSON text). A large
   * text crosses into the module in pieces with a turn of the event loop between them; the search
   * itself is one call. One search at a time, so pieces of two texts never mix.
   * @param {GrepGlue} module
   * @returns {ThisThreadEngine}
   */
  #thisThreadEngine(module) {
    /** @type {Promise<unknown>} */
    let queue = Promise.resolve();
    return {
      thread: "main",
      check: async (request) => void this.#call(module, () => module.checkGrep(request)),
      search: (content, request) => {
        const run = queue.then(async () => {
          await this.#loadText(module, wholeText(content));
          return this.#call(module, () => module.grepLoaded(request));
        });
        queue = run.catch(() => {});
        return run;
      },
    };
  }

  /**
   * @param {(worker: SearchWorker) => void} onStopped
   * @returns {Promise<GrepEngine>}
   */
  async #pickEngine(onStopped) {
    // The browser entry installs the loader and the worker once its core is instantiated, in the
    // background: a `preloadGrep()` or search right after the import waits for that, or it would
    // find no loader (NOT_READY) and pick no worker.
    await this.#runtime.whenReady();
    if (this.#workerStarter) {
      try {
        return await this.#workerStarter(onStopped);
      } catch (error) {
        this.#workerUnavailable = String(caught(error)?.message ?? error);
      }
    }
    return this.#thisThreadEngine(await this.#loadOnThisThread());
  }

  /**
   * The engine of regex/ignoreCase/wholeWord searches, started on first use: the search worker
   * where the entry installed one and it starts, else the grep module on this thread.
   * @returns {Promise<GrepEngine>}
   */
  engine() {
    if (!this.#engine) {
      // A worker that fails after it started is replaced: the next search picks an engine again.
      const picking = this.#pickEngine(() => {
        if (this.#engine === picking) this.#engine = undefined;
      });
      this.#engine = picking;
      picking.catch(() => {
        if (this.#engine === picking) this.#engine = undefined;
      });
    }
    return this.#engine;
  }

  /**
   * Instantiates the grep module now (idempotent); resolves with where searches run:
   * `{ thread: "worker" }`, or `{ thread: "main" }` (with `workerUnavailable` saying why when a
   * worker was tried).
   * @returns {Promise<import("./index.js").GrepThread>}
   */
  async preload() {
    const { thread } = await this.engine();
    return thread === "main" && this.#workerUnavailable !== undefined
      ? { thread, workerUnavailable: this.#workerUnavailable }
      : { thread };
  }

  /**
   * Makes `content` the text the module holds (unless it is already).
   * @param {GrepGlue} module
   * @param {string} content
   */
  async #loadText(module, content) {
    if (content === this.#loadedText) return;
    this.#loadedText = undefined;
    if (content.length <= CHUNK_UNITS) {
      this.#call(module, () => module.loadText(content));
    } else {
      this.#call(module, () => module.clearText(content.length));
      for (const [start, end] of chunkRanges(content)) {
        this.#call(module, () => module.appendText(content.slice(start, end)));
        await yieldToEventLoop();
      }
    }
    this.#loadedText = content;
  }

  /**
   * The main module's `name(content, ...args)` (`grepContent`, `hitCoordinates`): in the search
   * worker for a large output where one runs and was given the main module, else here. `content` is
   * a string or a store's TextPieces (joined only when the call runs here).
   * @overload
   * @param {"grepContent"} name
   * @param {string | TextPieces} content
   * @param {string} request
   * @returns {Promise<string>}
   */
  /**
   * @overload
   * @param {"hitCoordinates"} name
   * @param {string | TextPieces} content
   * @param {string} kind
   * @param {Uint32Array | number[]} hits
   * @returns {Promise<string>}
   */
  /**
   * @param {CoreOnTextName} name
   * @param {string | TextPieces} content
   * @param {unknown[]} args
   * @returns {Promise<string>}
   */
  async coreOnText(name, content, ...args) {
    if (this.#workerStarter && content.length >= OFF_THREAD_MIN_UNITS) {
      const started = await this.engine().catch(() => undefined);
      if (started?.thread === "worker" && started.hasCore) {
        try {
          return await started.core(name, content, args);
        } catch (error) {
          if (!(error instanceof CoreUnavailable)) throw error;
        }
      }
    }
    // The overloads above hold each name to its own arguments.
    const call = /** @type {(text: string, ...rest: unknown[]) => string} */ (
      this.#runtime.core[name]
    );
    return this.#runtime.run(call, wholeText(content), ...args);
  }

  /**
   * Runs `call`, a call of the grep module `module`, with the package's error conversion; a trap
   * resets the module.
   * @template R
   * @param {GrepGlue} module
   * @param {() => R} call
   * @returns {R}
   */
  #call(module, call) {
    try {
      return call();
    } catch (error) {
      if (isWasmTrap(error)) {
        this.#loadedText = undefined;
        module.__wbg_reset_state?.();
        throw new ToolStubError(
          "INTERNAL",
          `internal error in the grep module (module reset): ${caught(error)?.message}`,
          { cause: error },
        );
      }
      throw asToolStubError(error);
    }
  }
}
