// A page bundled by esbuild, which does not emit the wasm files: the binary loader inlines them and
// `init` hands them over. Build (ESM; the default iife needs the code below in an async function):
// esbuild app.js --bundle --loader:.wasm=binary --outfile=out.js      (iife; or --format=esm)
// @ts-check
import { init, ToolStub, IndexedDbStore } from "tool-stub/browser";
import core from "tool-stub/wasm/tool_stub_bg.wasm"; // Uint8Array (binary loader)
import grep from "tool-stub/wasm/tool_stub_grep_bg.wasm"; // only for regex/ignoreCase/wholeWord
import enhanced from "tool-stub/wasm/tool_stub_enhanced_bg.wasm"; // only for synopsisMode "enhanced"
import extras from "tool-stub/wasm/tool_stub_extras_bg.wasm"; // refs, structured reads, fitContext, restore, searchAll
await init({ bytes: core, grepBytes: grep, enhancedBytes: enhanced, extrasBytes: extras }); // or init({ url }), init({ module });
// in an async function for iife

const ts = new ToolStub({
  store: new IndexedDbStore({ dbName: "my-agent" }),
  sessionId: "chat-42",
});
const bigText = "2026-01-01 INFO step ok\n".repeat(5000);
const [part] = await ts.externalize([{ toolId: "c1", toolName: "fetch", output: bigText }], {
  messageId: "m1",
});
document.body.textContent = part.output;
