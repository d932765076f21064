// docs/context-governor.md, runnable: `node examples/context-governor.mjs` after
// `npm install tool-stub gpt-tokenizer`. A 12-step agent conversation (Chat Completions shape)
// kept under a 128,000-token window: older tool results become stubs and one-line references.
// @ts-check
import { ToolStub } from "tool-stub";
import {
  fitContextPrepareStep,
  fitContextInputFilter,
  fitContextMiddleware,
} from "tool-stub/context";

// Stands in for an agent's history: twelve calls, each returning ~12,000 tokens of JSON.
/** @type {any[]} */
const history = [{ role: "user", content: "Which orders are held?" }];
for (let step = 0; step < 12; step++) {
  const id = `call_${step}`;
  const orders = Array.from({ length: 300 }, (_, i) => ({
    id: `ord_${step}_${i}`,
    status: i === 123 ? "held" : "shipped",
    note: `batch ${step} order ${i} left the warehouse on time`,
  }));
  history.push(
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id, type: "function", function: { name: "list_orders", arguments: "{}" } }],
    },
    { role: "tool", tool_call_id: id, content: JSON.stringify({ orders }, null, 2) },
  );
}

const ts = new ToolStub({ sessionId: "chat-42" });
const { messages, changed, tokensBefore, tokensAfter, cleared } = await ts.fitContext(history, {
  format: "openai", // "openai-responses" | "anthropic" | "ai-sdk" | "openai-agents" | "langchain"
  contextWindow: 128_000, // tokens
  trigger: 0.75, // start clearing past 75% of the window (or a token count)
  target: 0.45, // clear down to 45% (or a token count; at most trigger)
  clearAtLeast: 0.15, // in whole batches of 15% of the window
  keepRecent: 3, // the last 3 tool results are never touched
  excludeTools: ["memory"], // nor results of these tools
  pinned: ["call_7"], // nor these tool calls' results
  tokenizer: "o200k", // or countTokens: (text) => number
});
console.log(`changed: ${changed}, ${tokensBefore} tokens before, ${tokensAfter} after`);
console.log(`${cleared.length} results cleared; the first now reads:`);
console.log(messages.find((m) => m.tool_call_id === "call_0").content);
const { matches } = await ts.search(cleared[0], { query: '"held"', limit: 1 });
console.log(`still searchable: ${matches.length} match at offset ${matches[0]?.offset}`);

// The same governor as each SDK's hook (see the SDK tests in tests/js/context-agents.test.js).
// AI SDK: generateText({ model, tools, messages, prepareStep })
const prepareStep = fitContextPrepareStep(ts, { contextWindow: 128_000 });
// OpenAI Agents SDK: run(agent, input, { callModelInputFilter })
const callModelInputFilter = fitContextInputFilter(ts, { contextWindow: 128_000 });
// LangChain: createAgent({ model, tools, middleware: [createMiddleware(middleware)] })
const middleware = fitContextMiddleware(ts, { contextWindow: 128_000 });
console.log(typeof prepareStep, typeof callModelInputFilter, middleware.name);
