// The OpenAI Responses API: the retrieval tools in its strict function shape. Run:
// `OPENAI_API_KEY=... node examples/openai-responses.mjs` (OPENAI_BASE_URL, MODEL as you need).
// @ts-check
import OpenAI from "openai";
import { MemoryStore, ToolStub } from "tool-stub";
import { fetchOrders } from "./orders.mjs";

const openai = new OpenAI();
const ts = new ToolStub({ store: new MemoryStore(), sessionId: "chat-42" });
const [part] = await ts.externalize(
  [{ toolId: "call_1", toolName: "fetch_orders", output: await fetchOrders() }],
  { messageId: "m1" },
);

/** @type {import("openai/resources/responses/responses").ResponseInput} */
const input = [
  { role: "user", content: `The orders tool answered:\n${part.output}\nWhich order is held?` },
];
const model = process.env.MODEL ?? "gpt-5-mini";
for (let step = 0; step < 8; step++) {
  const response = await openai.responses.create({
    model,
    input,
    tools: ts.toolDefinitions({ format: "openai-responses" }),
  });
  const calls = response.output.filter((item) => item.type === "function_call");
  if (calls.length === 0) {
    console.log(response.output_text);
    break;
  }
  input.push(...calls);
  for (const call of calls) {
    const result = await ts.handleToolCall(call.name, call.arguments);
    input.push({
      type: "function_call_output",
      call_id: call.call_id,
      output: JSON.stringify(result),
    });
  }
}
