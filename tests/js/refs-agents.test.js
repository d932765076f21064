// Refs in real agent loops (the AI SDK's generateText with scripted mock models): a 300 KB page
// read, edited and written back with the payload in no message; an orchestrator and two
// subagents, each with its own ToolStub over one store, handing results to each other by ref.
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import * as path from "node:path";
import { generateText, jsonSchema, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { ToolStub, MemoryStore, ROOT } from "./pkg.js";
import { textStep, toolCallStep } from "./fixtures/mock-steps.mjs";
import {
  MIDDLE_MARKER,
  NEW_LINE,
  OLD_LINE,
  handbookPage,
  promptTexts,
  runEditScenario,
} from "./fixtures/edit-scenario.mjs";

const { externalizingTool } = await import(path.join(ROOT, "pkg/js/ai-sdk.js"));

describe("edit and write back a 300 KB page by ref (AI SDK)", () => {
  it("the tools get the exact content; no message carries the page", async () => {
    const page = handbookPage(300_000);
    assert.ok(page.length >= 300_000);
    const store = new MemoryStore();
    const toolStub = new ToolStub({ store, sessionId: "editor" });
    const run = await runEditScenario({ byRef: true, toolStub, externalizingTool, page });
    assert.equal(run.steps.length, 4, run.text);
    assert.equal(run.edited, page, "edit_text received the stored page, byte for byte");
    assert.equal(run.written, page.replace(OLD_LINE, NEW_LINE), "write_file received the edit");
    const [pageRef, editedRef] = run.toolInputs
      .slice(1)
      .map((input) => Object.values(JSON.parse(input)).find((v) => v.includes("/tool-results/")));
    assert.equal((await toolStub.read(pageRef, { offset: 0, limit: -1 })).content, page);
    assert.equal(
      (await toolStub.read(editedRef, { offset: 0, limit: -1 })).content,
      run.written,
      "what write_file got is what edit_text returned, as stored",
    );
    for (const prompt of run.prompts) {
      const texts = promptTexts(prompt);
      assert.ok(!texts.some((text) => text.includes(MIDDLE_MARKER)), "the page is in no message");
      assert.ok(texts.join("").length < 12_000, `${texts.join("").length} chars sent to the model`);
    }
    assert.match(run.text, /^wrote \d+ chars to handbook\.html$/);
  });

  it("tells the model, in the marked tools' definitions, that it may pass refs", async () => {
    const toolStub = new ToolStub({ sessionId: "defs" });
    const wrapped = externalizingTool(
      toolStub,
      "write_file",
      tool({
        description: "Writes a file.",
        inputSchema: jsonSchema({ type: "object", properties: { content: { type: "string" } } }),
        execute: async () => "ok",
      }),
      { acceptsRefs: true, jsonSchema },
    );
    assert.match(wrapped.description, /^Writes a file\.\n\nAny argument of this tool may be a ref/);
    const content = wrapped.inputSchema.jsonSchema.properties.content;
    assert.deepEqual(content.anyOf[0], { type: "string" });
    assert.deepEqual(content.anyOf[1].required, ["ref"]);
    assert.throws(
      () => externalizingTool(toolStub, "x", { execute: async () => "" }, { acceptsRefs: true }),
      /jsonSchema/,
    );
  });
});

const lastResult = (prompt) => {
  const part = prompt.at(-1).content.find((c) => c.type === "tool-result");
  return part.output.type === "text" ? part.output.value : JSON.stringify(part.output.value);
};
const refIn = (text) => /viking:\/\/\S+\/tool-results\/[A-Za-z0-9_.-]+/.exec(text)?.[0];

/** A mock model playing `script`: one function per step, from the prompt to its answer. */
function scripted(script, sent) {
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      sent.push(...promptTexts(prompt));
      return script[step++](prompt);
    },
  });
}

const plainSchema = (properties) =>
  jsonSchema({ type: "object", properties, required: Object.keys(properties) });

describe("an orchestrator and two subagents pass results by ref (separate ToolStubs, one store)", () => {
  it("each gets the exact content it was handed, and no agent's messages carry it", async () => {
    const store = new MemoryStore();
    const DATA_MARKER = "ROW-CARRIES-THE-NEEDLE-91c2";
    const dataset = `id,region,amount\n${Array.from({ length: 6_000 }, (_, i) => `${i + 1},${["north", "south", "east"][i % 3]},${(i * 13) % 997}${i === 4_000 ? ` ${DATA_MARKER}` : ""}`).join("\n")}\n`;
    const lead = new ToolStub({
      store,
      sessionId: "lead",
      readableSessions: ["researcher", "writer"],
    });
    const researcher = new ToolStub({
      store,
      sessionId: "researcher",
      readableSessions: [lead.readGrant()],
    });
    const writer = new ToolStub({
      store,
      sessionId: "writer",
      readableSessions: [lead.readGrant(), researcher.readGrant()],
    });
    const sent = { lead: [], researcher: [], writer: [] };
    let summarized;
    let published;

    const researchAgent = async (task) => {
      const fetchDataset = externalizingTool(
        researcher,
        "fetch_dataset",
        tool({
          description: "Fetches the sales dataset (CSV).",
          inputSchema: plainSchema({}),
          execute: async () => dataset,
        }),
      );
      const { text } = await generateText({
        model: scripted(
          [
            () => toolCallStep("r1", "fetch_dataset", {}),
            (prompt) => textStep(`dataset stored at ${refIn(lastResult(prompt))}`),
          ],
          sent.researcher,
        ),
        tools: { fetch_dataset: fetchDataset },
        prompt: task,
        stopWhen: stepCountIs(4),
      });
      return text;
    };

    const writeAgent = async (task) => {
      const summarize = externalizingTool(
        writer,
        "summarize_table",
        tool({
          description: "Summarizes CSV rows into a report.",
          inputSchema: plainSchema({ table: { type: "string" } }),
          execute: async ({ table }) => {
            summarized = table;
            const totals = {};
            for (const row of table.split("\n").slice(1)) {
              const [, region, amount] = row.split(",");
              totals[region] = (totals[region] ?? 0) + Number.parseInt(amount, 10);
            }
            return JSON.stringify(totals);
          },
        }),
        { acceptsRefs: true, jsonSchema },
      );
      const source = refIn(task);
      const { text } = await generateText({
        model: scripted(
          [
            () =>
              toolCallStep("w1", "summarize_table", {
                table: { ref: source, rows: { start: 3_990, count: 20 } },
              }),
            (prompt) =>
              textStep(
                `report at ${refIn(lastResult(prompt)) ?? "inline"}: ${lastResult(prompt).length} chars`,
              ),
          ],
          sent.writer,
        ),
        tools: { summarize_table: summarize },
        prompt: task,
        stopWhen: stepCountIs(4),
      });
      return text;
    };

    const leadTools = {
      research: tool({
        description: "Runs the research subagent; answers where its result is.",
        inputSchema: plainSchema({ task: { type: "string" } }),
        execute: async ({ task }) => researchAgent(task),
      }),
      write: tool({
        description: "Runs the writing subagent on a stored dataset.",
        inputSchema: plainSchema({ task: { type: "string" } }),
        execute: async ({ task }) => writeAgent(task),
      }),
      publish: externalizingTool(
        lead,
        "publish",
        tool({
          description: "Publishes a report to the local wiki.",
          inputSchema: plainSchema({ body: { type: "string" } }),
          execute: async ({ body }) => {
            published = body;
            return `published ${body.length} chars`;
          },
        }),
        { acceptsRefs: true, jsonSchema },
      ),
    };
    let datasetRef;
    await generateText({
      model: scripted(
        [
          () => toolCallStep("l1", "research", { task: "Fetch the sales dataset." }),
          (prompt) => {
            datasetRef = refIn(lastResult(prompt));
            return toolCallStep("l2", "write", {
              task: `Summarize rows 3990-4009 of ${datasetRef}`,
            });
          },
          () =>
            toolCallStep("l3", "publish", {
              body: { ref: datasetRef, lines: { start: 1, count: 1 } },
            }),
          (prompt) => textStep(lastResult(prompt)),
        ],
        sent.lead,
      ),
      tools: leadTools,
      prompt: "Produce the sales report.",
      stopWhen: stepCountIs(6),
    });

    assert.match(datasetRef, /\/sessions\/researcher\/tool-results\//, "the researcher's own ref");
    const rows = dataset.split("\n");
    assert.equal(
      summarized,
      [rows[0], ...rows.slice(3_990, 4_010)].join("\n"),
      "the writer got the rows exactly",
    );
    assert.ok(summarized.includes(DATA_MARKER));
    assert.equal(published, `${rows[0]}\n`, "the lead resolved its subagent's ref");
    for (const [agent, texts] of Object.entries(sent)) {
      assert.ok(
        !texts.some((text) => text.includes(DATA_MARKER)),
        `${agent}'s model never saw the row`,
      );
    }
    // Handed over, never copied: the dataset is stored once, in the researcher's session.
    const outputs = (await store.loadRange([])).filter(
      (entry) => entry.key.at(-1) === "output.txt",
    );
    assert.equal(outputs.filter((entry) => entry.value === dataset).length, 1);
    assert.ok(
      outputs.every((entry) => entry.key[0] !== "lead"),
      "the lead stored nothing of it",
    );
    // A subagent not granted the writer's session cannot resolve what is not its to read.
    const [draft] = await writer.externalize(
      [{ toolId: "draft", toolName: "draft", output: dataset, mimeType: "text/csv" }],
      { messageId: "m_draft" },
    );
    await assert.rejects(researcher.resolveRefs({ x: draft.outputRef }), { code: "FORBIDDEN" });
    assert.equal((await lead.resolveRefs({ x: draft.outputRef })).x, dataset);
  });
});
