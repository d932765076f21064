// Entry point for browsers (and other hosts with fetch): the import resolves once the wasm module,
// fetched next to this file, is instantiated (top-level await).
import init from "../wasm/tool_stub.js";
import { useSha256 } from "./api.js";
import { markReady } from "./ready.js";

await init({ module_or_path: new URL("../wasm/tool_stub_bg.wasm", import.meta.url) });
// WebCrypto exists only in secure contexts; elsewhere the core's SHA-256 stays in use.
const subtle = globalThis.crypto?.subtle;
if (subtle) {
  useSha256(async (text) => {
    const digest = new Uint8Array(await subtle.digest("SHA-256", new TextEncoder().encode(text)));
    return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
  });
}
markReady();

export * from "./api.js";
