// The public JavaScript API on a runtime: `ToolStub` (a session over a store, tool-stub.js), the
// stateless calls (functions.js) and the runtime's switches a caller may use. Every decision
// (kinds, synopses, stubs, ids, which parts of a turn go out, read windows, search hits) is made by
// the wasm core; the JS moves data between the caller, the core and a store.

import { ToolStubError } from "./stores/errors.js";
import { MemoryStore } from "./stores/memory.js";
import { statelessCalls } from "./functions.js";
import { ToolStubOnRuntime } from "./tool-stub.js";

export { ToolStubError, MemoryStore };
export { DEFAULT_SESSION_URI_PATTERN } from "./tool-stub.js";

/**
 * The public API on `runtime` (runtime.js), as an entry module exports it: `ToolStub`, the
 * stateless calls, and the runtime's switches a caller may use (`useSha256`, `preloadGrep`,
 * `loadEnhancedMode`).
 * @param {import("./runtime.js").Runtime} runtime
 */
export function createApi(runtime) {
  class ToolStub extends ToolStubOnRuntime {
    /** @param {import("./index.js").ToolStubOptions} options */
    constructor(options) {
      super(runtime, options);
    }
  }
  return {
    ToolStub,
    /** The host's SHA-256 of text (`(text) => hex | Promise<hex>`), replacing the native ones. */
    useSha256: (/** @type {(text: string) => string | Promise<string>} */ host) =>
      runtime.useSha256(host),
    preloadGrep: () => runtime.grep.preload(),
    loadEnhancedMode: () => runtime.enhanced.load(),
    ...statelessCalls(runtime),
  };
}
