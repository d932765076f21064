// The README's Node example, runnable: `node examples/node-quickstart.mjs` after `npm install tool-stub`.
// @ts-check
import { ToolStub } from "tool-stub";
import { NodeFsStore } from "tool-stub/node";

// Stands in for a large tool output: 2,000 orders as JSON (~150 KB).
const orders = Array.from({ length: 2000 }, (_, i) => ({
  id: `ord_${i}`,
  status: i === 1234 ? "held" : "shipped",
  total: Math.round(i * 13.7) / 100,
}));
const hugeJsonText = JSON.stringify({ orders, has_more: true, next_cursor: "c_2000" });

const ts = new ToolStub({ store: new NodeFsStore(".tool-stub"), sessionId: "chat-42" });
const [part] = await ts.externalize(
  [{ toolId: "call_1", toolName: "http_get", output: hugeJsonText, mimeType: "application/json" }],
  { messageId: "msg_7" },
);
console.log(part.output); // the stub the model sees, with its ref
if (part.outputRef) {
  const { content } = await ts.read(part.outputRef, { offset: 0, limit: 2000 });
  console.log(`read ${content.length} chars back`);
}
