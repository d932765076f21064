// A plain OpenAI Chat Completions loop: your tools' results go through `externalize` (one call per
// step, so the turn budget applies across parallel calls), and the model's retrieval calls go to
// `handleToolCall`. Run: `OPENAI_API_KEY=... node examples/openai-chat-loop.mjs` (OPENAI_BASE_URL
// for any OpenAI-compatible server; MODEL to choose the model).
// @ts-check
import OpenAI from "openai";
import { MemoryStore, ToolStub } from "tool-stub";
import { fetchOrders } from "./orders.mjs";

const client = new OpenAI();
const ts = new ToolStub({ store: new MemoryStore(), sessionId: "chat-42" });

/** @type {import("openai/resources/chat/completions").ChatCompletionTool[]} */
const myTools = [
  {
    type: "function",
    function: {
      name: "fetch_orders",
      description: "Fetch all orders as JSON",
      parameters: { type: "object", properties: {}, additionalProperties: false },
    },
  },
];
const retrievalTools = ts.toolDefinitions({ format: "openai" });
const retrievalNames = new Set(retrievalTools.map((definition) => definition.function.name));
const tools = [...myTools, ...retrievalTools];

/** @type {import("openai/resources/chat/completions").ChatCompletionMessageParam[]} */
const messages = [{ role: "user", content: "Which order is held, and why?" }];
for (let step = 0; step < 8; step++) {
  const completion = await client.chat.completions.create({
    model: process.env.MODEL ?? "gpt-5-mini",
    messages,
    tools,
  });
  const message = completion.choices[0].message;
  messages.push(message);
  const calls = (message.tool_calls ?? []).filter((call) => call.type === "function");
  if (calls.length === 0) {
    console.log(message.content);
    break;
  }
  // This step's own tool results, stored or passed inline as one turn.
  const own = calls.filter((call) => !retrievalNames.has(call.function.name));
  const outputs = await Promise.all(
    own.map(async (call) => ({
      toolId: call.id,
      toolName: call.function.name,
      output: await fetchOrders(),
    })),
  );
  const parts = await ts.externalize(outputs, { messageId: completion.id });
  for (const call of calls) {
    const content = retrievalNames.has(call.function.name)
      ? JSON.stringify(await ts.handleToolCall(call.function.name, call.function.arguments)) // a JSON string is fine
      : (parts.find((part) => part.toolId === call.id)?.output ?? "");
    messages.push({ role: "tool", tool_call_id: call.id, content });
  }
}
