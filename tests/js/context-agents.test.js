// The context governor where agents run it, each with the real package and a scripted model:
// the AI SDK (prepareStep, its mock model), the OpenAI Agents SDK (callModelInputFilter), a
// LangChain createAgent middleware, and plain OpenAI and Anthropic loops, the last three against
// a local OpenAI-/Anthropic-compatible HTTP server on 127.0.0.1 (a port of its own, always closed).
import { after, before, describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { createServer } from "node:http";
import * as path from "node:path";
import { generateText, jsonSchema, stepCountIs, tool as aiTool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import OpenAI from "openai";
import Anthropic from "@anthropic-ai/sdk";
import {
  Agent,
  OpenAIChatCompletionsModel,
  run,
  setTracingDisabled,
  tool as agentTool,
} from "@openai/agents";
import { createAgent, createMiddleware, tool as lcTool } from "langchain";
import { ChatOpenAI } from "@langchain/openai";
import { z } from "zod";
import { ToolStub, ROOT } from "./pkg.js";
import { jsonRows } from "./context-conversations.js";
import { textStep, toolCallStep } from "./fixtures/mock-steps.mjs";

const { fitContextPrepareStep, fitContextInputFilter, fitContextMiddleware } = await import(
  path.join(ROOT, "pkg/js/context/index.js")
);
const { aiSdkTools } = await import(path.join(ROOT, "pkg/js/ai-sdk.js"));

const countTokens = (text) => Math.ceil(text.length / 4);
/** Six calls of ~3,000 tokens each: the budget is passed after the fourth. */
const CALLS = 6;
const output = (page) => jsonRows(120, `p${page}`);
const budget = { trigger: 10_000, target: 6_000, keepRecent: 2, countTokens };
const RAW = output(0).length;

/** Asserts the model's last request had the older results cleared, each readable by ref. */
async function assertCleared(ts, toolTexts) {
  assert.equal(toolTexts.length, CALLS);
  const cleared = toolTexts.filter((text) => /ref: viking:\/\//.test(text));
  assert.ok(cleared.length >= 2, `${cleared.length} results cleared`);
  // The last keepRecent results are as the tool returned them.
  for (const text of toolTexts.slice(-2)) assert.equal(text.length, RAW);
  for (const text of cleared) {
    assert.ok(text.length < RAW / 2);
    const ref = /ref: (viking:\/\/\S+?)[;\n]/.exec(text)[1];
    const { content } = await ts.read(ref, { limit: -1 });
    assert.match(content, /^\{\n {2}"data": \[/);
    assert.equal(content.length, RAW);
  }
}

/** How many requests changed a message an earlier request had already sent (prompt prefix). */
function prefixChanges(bodies) {
  let changes = 0;
  for (let i = 1; i < bodies.length; i++) {
    const before = bodies[i - 1].messages;
    if (before.some((m, j) => JSON.stringify(m) !== JSON.stringify(bodies[i].messages[j])))
      changes++;
  }
  return changes;
}

/**
 * A scripted model server: OpenAI Chat Completions at /v1/chat/completions and Anthropic
 * Messages at /v1/messages. It calls `fetch_page` until it has CALLS results, then answers.
 */
function scriptedServer() {
  const requests = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      const request = JSON.parse(body);
      requests.push({ url: req.url, body: request });
      res.setHeader("content-type", "application/json");
      if (req.url.endsWith("/chat/completions")) {
        const results = request.messages.filter((m) => m.role === "tool").length;
        const message =
          results < CALLS
            ? {
                role: "assistant",
                content: null,
                tool_calls: [
                  {
                    id: `call_${results}`,
                    type: "function",
                    function: { name: "fetch_page", arguments: JSON.stringify({ page: results }) },
                  },
                ],
              }
            : { role: "assistant", content: "done" };
        res.end(
          JSON.stringify({
            id: `chatcmpl-${requests.length}`,
            object: "chat.completion",
            created: 1,
            model: request.model,
            choices: [
              { index: 0, message, finish_reason: message.tool_calls ? "tool_calls" : "stop" },
            ],
            usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
          }),
        );
      } else if (req.url.endsWith("/messages")) {
        const results = request.messages
          .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
          .filter((b) => b.type === "tool_result").length;
        const content =
          results < CALLS
            ? [
                {
                  type: "tool_use",
                  id: `toolu_${results}`,
                  name: "fetch_page",
                  input: { page: results },
                },
              ]
            : [{ type: "text", text: "done" }];
        res.end(
          JSON.stringify({
            id: `msg_${requests.length}`,
            type: "message",
            role: "assistant",
            model: request.model,
            content,
            stop_reason: results < CALLS ? "tool_use" : "end_turn",
            stop_sequence: null,
            usage: { input_tokens: 1, output_tokens: 1 },
          }),
        );
      } else {
        res.statusCode = 404;
        res.end("{}");
      }
    });
  });
  return { server, requests };
}

describe("the context governor in agent loops", () => {
  const { server, requests } = scriptedServer();
  let baseURL;
  before(async () => {
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseURL = `http://127.0.0.1:${server.address().port}`;
    setTracingDisabled(true);
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const lastRequest = (suffix) => requests.filter((r) => r.url.endsWith(suffix)).at(-1).body;

  it("AI SDK: prepareStep fits each step; the model searches a cleared result by its ref", async () => {
    const ts = new ToolStub({ sessionId: "ai-sdk" });
    const prompts = [];
    let searched;
    const model = new MockLanguageModelV3({
      doGenerate: async ({ prompt }) => {
        prompts.push(prompt);
        const step = prompts.length - 1;
        if (step < CALLS) return toolCallStep(`c${step}`, "fetch_page", { page: step });
        if (step === CALLS) {
          const first = prompt
            .filter((m) => m.role === "tool")
            .flatMap((m) => m.content)
            .find((p) => p.toolCallId === "c0");
          const ref = /ref: (viking:\/\/\S+?)[;\n]/.exec(first.output.value)[1];
          return toolCallStep("s", "openviking_tool_result_search", { ref, query: "needle_p0" });
        }
        searched = prompt.at(-1).content[0].output.value;
        return textStep("done");
      },
    });
    const tools = {
      fetch_page: aiTool({
        description: "Fetch a page of orders",
        inputSchema: jsonSchema({ type: "object", properties: { page: { type: "number" } } }),
        execute: async ({ page }) => output(page),
      }),
      ...aiSdkTools(ts, { jsonSchema }),
    };
    const { text } = await generateText({
      model,
      tools,
      prompt: "Find the needle.",
      stopWhen: stepCountIs(CALLS + 3),
      prepareStep: fitContextPrepareStep(ts, budget),
    });
    assert.equal(text, "done");
    const toolTexts = prompts[CALLS]
      .filter((m) => m.role === "tool")
      .flatMap((m) => m.content)
      .map((p) => p.output.value);
    await assertCleared(ts, toolTexts);
    // The search through the retrieval tool found the needle in the cleared output.
    assert.ok(searched.matches.length > 0, JSON.stringify(searched).slice(0, 300));
    assert.match(searched.matches[0].snippet, /needle_p0/);
  });

  it("OpenAI Agents SDK: callModelInputFilter fits the model input", async () => {
    const ts = new ToolStub({ sessionId: "agents" });
    const client = new OpenAI({ apiKey: "test", baseURL: `${baseURL}/v1` });
    const agent = new Agent({
      name: "pager",
      instructions: "Fetch pages.",
      model: new OpenAIChatCompletionsModel(client, "gpt-4o"),
      tools: [
        agentTool({
          name: "fetch_page",
          description: "Fetch a page of orders",
          parameters: z.object({ page: z.number() }),
          execute: async ({ page }) => output(page),
        }),
      ],
    });
    const first = requests.length;
    const result = await run(agent, "Fetch six pages.", {
      callModelInputFilter: fitContextInputFilter(ts, budget),
      maxTurns: CALLS + 2,
    });
    assert.equal(result.finalOutput, "done");
    // The filter keeps what it fitted: the prompt prefix changed once, at the one clearing.
    assert.equal(prefixChanges(requests.slice(first).map((r) => r.body)), 1);
    const sent = lastRequest("/chat/completions").messages.filter((m) => m.role === "tool");
    await assertCleared(
      ts,
      sent.map((m) =>
        typeof m.content === "string" ? m.content : m.content.map((p) => p.text).join(""),
      ),
    );
  });

  it("LangChain createAgent: the middleware hands the model the fitted messages", async () => {
    const ts = new ToolStub({ sessionId: "langchain" });
    const agent = createAgent({
      model: new ChatOpenAI({
        model: "gpt-4o",
        apiKey: "test",
        configuration: { baseURL: `${baseURL}/v1` },
      }),
      tools: [
        lcTool(async ({ page }) => output(page), {
          name: "fetch_page",
          description: "Fetch a page of orders",
          schema: z.object({ page: z.number() }),
        }),
      ],
      middleware: [createMiddleware(fitContextMiddleware(ts, budget))],
    });
    const first = requests.length;
    const state = await agent.invoke({ messages: [{ role: "user", content: "Fetch six pages." }] });
    assert.equal(prefixChanges(requests.slice(first).map((r) => r.body)), 1);
    assert.equal(state.messages.at(-1).content, "done");
    // The agent's state keeps every output as it was; the model got the fitted conversation.
    const kept = state.messages.filter((m) => m.type === "tool" || m._getType?.() === "tool");
    assert.ok(kept.every((m) => m.content.length === RAW));
    const sent = lastRequest("/chat/completions").messages.filter((m) => m.role === "tool");
    await assertCleared(
      ts,
      sent.map((m) => m.content),
    );
  });

  it("a plain OpenAI loop: fitContext before each call, the fitted history kept", async () => {
    const ts = new ToolStub({ sessionId: "openai-loop" });
    const client = new OpenAI({ apiKey: "test", baseURL: `${baseURL}/v1` });
    let messages = [{ role: "user", content: "Fetch six pages." }];
    const prefixes = [];
    for (let turn = 0; turn < CALLS + 1; turn++) {
      messages = (await ts.fitContext(messages, { format: "openai", ...budget })).messages;
      prefixes.push(messages);
      const response = await client.chat.completions.create({ model: "gpt-4o", messages });
      const message = response.choices[0].message;
      messages = [...messages, message];
      for (const c of message.tool_calls ?? [])
        messages.push({
          role: "tool",
          tool_call_id: c.id,
          content: output(JSON.parse(c.function.arguments).page),
        });
    }
    assert.equal(messages.at(-1).content, "done");
    const sent = lastRequest("/chat/completions").messages.filter((m) => m.role === "tool");
    await assertCleared(
      ts,
      sent.map((m) => m.content),
    );
    // The prompt prefix changed once: at the one clearing.
    let changes = 0;
    for (let i = 1; i < prefixes.length; i++)
      if (prefixes[i - 1].some((m, j) => JSON.stringify(m) !== JSON.stringify(prefixes[i][j])))
        changes++;
    assert.equal(changes, 1);
  });

  it("a plain Anthropic loop: tool_result blocks cleared, readable by ref", async () => {
    const ts = new ToolStub({ sessionId: "anthropic-loop" });
    const client = new Anthropic({ apiKey: "test", baseURL });
    let messages = [{ role: "user", content: "Fetch six pages." }];
    for (let turn = 0; turn < CALLS + 1; turn++) {
      messages = (await ts.fitContext(messages, { format: "anthropic", ...budget })).messages;
      const response = await client.messages.create({
        model: "claude-test",
        max_tokens: 100,
        messages,
      });
      messages = [...messages, { role: "assistant", content: response.content }];
      const uses = response.content.filter((b) => b.type === "tool_use");
      if (uses.length > 0)
        messages.push({
          role: "user",
          content: uses.map((u) => ({
            type: "tool_result",
            tool_use_id: u.id,
            content: output(u.input.page),
          })),
        });
    }
    assert.equal(messages.at(-1).content[0].text, "done");
    const sent = lastRequest("/messages")
      .messages.flatMap((m) => (Array.isArray(m.content) ? m.content : []))
      .filter((b) => b.type === "tool_result")
      .map((b) =>
        typeof b.content === "string" ? b.content : b.content.map((p) => p.text).join(""),
      );
    await assertCleared(ts, sent);
  });
});
