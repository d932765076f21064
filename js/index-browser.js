// Entry point for browsers (and other hosts with fetch): the import resolves once the wasm module,
// fetched next to this file, is instantiated (top-level await).
import init from "../wasm/tool_stub.js";
import { useSha256 } from "./api.js";
import { useStagedSha256 } from "./core-call.js";
import { markReady } from "./ready.js";
import { useGrepLoader } from "./grep-module.js";

await init({ module_or_path: new URL("../wasm/tool_stub_bg.wasm", import.meta.url) });
// WebCrypto exists only in secure contexts; elsewhere the core's SHA-256 stays in use.
const subtle = globalThis.crypto?.subtle;
if (subtle) {
  const sha256OfBytes = async (bytes) => {
    const digest = new Uint8Array(await subtle.digest("SHA-256", bytes));
    return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
  };
  useSha256((text) => sha256OfBytes(new TextEncoder().encode(text)));
  // `digest` copies its input before it returns, so it may hash bytes in the core's memory.
  useStagedSha256(sha256OfBytes);
}
markReady();
useGrepLoader(async () => {
  const grep = await import("../wasm/tool_stub_grep.js");
  await grep.default({ module_or_path: new URL("../wasm/tool_stub_grep_bg.wasm", import.meta.url) });
  return grep;
});

export * from "./api.js";
