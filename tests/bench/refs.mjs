// Results passed by ref (docs/refs.md): the tokens that reach the model in the edit-and-write-back
// loop of tests/js/fixtures/edit-scenario.mjs (a 300 KB page read, one line near its end edited,
// the page written back; AI SDK generateText with a scripted mock model), played by value (plain
// tools) and by ref (externalizingTool, edit_text and write_file accepting refs), counted with
// gpt-tokenizer (o200k_base): input tokens summed over every model call (each call resends the
// conversation so far), output tokens of the tool calls the model writes. Also the time the tools'
// ref resolution takes, and whether every resolved payload is the stored output, byte for byte.
//
// Usage: node tests/bench/refs.mjs [--kb=300]
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { countTokens } from "gpt-tokenizer";
import { ToolStub, MemoryStore } from "../../pkg/js/node.js";
import {
  NEW_LINE,
  OLD_LINE,
  handbookPage,
  promptTexts,
  runEditScenario,
} from "../js/fixtures/edit-scenario.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const { externalizingTool } = await import(path.resolve(HERE, "../../pkg/js/ai-sdk.js"));
const kb = Number(process.argv.find((arg) => arg.startsWith("--kb="))?.slice(5) ?? 300);
const page = handbookPage(kb * 1000);

function tokensOf(run) {
  let input = 0;
  let largest = 0;
  for (const prompt of run.prompts) {
    const tokens = countTokens(promptTexts(prompt).join("\n"));
    input += tokens;
    largest = Math.max(largest, tokens);
  }
  const output = run.toolInputs.reduce((sum, text) => sum + countTokens(text), 0);
  return { input, output, largest };
}

const byValue = await runEditScenario({ byRef: false, page });
const toolStub = new ToolStub({ store: new MemoryStore(), sessionId: "bench-refs" });
const started = performance.now();
const byRef = await runEditScenario({ byRef: true, toolStub, externalizingTool, page });
const refLoopMs = performance.now() - started;
const expected = page.replace(OLD_LINE, NEW_LINE);
const exact = byRef.edited === page && byRef.written === expected && byValue.written === expected;

const value = tokensOf(byValue);
const ref = tokensOf(byRef);
const rows = [
  ["input tokens, all model calls", value.input, ref.input],
  ["output tokens (tool calls)", value.output, ref.output],
  ["largest single prompt", value.largest, ref.largest],
  ["total", value.input + value.output, ref.input + ref.output],
];
const fmt = (n) => n.toLocaleString("en-US");
console.log(
  `edit and write back a ${fmt(page.length)}-char page (${byRef.prompts.length} model calls each), tokens (o200k_base)\n`,
);
console.log("| measure | by value | by ref | by value / by ref |");
console.log("|---|---|---|---|");
for (const [what, a, b] of rows)
  console.log(`| ${what} | ${fmt(a)} | ${fmt(b)} | ${(a / b).toFixed(0)}x |`);
console.log(
  `\nthe by-ref loop, tools and ToolStub included: ${refLoopMs.toFixed(0)} ms; resolved payloads byte-identical to the stored outputs: ${exact ? "yes" : "NO"}`,
);
if (!exact) process.exitCode = 1;
