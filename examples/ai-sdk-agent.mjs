// An agent on the Vercel AI SDK whose large tool results reach the model as stubs, with the
// retrieval tools to read and search them. Run: `MODEL=openai/gpt-5-mini node examples/ai-sdk-agent.mjs`
// (a model id of the AI SDK's gateway, AI_GATEWAY_API_KEY set), or call `answer` with any model.
// @ts-check
import { generateText, jsonSchema, stepCountIs, tool } from "ai";
import { MemoryStore, ToolStub } from "tool-stub";
import { aiSdkTools, externalizingTool } from "tool-stub/ai-sdk";
import { fetchOrders, isMain } from "./orders.mjs";

/**
 * @param {import("ai").LanguageModel} model
 * @param {string} prompt
 */
export async function answer(model, prompt) {
  const ts = new ToolStub({ store: new MemoryStore(), sessionId: "chat-42" });
  const inputSchema = jsonSchema({ type: "object", properties: {}, additionalProperties: false });
  const tools = {
    fetch_orders: externalizingTool(
      ts,
      "fetch_orders",
      tool({ inputSchema, execute: fetchOrders }),
    ),
    ...aiSdkTools(ts, { jsonSchema }), // read / search / list for the model
  };
  const { text } = await generateText({ model, tools, prompt, stopWhen: stepCountIs(8) });
  return text;
}

if (isMain(import.meta.url)) {
  console.log(
    await answer(process.env.MODEL ?? "openai/gpt-5-mini", "Which order is held, and why?"),
  );
}
