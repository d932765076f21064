// A plain Anthropic Messages loop: tool_use blocks of the retrieval tools go to `handleToolCall`,
// your own tools' results through `externalize`. Run: `ANTHROPIC_API_KEY=... node
// examples/anthropic-loop.mjs` (ANTHROPIC_BASE_URL for a compatible server; MODEL to choose).
// @ts-check
import Anthropic from "@anthropic-ai/sdk";
import { MemoryStore, ToolStub } from "tool-stub";
import { fetchOrders } from "./orders.mjs";

const anthropic = new Anthropic();
const ts = new ToolStub({ store: new MemoryStore(), sessionId: "chat-42" });

/** @type {import("@anthropic-ai/sdk/resources/messages").Tool[]} */
const myTools = [
  {
    name: "fetch_orders",
    description: "Fetch all orders as JSON",
    input_schema: { type: "object", properties: {} },
  },
];
const retrievalTools = ts.toolDefinitions({ format: "anthropic" });
const retrievalNames = new Set(retrievalTools.map((definition) => definition.name));
const tools = [...myTools, ...retrievalTools];

/** @type {import("@anthropic-ai/sdk/resources/messages").MessageParam[]} */
const messages = [{ role: "user", content: "Which order is held, and why?" }];
for (let step = 0; step < 8; step++) {
  const response = await anthropic.messages.create({
    model: process.env.MODEL ?? "claude-sonnet-4-5",
    max_tokens: 1024,
    messages,
    tools,
  });
  messages.push({ role: "assistant", content: response.content });
  const calls = response.content.filter((block) => block.type === "tool_use");
  if (calls.length === 0) {
    console.log(
      response.content.map((block) => (block.type === "text" ? block.text : "")).join(""),
    );
    break;
  }
  const own = calls.filter((call) => !retrievalNames.has(call.name));
  const parts = await ts.externalize(
    await Promise.all(
      own.map(async (call) => ({
        toolId: call.id,
        toolName: call.name,
        output: await fetchOrders(),
      })),
    ),
    { messageId: response.id },
  );
  /** @type {import("@anthropic-ai/sdk/resources/messages").ToolResultBlockParam[]} */
  const results = [];
  for (const call of calls) {
    const content = retrievalNames.has(call.name)
      ? JSON.stringify(await ts.handleToolCall(call.name, call.input))
      : (parts.find((part) => part.toolId === call.id)?.output ?? "");
    results.push({ type: "tool_result", tool_use_id: call.id, content });
  }
  messages.push({ role: "user", content: results });
}
