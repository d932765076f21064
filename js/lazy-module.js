// A wasm module the runtime loads the first time it is needed (enhanced-module.js,
// extras-module.js): how it loads (once, through the loader an entry module installs), and how a
// call into it fails (a trap resets it, a large memory is given back). The modules say what they
// answer; this says how they are reached.

import { ToolStubError, asToolStubError, isWasmTrap, caught } from "./stores/errors.js";

/**
 * What every lazily loaded module's wasm-bindgen glue has beside its exports.
 * @typedef {{ memoryBytes(): number, __wbg_reset_state?: () => void }} ModuleGlue
 */

/**
 * The arguments of a glue export `F`.
 * @template F
 * @typedef {F extends (...args: infer A) => unknown ? A : never} ArgsOf
 */
/**
 * What a glue export `F` answers.
 * @template F
 * @typedef {F extends (...args: never[]) => infer R ? R : never} ResultOf
 */

/**
 * A module loaded on first use; `Glue` is its wasm-bindgen glue.
 * @template {ModuleGlue} Glue
 */
export class LazyModule {
  /**
   * What the module is, for messages ("enhanced mode's module").
   * @type {string}
   */
  #what;
  /**
   * Its wasm file in the package, for messages and for hosts that pass it to `init`.
   * @type {string}
   */
  #wasmFile;
  /**
   * `{ load: async () => glue, loadNow?: () => glue }`, installed by an entry module.
   * @type {{ load: () => Promise<Glue>, loadNow?: () => Glue } | undefined}
   */
  #loaders;
  /** @type {Promise<Glue> | undefined} */
  #loading;
  /** @type {Glue | undefined} */
  #loaded;
  /**
   * The runtime's KEPT_MEMORY_BYTES: past it, the module starts afresh after a call.
   * @type {number}
   */
  #keptMemoryBytes;

  /**
   * @param {string} what
   * @param {string} wasmFile
   * @param {number} keptMemoryBytes
   */
  constructor(what, wasmFile, keptMemoryBytes) {
    this.#what = what;
    this.#wasmFile = wasmFile;
    this.#keptMemoryBytes = keptMemoryBytes;
  }

  /** How the module is described in messages: what it is and its file. */
  describe() {
    return `${this.#what} (${this.#wasmFile})`;
  }

  /** @param {unknown} error */
  #loadFailed(error) {
    return new ToolStubError(
      "NOT_READY",
      `${this.describe()} could not be loaded: ${caught(error)?.message ?? error}`,
      { cause: error },
    );
  }

  #noLoader() {
    return new ToolStubError(
      "NOT_READY",
      `no loader for ${this.#what}: import the package's entry point ('tool-stub', 'tool-stub/node' or 'tool-stub/browser')`,
    );
  }

  /**
   * Called by an entry module with how to instantiate the module's glue: `load` (async), and
   * `loadNow` (synchronous, where the host can compile wasm synchronously: Node).
   * @param {() => Promise<Glue>} load
   * @param {() => Glue} [loadNow]
   */
  useLoader(load, loadNow) {
    this.#loaders = { load, loadNow };
    this.#loading = undefined;
  }

  /** Whether the module is instantiated (tests: what never needs it never loads it). */
  isLoaded() {
    return this.#loaded !== undefined;
  }

  /**
   * Loads the module now (idempotent); rejects with NOT_READY when it cannot be loaded.
   * @returns {Promise<Glue>}
   */
  load() {
    if (this.#loaded) return Promise.resolve(this.#loaded);
    if (!this.#loading) {
      if (!this.#loaders) return Promise.reject(this.#noLoader());
      const { load } = this.#loaders;
      this.#loading = Promise.resolve()
        .then(load)
        .then(
          (module) => {
            this.#loaded = module;
            return module;
          },
          (error) => {
            this.#loading = undefined;
            throw this.#loadFailed(error);
          },
        );
    }
    return this.#loading;
  }

  /**
   * The module, loading it synchronously where the host can; else NOT_READY with `notLoadedYet`
   * (what to await first).
   * @param {string} notLoadedYet
   * @returns {Glue}
   */
  moduleNow(notLoadedYet) {
    if (this.#loaded) return this.#loaded;
    if (this.#loaders?.loadNow) {
      try {
        this.#loaded = this.#loaders.loadNow();
      } catch (error) {
        throw this.#loadFailed(error);
      }
      return this.#loaded;
    }
    if (!this.#loaders) throw this.#noLoader();
    throw new ToolStubError("NOT_READY", `${this.describe()} is not loaded yet: ${notLoadedYet}`);
  }

  /**
   * Calls the loaded `module`'s export `name`. A trap resets the module; one that grew its
   * memory past the runtime's KEPT_MEMORY_BYTES starts afresh after the call (wasm memory only
   * grows, see runtime.js).
   * @template {keyof Glue} Name
   * @param {Glue} module
   * @param {Name} name
   * @param {ArgsOf<Glue[Name]>} args
   * @returns {ResultOf<Glue[Name]>}
   */
  callLoaded(module, name, ...args) {
    try {
      // `name` is one of the glue's exports, each a function: tsc cannot see that of `Glue[Name]`.
      const call = /** @type {(...args: ArgsOf<Glue[Name]>) => ResultOf<Glue[Name]>} */ (
        /** @type {unknown} */ (module[name])
      );
      return call.call(module, ...args);
    } catch (error) {
      if (isWasmTrap(error)) {
        module.__wbg_reset_state?.();
        throw new ToolStubError(
          "INTERNAL",
          `internal error in ${this.#what} (module reset): ${caught(error)?.message}`,
          { cause: error },
        );
      }
      throw asToolStubError(error);
    } finally {
      if (module.memoryBytes() > this.#keptMemoryBytes) module.__wbg_reset_state?.();
    }
  }
}
