// The enhanced module: enhanced mode's analyzers (`synopsisMode: "enhanced"`) are a third wasm
// module (wasm/tool_stub_enhanced_bg.wasm; enhanced/ in the repository), kept out of the main
// module every page loads. The main module decides everything else (when a synopsis is enhanced,
// how long its stub may be) and asks for each enhanced synopsis through `enhancedHost`, which every
// core call that may need one takes (HostEnhanced in src/wasm.rs). Reference mode never loads it.
//
// Node reads and compiles it synchronously the first time it is asked. Browsers compile wasm
// asynchronously: ToolStub's methods await `loadEnhancedMode()` when the config asks for enhanced
// synopses, and the synchronous `synopsis()` / `makePreview()` need `await loadEnhancedMode()` first
// (before that they throw NOT_READY saying so). A module that fails to load fails the call that
// needed it, never falls back to reference synopses.

import { ToolStubError } from "./stores/errors.js";
import { KEPT_MEMORY_BYTES, toToolStubError } from "./core-call.js";

const WASM_FILE = "wasm/tool_stub_enhanced_bg.wasm";

/** `{ load: async () => glue, loadNow?: () => glue }`, installed by an entry module. */
let loaders;
let loading;
let loaded;

/**
 * Called by an entry module with how to instantiate the enhanced module's glue: `load` (async),
 * and `loadNow` (synchronous, where the host can compile wasm synchronously: Node).
 */
export function useEnhancedLoader(load, loadNow) {
  loaders = { load, loadNow };
  loading = undefined;
}

/** Whether the enhanced module is instantiated (tests: reference mode never loads it). */
export function enhancedModuleLoaded() {
  return loaded !== undefined;
}

function loadFailed(error) {
  return new ToolStubError(
    "NOT_READY",
    `enhanced mode's module (${WASM_FILE}) could not be loaded: ${error?.message ?? error}`,
    { cause: error },
  );
}

function noLoader() {
  return new ToolStubError(
    "NOT_READY",
    "no loader for enhanced mode's module: import the package's entry point ('tool-stub', 'tool-stub/node' or 'tool-stub/browser')",
  );
}

/**
 * Loads enhanced mode's module now (idempotent). Browsers must await it before the synchronous
 * `synopsis()` / `makePreview()` with `synopsisMode: "enhanced"`; ToolStub's methods await it
 * themselves. Rejects with NOT_READY when the module cannot be loaded.
 */
export function loadEnhancedMode() {
  if (loaded) return Promise.resolve();
  if (!loading) {
    if (!loaders) return Promise.reject(noLoader());
    const { load } = loaders;
    loading = Promise.resolve()
      .then(load)
      .then(
        (module) => {
          loaded = module;
        },
        (error) => {
          loading = undefined;
          throw loadFailed(error);
        },
      );
  }
  return loading;
}

/** The module, loading it synchronously where the host can; else NOT_READY saying what to await. */
function moduleNow() {
  if (loaded) return loaded;
  if (loaders?.loadNow) {
    try {
      loaded = loaders.loadNow();
    } catch (error) {
      throw loadFailed(error);
    }
    return loaded;
  }
  if (!loaders) throw noLoader();
  throw new ToolStubError(
    "NOT_READY",
    `enhanced mode's module (${WASM_FILE}) is not loaded yet: await loadEnhancedMode() before calling synopsis() or makePreview() ` +
      `with synopsisMode "enhanced" (ToolStub's methods load it themselves)`,
  );
}

/**
 * The host object the main module asks for enhanced synopses (HostEnhanced in src/wasm.rs):
 * `synopsis(utf8, mimeType, referenceJson)` with `utf8` a view of the main module's memory, copied
 * into this module's. A trap resets this module; one that grew its memory past KEPT_MEMORY_BYTES
 * starts afresh after the call (wasm memory only grows, see core-call.js).
 */
export const enhancedHost = {
  synopsis(utf8, mimeType, referenceJson) {
    const module = moduleNow();
    try {
      return module.enhancedSynopsis(utf8, mimeType, referenceJson);
    } catch (error) {
      if (typeof WebAssembly !== "undefined" && error instanceof WebAssembly.RuntimeError) {
        module.__wbg_reset_state?.();
        throw new ToolStubError(
          "INTERNAL",
          `internal error in enhanced mode's module (module reset): ${error.message}`,
          { cause: error },
        );
      }
      throw toToolStubError(error);
    } finally {
      if (module.memoryBytes() > KEPT_MEMORY_BYTES) module.__wbg_reset_state?.();
    }
  },
};

/** Awaits the enhanced module when `mode` (a config's or call's `synopsisMode`) asks for it. */
export async function loadForMode(mode) {
  if (mode === "enhanced") await loadEnhancedMode();
}
