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

import { LazyModule } from "./lazy-module.js";

const WASM_FILE = "wasm/tool_stub_enhanced_bg.wasm";

/**
 * Enhanced mode's module's wasm-bindgen glue.
 * @typedef {typeof import("../wasm/tool_stub_enhanced.js")} EnhancedGlue
 */

/**
 * Enhanced mode's module of one runtime (runtime.js).
 * @extends {LazyModule<EnhancedGlue>}
 */
export class EnhancedModule extends LazyModule {
  /** @param {number} keptMemoryBytes */
  constructor(keptMemoryBytes) {
    super("enhanced mode's module", WASM_FILE, keptMemoryBytes);
  }

  /**
   * The host object the main module asks for enhanced synopses (HostEnhanced in the main module's
   * bindings): `synopsis(utf8, mimeType, referenceJson)` with `utf8` a view of the main module's
   * memory, copied into this module's.
   */
  host = {
    /**
     * @param {Uint8Array} utf8
     * @param {string} mimeType
     * @param {string} referenceJson
     * @returns {string}
     */
    synopsis: (utf8, mimeType, referenceJson) =>
      this.callLoaded(this.#moduleNow(), "enhancedSynopsis", utf8, mimeType, referenceJson),
  };

  /**
   * Loads enhanced mode's module now (idempotent). Browsers must await it before the synchronous
   * `synopsis()` / `makePreview()` with `synopsisMode: "enhanced"`; ToolStub's methods await it
   * themselves. Rejects with NOT_READY when the module cannot be loaded.
   * @returns {Promise<any>}
   */
  async load() {
    await super.load();
  }

  /**
   * Awaits the enhanced module when `mode` (a config's or call's `synopsisMode`) asks for it.
   * @param {unknown} mode
   */
  async loadForMode(mode) {
    if (mode === "enhanced") await this.load();
  }

  /** @returns {EnhancedGlue} */
  #moduleNow() {
    return this.moduleNow(
      `await loadEnhancedMode() before calling synopsis() or makePreview() ` +
        `with synopsisMode "enhanced" (ToolStub's methods load it themselves)`,
    );
  }
}
