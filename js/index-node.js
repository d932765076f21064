// Entry point for Node: the API on the Node runtime (node-runtime.js), whose wasm module is
// instantiated synchronously, so the API is ready as soon as the import resolves.
import { runtime } from "./node-runtime.js";
import { createApi } from "./api.js";

export { ToolStubError, MemoryStore, DEFAULT_SESSION_URI_PATTERN } from "./api.js";
export const {
  ToolStub,
  useSha256,
  preloadGrep,
  loadEnhancedMode,
  synopsis,
  renderStub,
  makePreview,
  toolResultId,
  sha256Hex,
} = createApi(runtime);

/** The browser entry's `init`: in Node the module is ready when the import resolves, so it does nothing. */
export async function init() {}
