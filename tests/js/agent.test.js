// Agent integration: tool definitions in three SDK shapes, the dispatcher's model-readable errors,
// a real AI SDK tool loop with a mock model, and delete / usage / retention on every store.
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import * as path from "node:path";
import Ajv from "ajv";
import { generateText, jsonSchema, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { ToolStub, MemoryStore, NodeFsStore, ToolStubError, ROOT } from "./pkg.js";
import { tempDir } from "./temp.js";
import { textStep, toolCallStep, toolCallsStep } from "./fixtures/mock-steps.mjs";

const { aiSdkTools, externalizingTool } = await import(path.join(ROOT, "pkg/js/ai-sdk.js"));
const { IndexedDbStore } = await import(path.join(ROOT, "pkg/js/stores/indexeddb.js"));

const orders = JSON.stringify(
  {
    data: Array.from({ length: 2500 }, (_, i) => ({
      id: `ord_${i}`,
      status: i === 2222 ? "lost_in_transit" : "delivered",
      total: i * 3,
    })),
  },
  null,
  2,
);

describe("tool definitions", () => {
  const ts = new ToolStub({ sessionId: "d1" });
  const ajv = new Ajv({ strict: false });

  it("are valid JSON Schema in the OpenAI, Anthropic and plain shapes", () => {
    const openai = ts.toolDefinitions({ format: "openai" });
    const anthropic = ts.toolDefinitions({ format: "anthropic" });
    const plain = ts.toolDefinitions({ format: "json-schema" });
    assert.deepEqual(
      openai.map((t) => t.function.name),
      [
        "openviking_tool_result_read",
        "openviking_tool_result_search",
        "openviking_tool_result_list",
        "openviking_tool_result_search_all",
      ],
    );
    for (const t of openai) {
      assert.equal(t.type, "function");
      assert.ok(ajv.validateSchema(t.function.parameters), ajv.errorsText());
      assert.equal(typeof t.function.description, "string");
    }
    for (const t of anthropic) {
      assert.deepEqual(Object.keys(t).sort(), ["description", "input_schema", "name"]);
      assert.ok(ajv.validateSchema(t.input_schema));
    }
    const read = ajv.compile(plain[0].parameters);
    assert.ok(read({ ref: "x", offset: 0, limit: 10 }));
    assert.ok(!read({ offset: 0 }));
    assert.ok(!read({ ref: "x", bogus: 1 }));
  });

  it("are strict in both OpenAI formats, and a strict model's nulls are read as 'not given'", async () => {
    const chat = ts.toolDefinitions({ format: "openai" });
    const responses = ts.toolDefinitions({ format: "openai-responses" });
    assert.equal(responses.length, chat.length);
    const [out] = await ts.externalize([{ toolId: "c", toolName: "fetch", output: orders }], {
      messageId: "strict",
    });
    for (const [i, t] of chat.entries()) {
      assert.equal(t.function.strict, true);
      assert.deepEqual(Object.keys(responses[i]).sort(), [
        "description",
        "name",
        "parameters",
        "strict",
        "type",
      ]);
      assert.deepEqual(responses[i], {
        type: "function",
        name: t.function.name,
        description: t.function.description,
        parameters: t.function.parameters,
        strict: true,
      });
      const schema = t.function.parameters;
      assert.deepEqual(
        schema.required,
        Object.keys(schema.properties),
        `${t.function.name}: every property is required`,
      );
      // What a strict model sends: every argument, null where it has nothing to say.
      const args = Object.fromEntries(
        Object.entries(schema.properties).map(([key, p]) => [
          key,
          Array.isArray(p.type) ? null : key === "ref" ? out.outputRef : "order",
        ]),
      );
      assert.ok(ajv.validate(schema, args), ajv.errorsText());
      const result = await ts.handleToolCall(t.function.name, JSON.stringify(args));
      assert.equal(result.error, undefined, `${t.function.name}: ${JSON.stringify(result.error)}`);
    }
  });

  it("use the configured names, in the definitions and the stubs' Explore lines", async () => {
    const names = {
      read: "peek",
      search: "grep_output",
      list: "outputs",
      searchAll: "grep_everything",
    };
    const named = new ToolStub({ sessionId: "d2", config: { toolNames: names } });
    assert.deepEqual(
      named.toolDefinitions({ format: "anthropic" }).map((t) => t.name),
      ["peek", "grep_output", "outputs", "grep_everything"],
    );
    const [out] = await named.externalize([{ toolId: "c", toolName: "fetch", output: orders }], {
      messageId: "m",
    });
    assert.match(out.output, /- Use grep_output with ref=/);
    assert.match(out.output, /- Use peek with ref=.* and offset\/limit/);
    assert.match(out.output, /- Use outputs to discover/);
    assert.throws(
      () => named.toolDefinitions({ format: "gemini" }),
      (e) => e instanceof ToolStubError && e.code === "INVALID_ARGUMENT",
    );
  });
});

describe("handleToolCall", () => {
  it("runs valid calls and bounds what they return", async () => {
    const ts = new ToolStub({ sessionId: "h1", config: { maxResultChars: 5000 } });
    const [out] = await ts.externalize([{ toolId: "c", toolName: "fetch", output: orders }], {
      messageId: "m",
    });
    const read = await ts.handleToolCall("openviking_tool_result_read", {
      ref: out.outputRef,
      limit: -1,
    });
    assert.equal(read.content.length, 5000);
    assert.equal(read.has_more, true);
    const search = await ts.handleToolCall(
      "openviking_tool_result_search",
      JSON.stringify({ ref: out.outputRef, query: "delivered", limit: 1000 }),
    );
    assert.ok(JSON.stringify(search.matches).length <= 5000);
    assert.ok(search.left_out > 0 && /left out/.test(search.note));
    const list = await ts.handleToolCall("openviking_tool_result_list", {});
    assert.deepEqual(Object.keys(list.tool_results[0]), [
      "ref",
      "tool_name",
      "kind",
      "chars",
      "created_at",
      "summary",
    ]);
    assert.equal(list.tool_results[0].ref, out.outputRef);
    assert.equal(list.total_results, 1);
    const full = await ts.handleToolCall("openviking_tool_result_list", { full: true });
    assert.equal(full.tool_results[0].storage_uri, out.outputRef);
  });

  it("lists lean entries, newest first, paged, with the total", async () => {
    const times = ["2026-01-01T00:00:00Z", "2026-01-03T00:00:00Z", "2026-01-02T00:00:00Z"];
    let turn = 0;
    const ts = new ToolStub({
      sessionId: "hl",
      config: { thresholdChars: 100 },
      now: () => times[turn],
    });
    const refs = [];
    for (turn = 0; turn < times.length; turn++) {
      const [p] = await ts.externalize(
        [
          {
            toolId: `c${turn}`,
            toolName: turn === 1 ? "b" : "a",
            output: `# out ${turn}\n${"x ".repeat(200)}`,
          },
        ],
        { messageId: `m${turn}` },
      );
      refs.push(p.outputRef);
    }
    const newest = await ts.handleToolCall("openviking_tool_result_list", { order: "newest" });
    assert.deepEqual(
      newest.tool_results.map((r) => r.ref),
      [refs[1], refs[2], refs[0]],
    );
    assert.equal(newest.tool_results[0].created_at, times[1]);
    const page = await ts.handleToolCall("openviking_tool_result_list", { limit: 2, offset: 1 });
    assert.equal(page.total_results, 3);
    assert.equal(page.has_more, false);
    assert.deepEqual(
      page.tool_results.map((r) => r.ref),
      [...refs].sort().slice(1),
    );
    const filtered = await ts.handleToolCall("openviking_tool_result_list", { tool_name: "b" });
    assert.deepEqual(
      filtered.tool_results.map((r) => r.ref),
      [refs[1]],
    );
    assert.equal(filtered.total_results, 1);
    const bad = await ts.handleToolCall("openviking_tool_result_list", { order: "oldest" });
    assert.match(bad.error.message, /order/);
  });

  it("returns model-readable errors instead of throwing", async () => {
    const ts = new ToolStub({ sessionId: "h2" });
    const cases = [
      ["no_such_tool", {}, /unknown tool/],
      ["openviking_tool_result_read", {}, /missing required argument "ref"/],
      ["openviking_tool_result_read", { ref: 12 }, /"ref" must be a string, got number/],
      [
        "openviking_tool_result_search",
        { ref: "tr_x", query: "q", limit: "5" },
        /"limit" must be an integer, got string/,
      ],
      ["openviking_tool_result_search", { ref: "tr_x" }, /missing required argument "query"/],
      ["openviking_tool_result_read", "{not json", /not valid JSON/],
      ["openviking_tool_result_read", { ref: "tr_missing" }, /no tool result tr_missing/],
    ];
    for (const [name, args, message] of cases) {
      const result = await ts.handleToolCall(name, args);
      assert.ok(result.error, `${name} ${JSON.stringify(args)} gave no error`);
      assert.match(result.error.message, message);
      assert.ok(["INVALID_ARGUMENT", "NOT_FOUND"].includes(result.error.code));
      assert.doesNotThrow(() => JSON.stringify(result));
    }
    const unknown = await ts.handleToolCall("no_such_tool", {});
    assert.deepEqual(unknown.error.allowed.tools, [
      "openviking_tool_result_read",
      "openviking_tool_result_search",
      "openviking_tool_result_list",
      "openviking_tool_result_search_all",
    ]);
    const twoModes = await ts.handleToolCall("openviking_tool_result_read", {
      ref: "tr_x",
      line: 1,
      json_pointer: "/a",
    });
    assert.match(twoModes.error.message, /one read mode per call/);
  });

  it("runs the extended calls: line, JSON pointer and row reads, regex search, session-wide search", async () => {
    const ts = new ToolStub({ sessionId: "h3", config: { thresholdChars: 100 } });
    const log = Array.from(
      { length: 300 },
      (_, i) => `2026-11-30 ${i % 50 === 7 ? "ERROR" : "INFO"} step ${i}`,
    ).join("\n");
    const table = `id,name\n${Array.from({ length: 100 }, (_, i) => `${i},"name, ${i}"`).join("\n")}`;
    const [logPart, jsonPart, tablePart] = await ts.externalize(
      [
        { toolId: "log", toolName: "tail", output: log },
        { toolId: "json", toolName: "fetch", output: orders, mimeType: "application/json" },
        { toolId: "csv", toolName: "query", output: table },
      ],
      { messageId: "m" },
    );
    const lines = await ts.handleToolCall("openviking_tool_result_read", {
      ref: logPart.outputRef,
      line: 8,
      lines: 2,
    });
    assert.equal(lines.start_line, 8);
    assert.match(lines.content, /^2026-11-30 ERROR step 7\n2026-11-30 INFO step 8/);
    const pointer = await ts.handleToolCall("openviking_tool_result_read", {
      ref: jsonPart.outputRef,
      json_pointer: "/data/2222",
    });
    assert.match(pointer.content, /lost_in_transit/);
    const rows = await ts.handleToolCall("openviking_tool_result_read", {
      ref: tablePart.outputRef,
      row_start: 5,
      row_count: 2,
    });
    assert.match(rows.content, /^id,name\n4,"name, 4"\n5,"name, 5"/);
    const grep = await ts.handleToolCall("openviking_tool_result_search", {
      ref: logPart.outputRef,
      query: "error step \\d+",
      regex: true,
      ignore_case: true,
      context_chars: 0,
    });
    assert.equal(grep.total_matches, 6);
    assert.equal(grep.matches[0].line, 8);
    assert.equal(grep.matches[0].snippet, "ERROR step 7");
    const everywhere = await ts.handleToolCall("openviking_tool_result_search_all", {
      query: "lost_in_transit",
    });
    assert.equal(everywhere.results[0].ref, jsonPart.outputRef);
    // Newest first, stopping at `limit` outputs: the older outputs are left unsearched.
    const newest = await ts.handleToolCall("openviking_tool_result_search_all", {
      query: "2",
      order: "newest",
      limit: 1,
    });
    assert.deepEqual(
      [newest.results.length, newest.results[0].ref, newest.unsearched],
      [1, tablePart.outputRef, 2],
    );
    const badOrder = await ts.handleToolCall("openviking_tool_result_search_all", {
      query: "x",
      order: "oldest",
    });
    assert.equal(badOrder.error.code, "INVALID_ARGUMENT");
    assert.match(badOrder.error.message, /"order" must be "relevance" or "newest"/);
    const badRegex = await ts.handleToolCall("openviking_tool_result_search", {
      ref: logPart.outputRef,
      query: "(",
      regex: true,
    });
    assert.equal(badRegex.error.code, "INVALID_ARGUMENT");
  });
});

describe("Vercel AI SDK loop with a mock model", () => {
  it("the model sees a stub, searches, reads, and gets the right content back", async () => {
    const ts = new ToolStub({ sessionId: "ai1" });
    const bigJson = JSON.stringify({
      orders: Array.from({ length: 9000 }, (_, i) => ({
        id: i,
        note: i === 7182 ? "NEEDLE-shipment-held-at-customs" : `shipment ${i} delivered on time`,
      })),
    });
    assert.ok(bigJson.length > 300_000, "a 300 KB tool output");
    const tools = {
      fetch_orders: externalizingTool(
        ts,
        "fetch_orders",
        tool({
          description: "Fetch all orders",
          inputSchema: jsonSchema({ type: "object", properties: {}, additionalProperties: false }),
          execute: async () => bigJson,
        }),
      ),
      ...aiSdkTools(ts, { jsonSchema }),
    };
    const seen = [];
    const toolResultOf = (prompt) => {
      const last = prompt.at(-1);
      assert.equal(last.role, "tool");
      const part = last.content.find((c) => c.type === "tool-result");
      return part.output.type === "text" ? part.output.value : part.output.value;
    };
    let ref;
    let hitOffset;
    const model = new MockLanguageModelV3({
      doGenerate: async ({ prompt }) => {
        const step = seen.length;
        if (step === 0) {
          seen.push("start");
          return toolCallStep("c1", "fetch_orders", {});
        }
        const result = toolResultOf(prompt);
        seen.push(result);
        if (step === 1) {
          ref = /ref: (\S+)/.exec(result)[1];
          return toolCallStep("c2", "openviking_tool_result_search", {
            ref,
            query: "NEEDLE",
            context_chars: 10,
          });
        }
        if (step === 2) {
          hitOffset = result.matches[0].offset;
          return toolCallStep("c3", "openviking_tool_result_read", {
            ref,
            offset: hitOffset - 20,
            limit: 60,
          });
        }
        return textStep(`found: ${result.content}`);
      },
    });
    const { text, steps } = await generateText({
      model,
      tools,
      prompt: "Which order is held?",
      stopWhen: stepCountIs(6),
    });
    assert.equal(steps.length, 4);
    const stub = seen[1];
    assert.equal(typeof stub, "string");
    assert.ok(stub.length < 3000, `the model saw ${stub.length} chars, not the stub`);
    assert.match(
      stub,
      /^\[OpenViking tool result externalized\]\ntool_name: fetch_orders\nkind: json/,
    );
    assert.equal(hitOffset, bigJson.indexOf("NEEDLE"));
    assert.equal(seen[3].content, bigJson.slice(hitOffset - 20, hitOffset + 40));
    assert.match(text, /NEEDLE-shipment-held-at-customs/);
  });
});

describe("externalizingTool: the tool calls of one step are one turn", () => {
  // Six results of 19,000 chars: each under the 20,000 threshold, 114,000 together (budget 100,000).
  const result = (i) => `line ${i} `.repeat(19_000 / 8).padEnd(19_000, "x");
  const wrapped = (ts, name) =>
    externalizingTool(
      ts,
      name,
      tool({
        description: name,
        inputSchema: jsonSchema({
          type: "object",
          properties: { i: { type: "integer" } },
          required: ["i"],
          additionalProperties: false,
        }),
        execute: async ({ i }) => {
          if (i === 99) throw new Error("tool failed");
          await new Promise((resolve) => setTimeout(resolve, i)); // results come back at different times
          return result(i);
        },
      }),
    );

  it("parallel calls of one step share the turn budget (generateText with six calls in one step)", async () => {
    const ts = new ToolStub({ sessionId: "ai-step" });
    const tools = { logs: wrapped(ts, "logs"), metrics: wrapped(ts, "metrics") };
    let seen;
    const model = new MockLanguageModelV3({
      doGenerate: async ({ prompt }) => {
        if (seen === undefined) {
          seen = [];
          return toolCallsStep(
            Array.from({ length: 6 }, (_, i) => ({
              id: `c${i}`,
              toolName: i % 2 ? "metrics" : "logs",
              input: { i },
            })),
          );
        }
        seen = prompt
          .at(-1)
          .content.filter((c) => c.type === "tool-result")
          .map((c) => c.output.value);
        return textStep("done");
      },
    });
    await generateText({ model, tools, prompt: "go", stopWhen: stepCountIs(3) });
    assert.equal(seen.length, 6);
    const inlineChars = seen.reduce((sum, text) => sum + text.length, 0);
    assert.ok(inlineChars <= 100_000, `the model got ${inlineChars} chars from one step`);
    const stubs = seen.filter((text) => text.startsWith("[OpenViking tool result externalized]"));
    assert.ok(
      stubs.length >= 1 && stubs.every((stub) => /reason: turn_budget/.test(stub)),
      "the step's largest results went out for the turn budget",
    );
    assert.deepEqual(
      seen.filter((text) => !stubs.includes(text)),
      [0, 1, 2, 3, 4, 5].map(result).filter((text) => seen.includes(text)),
    );
    assert.equal((await ts.usage()).results, stubs.length);
  });

  it("calls of separate steps are separate turns; a failing call fails alone", async () => {
    const ts = new ToolStub({ sessionId: "ai-steps" });
    const logs = wrapped(ts, "logs");
    assert.equal(await logs.execute({ i: 1 }, { toolCallId: "a" }), result(1));
    assert.equal(
      await logs.execute({ i: 2 }, { toolCallId: "b" }),
      result(2),
      "alone in its step, a 19,000-char result stays inline",
    );
    const settled = await Promise.allSettled([
      logs.execute({ i: 99 }, { toolCallId: "x" }),
      ...[3, 4, 5, 6, 7, 8].map((i) => logs.execute({ i }, { toolCallId: `p${i}` })),
    ]);
    assert.equal(settled[0].status, "rejected");
    assert.equal(settled[0].reason.message, "tool failed");
    const texts = settled.slice(1).map((s) => s.value);
    assert.ok(texts.reduce((sum, text) => sum + text.length, 0) <= 100_000);
    assert.ok(texts.some((text) => text.startsWith("[OpenViking tool result externalized]")));
  });
});

const storeMakers = {
  MemoryStore: () => new MemoryStore(),
  NodeFsStore: () => new NodeFsStore(tempDir("tool-stub-retention-")),
  IndexedDbStore: () => new IndexedDbStore({ indexedDB: new IDBFactory(), IDBKeyRange }),
};

for (const [storeName, makeStore] of Object.entries(storeMakers)) {
  describe(`delete, usage and retention on ${storeName}`, () => {
    it("delete then read gives NOT_FOUND; deleteSession empties the session", async () => {
      const ts = new ToolStub({ store: makeStore(), sessionId: "del" });
      const out = await ts.externalize(
        [
          { toolId: "a", toolName: "t", output: orders },
          { toolId: "b", toolName: "t", output: `${orders} ` },
        ],
        { messageId: "m" },
      );
      assert.equal((await ts.usage()).results, 2);
      assert.deepEqual(await ts.delete(out[0].outputRef), { deleted: true });
      await assert.rejects(ts.read(out[0].outputRef), (e) => e.code === "NOT_FOUND");
      assert.deepEqual(await ts.delete(out[0].outputRef), { deleted: false });
      assert.equal((await ts.read(out[1].outputRef, { limit: -1 })).content, `${orders} `);
      await ts.deleteSession();
      assert.deepEqual(await ts.usage(), { results: 0, chars: 0, bytes: 0 });
    });

    it("keeps the store under maxBytes through 500 externalizations, every survivor exact", async () => {
      const maxBytes = 400_000;
      const ts = new ToolStub({
        store: makeStore(),
        sessionId: "ret",
        config: { thresholdChars: 1000, maxBytes },
      });
      const outputs = new Map();
      for (let i = 0; i < 500; i++) {
        const output = `result ${i}\n${`line ${i} of a long tool output\n`.repeat(150 + (i % 50))}`;
        const [part] = await ts.externalize([{ toolId: `call_${i}`, toolName: "bash", output }], {
          messageId: `m${i}`,
        });
        assert.equal(part.truncated, true);
        outputs.set(part.outputRef, output);
        const { bytes } = await ts.usage();
        assert.ok(bytes <= maxBytes, `after ${i + 1}: ${bytes} bytes stored`);
        // The result of this very turn always survives its own pruning.
        assert.equal((await ts.read(part.outputRef, { limit: -1 })).content, output);
      }
      const { toolResults } = await ts.list({ limit: 1000 });
      assert.ok(toolResults.length > 10 && toolResults.length < 500);
      for (const record of toolResults) {
        assert.equal(
          (await ts.read(record.storage_uri, { limit: -1 })).content,
          outputs.get(record.storage_uri),
        );
      }
    });

    it("maxResults and maxAgeMs prune oldest first on prune()", async () => {
      let now = Date.parse("2026-01-01T00:00:00Z");
      const store = makeStore();
      const write = new ToolStub({
        store,
        sessionId: "age",
        config: { thresholdChars: 10 },
        now: () => new Date(now).toISOString(),
      });
      const refs = [];
      for (let i = 0; i < 5; i++) {
        now += 1000;
        const [p] = await write.externalize(
          [{ toolId: `c${i}`, toolName: "t", output: `output number ${i} `.repeat(5) }],
          { messageId: `m${i}` },
        );
        refs.push(p.outputRef);
      }
      const byCount = new ToolStub({ store, sessionId: "age", config: { maxResults: 3 } });
      const { deleted } = await byCount.prune({ protect: [refs[0]] });
      assert.deepEqual(
        deleted,
        [refs[1], refs[2]].map((r) => r.split("/").pop()),
      );
      const byAge = new ToolStub({ store, sessionId: "age", config: { maxAgeMs: 1 } });
      const { deleted: old } = await byAge.prune({ protect: [refs[4]] });
      assert.equal(old.length, 2);
      assert.deepEqual(
        (await byAge.list()).toolResults.map((r) => r.storage_uri),
        [refs[4]],
      );
    });
  });
}
