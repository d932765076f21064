// Entry point for Node: instantiates the wasm module synchronously from the package's own file,
// so the API is ready as soon as the import resolves.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { initSync } from "../wasm/tool_stub.js";
import { useSha256 } from "./api.js";
import { useInCoreSha256 } from "./core-call.js";
import { markReady } from "./ready.js";
import { useGrepLoader } from "./grep-module.js";
import { useEnhancedLoader } from "./enhanced-module.js";
import * as enhanced from "../wasm/tool_stub_enhanced.js";

initSync({ module: readFileSync(new URL("../wasm/tool_stub_bg.wasm", import.meta.url)) });
useSha256((text) => createHash("sha256").update(text, "utf8").digest("hex"));
useInCoreSha256((utf8) => createHash("sha256").update(utf8).digest("hex"));
markReady();
useGrepLoader(async () => {
  const grep = await import("../wasm/tool_stub_grep.js");
  grep.initSync({
    module: readFileSync(new URL("../wasm/tool_stub_grep_bg.wasm", import.meta.url)),
  });
  return grep;
});

// Enhanced mode's module, read and compiled synchronously the first time an enhanced synopsis is
// needed (enhanced-module.js): Node's synchronous calls need no load step.
function loadEnhancedNow() {
  enhanced.initSync({
    module: readFileSync(new URL("../wasm/tool_stub_enhanced_bg.wasm", import.meta.url)),
  });
  return enhanced;
}
useEnhancedLoader(async () => loadEnhancedNow(), loadEnhancedNow);

export * from "./api.js";

/** The browser entry's `init`: in Node the module is ready when the import resolves, so it does nothing. */
export async function init() {}
