// The page's entry for rollup.config.mjs.
import { init, ToolStub, MemoryStore } from "tool-stub/browser";

await init({ searchWorkerUrl: "./search-worker.js" }); // the worker input, next to the page
const ts = new ToolStub({ store: new MemoryStore(), sessionId: "chat-42" });
const [part] = await ts.externalize(
  [{ toolId: "c1", toolName: "fetch", output: "2026-01-01 INFO step ok\n".repeat(5000) }],
  { messageId: "m1" },
);
document.body.textContent = part.output;
