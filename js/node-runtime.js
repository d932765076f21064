// The Node runtime (runtime.js): the wasm core instantiated synchronously from the package's own
// file, node:crypto's SHA-256, and the grep, enhanced and extras modules read from the package when first
// needed. Built once, here, by the Node entry (index-node.js) and the CLIs that run on it.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import * as core from "../wasm/tool_stub.js";
import * as enhanced from "../wasm/tool_stub_enhanced.js";
import * as extras from "../wasm/tool_stub_extras.js";
import { Runtime } from "./runtime.js";

function nodeRuntime() {
  core.initSync({ module: readFileSync(new URL("../wasm/tool_stub_bg.wasm", import.meta.url)) });
  const runtime = new Runtime(core);
  runtime.useSha256((/** @type {string} */ text) =>
    createHash("sha256").update(text, "utf8").digest("hex"),
  );
  runtime.useInCoreSha256((/** @type {Uint8Array} */ utf8) =>
    createHash("sha256").update(utf8).digest("hex"),
  );
  runtime.markReady();
  runtime.grep.useLoader(async () => {
    const grep = await import("../wasm/tool_stub_grep.js");
    grep.initSync({
      module: readFileSync(new URL("../wasm/tool_stub_grep_bg.wasm", import.meta.url)),
    });
    return grep;
  });
  // Enhanced mode's module, read and compiled synchronously the first time an enhanced synopsis
  // is needed (enhanced-module.js): Node's synchronous calls need no load step.
  const loadEnhancedNow = () => {
    enhanced.initSync({
      module: readFileSync(new URL("../wasm/tool_stub_enhanced_bg.wasm", import.meta.url)),
    });
    return enhanced;
  };
  runtime.enhanced.useLoader(async () => loadEnhancedNow(), loadEnhancedNow);
  // The extras module, read and compiled the first time one of its calls is made (extras-module.js).
  runtime.extras.useLoader(async () => {
    extras.initSync({
      module: readFileSync(new URL("../wasm/tool_stub_extras_bg.wasm", import.meta.url)),
    });
    return extras;
  });
  return runtime;
}

/** The process's runtime: every ToolStub and call of the Node entry uses it. */
export const runtime = nodeRuntime();
