// The enhanced module: enhanced mode's analyzers (`synopsisMode: "enhanced"`) are a third wasm
// module (wasm/tool_stub_enhanced_bg.wasm; enhanced/ in the repository), kept out of the main
// module every page loads. The main module decides everything else (when a synopsis is enhanced,
// how long its stub may be) and asks for each enhanced synopsis through the runtime's `enhanced.host`, which every
// core call that may need one takes (HostEnhanced in the main module's bindings). Reference mode never loads it.
//
// Node reads and compiles it synchronously the first time it is asked. Browsers compile wasm
// asynchronously: ToolStub's methods await `loadEnhancedMode()` when the config asks for enhanced
// synopses, and the synchronous `synopsis()` / `makePreview()` need `await loadEnhancedMode()` first
// (before that they throw NOT_READY saying so). A module that fails to load fails the call that
// needed it, never falls back to reference synopses.

import { ToolStubError, asToolStubError, isWasmTrap, caught } from "./stores/errors.js";

const WASM_FILE = "wasm/tool_stub_enhanced_bg.wasm";

/**
 * Enhanced mode's module's wasm-bindgen glue.
 * @typedef {typeof import("../wasm/tool_stub_enhanced.js")} EnhancedGlue
 */
/**
 * How an entry module instantiates the glue: `load` (async), and `loadNow` (synchronous) where
 * the host can compile wasm synchronously.
 * @typedef {{ load: () => Promise<EnhancedGlue>, loadNow?: () => EnhancedGlue }} EnhancedLoaders
 */

/** @param {unknown} error */
function loadFailed(error) {
  return new ToolStubError(
    "NOT_READY",
    `enhanced mode's module (${WASM_FILE}) could not be loaded: ${caught(error)?.message ?? error}`,
    { cause: error },
  );
}

function noLoader() {
  return new ToolStubError(
    "NOT_READY",
    "no loader for enhanced mode's module: import the package's entry point ('tool-stub', 'tool-stub/node' or 'tool-stub/browser')",
  );
}

/** Enhanced mode's module of one runtime (runtime.js). */
export class EnhancedModule {
  /**
   * `{ load: async () => glue, loadNow?: () => glue }`, installed by an entry module.
   * @type {EnhancedLoaders | undefined}
   */
  #loaders;
  /** @type {Promise<void> | undefined} */
  #loading;
  /** @type {EnhancedGlue | undefined} */
  #loaded;
  /** The runtime's KEPT_MEMORY_BYTES: past it, the module starts afresh after a call. */
  #keptMemoryBytes;

  /** @param {number} keptMemoryBytes */
  constructor(keptMemoryBytes) {
    this.#keptMemoryBytes = keptMemoryBytes;
  }

  /**
   * The host object the main module asks for enhanced synopses (HostEnhanced in the main module's
   * bindings): `synopsis(utf8, mimeType, referenceJson)` with `utf8` a view of the main module's
   * memory, copied into this module's. A trap resets this module; one that grew its memory past
   * the runtime's KEPT_MEMORY_BYTES starts afresh after the call (wasm memory only grows, see runtime.js).
   */
  host = {
    /**
     * @param {Uint8Array} utf8
     * @param {string} mimeType
     * @param {string} referenceJson
     * @returns {string}
     */
    synopsis: (utf8, mimeType, referenceJson) => {
      const module = this.#moduleNow();
      try {
        return module.enhancedSynopsis(utf8, mimeType, referenceJson);
      } catch (error) {
        if (isWasmTrap(error)) {
          module.__wbg_reset_state?.();
          throw new ToolStubError(
            "INTERNAL",
            `internal error in enhanced mode's module (module reset): ${caught(error)?.message}`,
            { cause: error },
          );
        }
        throw asToolStubError(error);
      } finally {
        if (module.memoryBytes() > this.#keptMemoryBytes) module.__wbg_reset_state?.();
      }
    },
  };

  /**
   * Called by an entry module with how to instantiate the enhanced module's glue: `load` (async),
   * and `loadNow` (synchronous, where the host can compile wasm synchronously: Node).
   * @param {EnhancedLoaders["load"]} load
   * @param {EnhancedLoaders["loadNow"]} [loadNow]
   */
  useLoader(load, loadNow) {
    this.#loaders = { load, loadNow };
    this.#loading = undefined;
  }

  /** Whether the enhanced module is instantiated (tests: reference mode never loads it). */
  isLoaded() {
    return this.#loaded !== undefined;
  }

  /**
   * Loads enhanced mode's module now (idempotent). Browsers must await it before the synchronous
   * `synopsis()` / `makePreview()` with `synopsisMode: "enhanced"`; ToolStub's methods await it
   * themselves. Rejects with NOT_READY when the module cannot be loaded.
   */
  load() {
    if (this.#loaded) return Promise.resolve();
    if (!this.#loading) {
      if (!this.#loaders) return Promise.reject(noLoader());
      const { load } = this.#loaders;
      this.#loading = Promise.resolve()
        .then(load)
        .then(
          (module) => {
            this.#loaded = module;
          },
          (error) => {
            this.#loading = undefined;
            throw loadFailed(error);
          },
        );
    }
    return this.#loading;
  }

  /**
   * Awaits the enhanced module when `mode` (a config's or call's `synopsisMode`) asks for it.
   * @param {unknown} mode
   */
  async loadForMode(mode) {
    if (mode === "enhanced") await this.load();
  }

  /**
   * The module, loading it synchronously where the host can; else NOT_READY saying what to await.
   * @returns {EnhancedGlue}
   */
  #moduleNow() {
    if (this.#loaded) return this.#loaded;
    if (this.#loaders?.loadNow) {
      try {
        this.#loaded = this.#loaders.loadNow();
      } catch (error) {
        throw loadFailed(error);
      }
      return this.#loaded;
    }
    if (!this.#loaders) throw noLoader();
    throw new ToolStubError(
      "NOT_READY",
      `enhanced mode's module (${WASM_FILE}) is not loaded yet: await loadEnhancedMode() before calling synopsis() or makePreview() ` +
        `with synopsisMode "enhanced" (ToolStub's methods load it themselves)`,
    );
  }
}
