// Enhanced vs reference cost of `synopsis()` on the benchmark's inputs, quicker than the
// `enhanced` rows of bench.mjs (which time the same inputs): `node tests/bench/synopsis-cost.mjs
// [--size=MB] [--runs=N] [NAME-SUBSTRING ...]` against the built package (or TOOL_STUB_PKG). It
// prints, per input, the median of each mode's time (the modes alternate), their ratio, and the
// length of each mode's stub from `externalize`.

import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { ENHANCED_KINDS, KINDS, makeEnhancedInput, makeInput } from "./inputs.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PKG = path.resolve(process.env.TOOL_STUB_PKG ?? path.resolve(HERE, "../../pkg"));
const api = await import(path.join(PKG, "js/node.js"));
await api.loadEnhancedMode();

const flag = (name, fallback) =>
  Number(process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const size = flag("size", 10) * 1e6;
const runs = flag("runs", 5);
const filters = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));

const cases = [
  ...KINDS.map((kind) => [kind, () => ({ mimeType: "text/plain", output: makeInput(kind, size) })]),
  ...ENHANCED_KINDS.map((kind) => [kind, () => makeEnhancedInput(kind, size)]),
].filter(([kind]) => filters.length === 0 || filters.some((filter) => kind.includes(filter)));

async function stubLength(output, mimeType, mode) {
  const stub = new api.ToolStub({ sessionId: "cost", config: { synopsisMode: mode } });
  const [part] = await stub.externalize([{ toolId: "c1", toolName: "bench", output, mimeType }], {
    messageId: "m1",
  });
  return part.output.length;
}

const median = (values) => values.sort((a, b) => a - b)[values.length >> 1];
for (const [kind, make] of cases) {
  const { mimeType, output } = make();
  const options = (mode) => ({ mimeType, synopsisMode: mode });
  const kinds = ["reference", "enhanced"].map((mode) => api.synopsis(output, options(mode)).kind);
  const times = { reference: [], enhanced: [] };
  for (let i = 0; i < runs; i++) {
    for (const mode of ["reference", "enhanced"]) {
      const start = performance.now();
      api.synopsis(output, options(mode));
      times[mode].push(performance.now() - start);
    }
  }
  const reference = median(times.reference);
  const enhanced = median(times.enhanced);
  const [referenceStub, enhancedStub] = [
    await stubLength(output, mimeType, "reference"),
    await stubLength(output, mimeType, "enhanced"),
  ];
  console.log(
    `${kind.padEnd(28)} ${kinds.join(" -> ").padEnd(16)} reference ${reference.toFixed(1).padStart(7)} ms` +
      `  enhanced ${enhanced.toFixed(1).padStart(7)} ms  ${(enhanced / reference).toFixed(2)}x` +
      `  stub ${referenceStub} -> ${enhancedStub} chars (${(enhancedStub / referenceStub).toFixed(2)}x)`,
  );
}
