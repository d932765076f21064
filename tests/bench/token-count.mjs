// The token path's own cost, apart from externalize: `TurnTokens.count` (what token mode adds
// before the core's plan) on 10 MB outputs, a new counter per call (nothing cached), with the
// tokenizer loaded. `node --expose-gc tests/bench/token-count.mjs`; TOOL_STUB_PKG: another build.
// docs/performance.md, "Turn budgets in tokens".

import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { makeCjkProse, makeInput, makeLog, makePrettyJson } from "./inputs.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PKG = path.resolve(process.env.TOOL_STUB_PKG ?? path.resolve(HERE, "../../pkg"));
const { TurnTokens } = await import(path.join(PKG, "js/turn-tokens.js"));
const MB = 1e6;
const RUNS = 15;

const config = {
  budgetUnit: "tokens",
  enabled: true,
  thresholdTokens: 5_000,
  assistantTurnInlineBudgetTokens: 25_000,
  exemptToolNames: [],
  maxStubChars: 4_000,
  tokenizer: "o200k",
};
const shapes = {
  "json (one line)": makeInput("json", 10 * MB),
  "json (pretty)": makePrettyJson(10 * MB),
  log: makeLog(10 * MB),
  prose: makeInput("text", 10 * MB),
  code: makeInput("code", 10 * MB),
  "CJK prose": makeCjkProse(10 * MB),
};
const median = (times) => [...times].sort((a, b) => a - b)[times.length >> 1];
console.log(`TurnTokens.count of ${PKG}, median of ${RUNS} (after a collection each)`);
for (const [shape, output] of Object.entries(shapes)) {
  const count = () => new TurnTokens().count(config, [output], [{ toolName: "bench" }]);
  await count();
  const times = [];
  let parts;
  for (let i = 0; i < RUNS; i++) {
    globalThis.gc?.();
    const start = performance.now();
    parts = await count();
    times.push(performance.now() - start);
  }
  console.log(
    `${shape}: ${median(times).toFixed(1)} ms (${Math.min(...times).toFixed(1)}-${Math.max(...times).toFixed(1)}) ${JSON.stringify(parts[0])}`,
  );
}
