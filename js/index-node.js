// Entry point for Node: instantiates the wasm module synchronously from the package's own file,
// so the API is ready as soon as the import resolves.
import { readFileSync } from "node:fs";
import { initSync } from "../wasm/tool_stub.js";
import { markReady } from "./api.js";

initSync({ module: readFileSync(new URL("../wasm/tool_stub_bg.wasm", import.meta.url)) });
markReady();

export * from "./api.js";
