// The context governor's benchmark (docs/performance.md, "The context governor"): a replayed
// 200-step agent conversation (Chat Completions shape; tool results from 200 B to 2 MB of JSON,
// logs, code, CSV and text; several tools; parallel calls), the prompt of every step under four
// policies, counted with o200k (gpt-tokenizer):
//   none          every result as the tool returned it;
//   truncate      every result cut to its first 25,000 tokens;
//   placeholder   past 100,000 tokens, every result but the last 3 becomes "[cleared]" (as
//                 Anthropic's clear_tool_uses, LangChain's ClearToolUsesEdit and the OpenAI
//                 Agents SDK's ToolOutputTrimmer do);
//   governor      tool-stub: each turn's outputs through `externalize` (oversized ones stubbed),
//                 then `fitContext` on the conversation (its output carried to the next step, as
//                 the AI SDK's prepareStep does);
//   refit         the same, but the full history fitted again at every step and the output not
//                 kept (as the OpenAI Agents SDK's input filter and a LangChain middleware do).
// Columns: peak prompt tokens, prompt tokens summed over the steps, prompt-prefix changes (steps
// whose prompt is not the previous prompt plus new messages), and the share of removed or cut
// results whose full output is still retrievable by ref (read back and compared).
// Run by scripts/bench.sh (`--only=context`) against the built package, or
// `node tests/bench/context.mjs [--steps=N]`.

import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { makeInput } from "./inputs.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PKG = path.resolve(process.env.TOOL_STUB_PKG ?? path.resolve(HERE, "../../pkg"));
const { ToolStub, MemoryStore } = await import(path.join(PKG, "js/node.js"));
const o200k = await import("gpt-tokenizer/encoding/o200k_base");

const STEPS = Number(
  process.argv.find((a) => a.startsWith("--steps="))?.slice("--steps=".length) ?? 200,
);
const CONTEXT_WINDOW = 128_000;
const TRUNCATE_TOKENS = 25_000;
const PLACEHOLDER_TRIGGER = 100_000;
const PLACEHOLDER_KEEP = 3;
const MESSAGE_OVERHEAD = 4;

/** A seeded PRNG (mulberry32): the conversation is the same at every run. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOOLS = [
  { name: "http_get", kind: "json" },
  { name: "run_shell", kind: "text" },
  { name: "read_file", kind: "code" },
  { name: "sql_query", kind: "csv" },
  { name: "fetch_page", kind: "text" },
];

/** A result size: mostly small, some medium, a few large (200 B to 2 MB). */
function resultSize(rand) {
  const r = rand();
  const logUniform = (lo, hi) => Math.round(lo * (hi / lo) ** rand());
  if (r < 0.68) return logUniform(200, 8_000);
  if (r < 0.92) return logUniform(8_000, 100_000);
  return logUniform(100_000, 2_000_000);
}

/** Each kind's text at a size, cut from one long deterministic input of that kind. */
const sources = new Map();
function output(kind, size, salt) {
  if (!sources.has(kind)) sources.set(kind, makeInput(kind, 2_100_000));
  const source = sources.get(kind);
  const start = (salt * 7919) % Math.max(1, source.length - size);
  return `[${salt}] ${source.slice(start, start + size)}`;
}

/** The replayed conversation: per step, an assistant message with its calls and their results. */
function replay() {
  const rand = random(29);
  const steps = [];
  let call = 0;
  for (let s = 0; s < STEPS; s++) {
    const parallel = rand() < 0.25 ? 2 + Math.floor(rand() * 2) : 1;
    const calls = [];
    for (let p = 0; p < parallel; p++) {
      const tool = TOOLS[Math.floor(rand() * TOOLS.length)];
      const id = `call_${call++}`;
      calls.push({
        id,
        name: tool.name,
        args: JSON.stringify({ step: s, q: `${tool.name} ${s}` }),
        output: output(tool.kind, resultSize(rand), call),
      });
    }
    steps.push({ thought: `Step ${s}: checking ${calls.map((c) => c.name).join(", ")}.`, calls });
  }
  return steps;
}

const counts = new Map();
function count(text) {
  if (text.length < 64) return o200k.countTokens(text);
  let n = counts.get(text);
  if (n === undefined) {
    n = o200k.countTokens(text);
    counts.set(text, n);
  }
  return n;
}

function messageTokens(message) {
  let tokens = MESSAGE_OVERHEAD + count(message.role);
  if (typeof message.content === "string") tokens += count(message.content);
  if (message.tool_call_id) tokens += count(message.tool_call_id);
  for (const c of message.tool_calls ?? [])
    tokens += count(c.id) + count(c.type) + count(c.function.name) + count(c.function.arguments);
  return tokens;
}

const promptTokens = (messages) => messages.reduce((sum, m) => sum + messageTokens(m), 0);

/** The first `limit` tokens of a text (decoded back). */
function truncateTokens(text, limit) {
  if (text.length <= limit) return text;
  if (
    o200k.isWithinTokenLimit(text.slice(0, limit * 8), limit) !== false &&
    text.length <= limit * 8
  )
    return text;
  const head = o200k.encode(text.slice(0, limit * 8)).slice(0, limit);
  const cut = o200k.decode(head);
  return cut.length < text.length ? `${cut}\n[truncated]` : text;
}

function stepMessages(step, results) {
  return [
    {
      role: "assistant",
      content: step.thought,
      tool_calls: step.calls.map((c) => ({
        id: c.id,
        type: "function",
        function: { name: c.name, arguments: c.args },
      })),
    },
    ...step.calls.map((c, i) => ({ role: "tool", tool_call_id: c.id, content: results[i] })),
  ];
}

const START = [
  { role: "system", content: "You are a careful operations agent. Use the tools." },
  { role: "user", content: "Find why the nightly job failed, and fix it." },
];

/** Whether `next` starts with every message of `previous`, unchanged. */
function extendsPrompt(previous, next) {
  if (next.length < previous.length) return false;
  for (let i = 0; i < previous.length; i++)
    if (previous[i] !== next[i] && JSON.stringify(previous[i]) !== JSON.stringify(next[i]))
      return false;
  return true;
}

const GOVERNOR_OPTIONS = {
  format: "openai",
  contextWindow: CONTEXT_WINDOW,
  trigger: 0.75,
  target: 0.45,
  clearAtLeast: 0.15,
  keepRecent: 3,
  countTokens: count,
};

async function run(policy, steps) {
  let history = START.slice();
  const governed = policy === "governor" || policy === "refit";
  let previous = null;
  const row = { peak: 0, summed: 0, prefixChanges: 0, removed: 0, retrievable: 0, overBudget: 0 };
  const ts = new ToolStub({ store: new MemoryStore(), sessionId: `bench-${policy}` });
  const originals = new Map();
  const started = performance.now();
  for (const step of steps) {
    for (const c of step.calls) originals.set(c.id, c.output);
    let results = step.calls.map((c) => c.output);
    if (policy === "truncate") results = results.map((r) => truncateTokens(r, TRUNCATE_TOKENS));
    if (governed) {
      const parts = await ts.externalize(
        step.calls.map((c) => ({ toolId: c.id, toolName: c.name, output: c.output })),
        { messageId: step.calls[0].id },
      );
      results = parts.map((p) => p.output);
    }
    history = history.concat(stepMessages(step, results));
    if (policy === "placeholder" && promptTokens(history) > PLACEHOLDER_TRIGGER) {
      const toolIndexes = history.flatMap((m, i) => (m.role === "tool" ? [i] : []));
      const clear = new Set(toolIndexes.slice(0, -PLACEHOLDER_KEEP));
      history = history.map((m, i) =>
        clear.has(i) && m.content !== "[cleared]" ? { ...m, content: "[cleared]" } : m,
      );
    }
    // The prompt the model gets: the kept history, or (refit) the full history fitted anew.
    let prompt = history;
    if (governed) {
      prompt = (await ts.fitContext(history, GOVERNOR_OPTIONS)).messages;
      if (policy === "governor") history = prompt;
    }
    const tokens = promptTokens(prompt);
    row.peak = Math.max(row.peak, tokens);
    row.summed += tokens;
    if (tokens > CONTEXT_WINDOW) row.overBudget++;
    if (previous !== null && !extendsPrompt(previous, prompt)) row.prefixChanges++;
    previous = prompt;
  }
  if (policy === "refit") history = previous;
  // Removed: a result whose final text is not its output. Retrievable: its ref reads it back.
  for (const m of history) {
    if (m.role !== "tool" || m.content === originals.get(m.tool_call_id)) continue;
    row.removed++;
    const ref = /ref: (viking:\/\/\S+?)[;\n.]/.exec(m.content)?.[1];
    if (ref) {
      const { content } = await ts.read(ref, { limit: -1 });
      if (content === originals.get(m.tool_call_id)) row.retrievable++;
    }
  }
  row.ms = performance.now() - started;
  return row;
}

const steps = replay();
const sizes = steps.flatMap((s) => s.calls.map((c) => c.output.length));
console.log(
  `${STEPS} steps, ${sizes.length} tool results, ${Math.min(...sizes)}-${Math.max(...sizes)} chars (${(sizes.reduce((a, b) => a + b, 0) / 1e6).toFixed(1)} MB); budget ${CONTEXT_WINDOW.toLocaleString("en-US")} tokens (o200k)`,
);
const table = [];
for (const policy of ["none", "truncate", "placeholder", "governor", "refit"]) {
  const row = await run(policy, steps);
  table.push([policy, row]);
}
const fmt = (n) => n.toLocaleString("en-US");
console.log(
  "| policy | peak context tokens | steps over budget | prompt tokens summed | prefix changes | removed results retrievable by ref | time |",
);
console.log("|---|---|---|---|---|---|---|");
for (const [policy, r] of table) {
  const share =
    r.removed === 0
      ? "none removed"
      : `${((100 * r.retrievable) / r.removed).toFixed(0)}% of ${r.removed}`;
  console.log(
    `| ${policy} | ${fmt(r.peak)} | ${r.overBudget} | ${fmt(r.summed)} | ${r.prefixChanges} | ${share} | ${(r.ms / 1000).toFixed(1)} s |`,
  );
}
const governor = table.find(([p]) => p === "governor")[1];
const placeholder = table.find(([p]) => p === "placeholder")[1];
const verdicts = [
  ["never over budget", governor.peak <= CONTEXT_WINDOW],
  ["summed prompt tokens <= clear-to-placeholder", governor.summed <= placeholder.summed],
  ["prefix changes <= clear-to-placeholder", governor.prefixChanges <= placeholder.prefixChanges],
  ["100% of removed results retrievable", governor.retrievable === governor.removed],
];
for (const [what, met] of verdicts)
  console.log(`context governor: ${what}: ${met ? "met" : "NOT met"}`);
