// The tokenizer comparison of docs/context-governor.md: gpt-tokenizer against js-tiktoken (o200k)
// on 10 MB of pretty-printed JSON and 7 MB of log lines: load time, count time, the counts, and
// gpt-tokenizer's early exit. `node tests/bench/tokenizers.mjs` (both are dev dependencies).
import { performance } from "node:perf_hooks";

const t0 = performance.now();
const gt = await import("gpt-tokenizer/encoding/o200k_base");
const t1 = performance.now();
const { Tiktoken } = await import("js-tiktoken/lite");
const jt = new Tiktoken((await import("js-tiktoken/ranks/o200k_base")).default);
const t2 = performance.now();
console.log(
  `first load of o200k: gpt-tokenizer ${(t1 - t0).toFixed(0)} ms, js-tiktoken ${(t2 - t1).toFixed(0)} ms`,
);
const json = JSON.stringify(
  {
    items: Array.from({ length: 60000 }, (_, i) => ({
      id: i,
      name: `item ${i}`,
      tags: ["alpha", "béta", "数据"],
      price: i * 1.5,
      ok: i % 3 === 0,
    })),
  },
  null,
  2,
);
const log = Array.from(
  { length: 80000 },
  (_, i) =>
    `2026-12-03T13:${String(i % 60).padStart(2, "0")}:00Z INFO worker-${i % 7} request id=${i * 7919} path=/api/v1/items/${i} took ${i % 500}ms`,
).join("\n");
for (const [name, text] of [
  ["json", json],
  ["log", log],
]) {
  const a = performance.now();
  const n1 = gt.countTokens(text);
  const b = performance.now();
  const n2 = jt.encode(text).length;
  const c = performance.now();
  const within = gt.isWithinTokenLimit(text, 20000);
  const d = performance.now();
  console.log(
    `${name} ${(text.length / 1e6).toFixed(1)} M chars: gpt-tokenizer ${n1} tokens in ${(b - a).toFixed(0)} ms; js-tiktoken ${n2} in ${(c - b).toFixed(0)} ms; isWithinTokenLimit(20k) ${within} in ${(d - c).toFixed(0)} ms; chars/4 ${Math.round(text.length / 4)}`,
  );
}
