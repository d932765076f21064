// Entry point for browsers (and other hosts with fetch): the import resolves once the wasm module,
// fetched next to this file, is instantiated (top-level await).
import init from "../wasm/tool_stub.js";
import { markReady } from "./api.js";

await init({ module_or_path: new URL("../wasm/tool_stub_bg.wasm", import.meta.url) });
markReady();

export * from "./api.js";
