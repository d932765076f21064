// Session-scale rows (issue 15): list(limit 50), list(toolName), usage, prune, externalize of a
// 100 KB output with retention on, and searchAll with a toolName filter, in a session of N results
// beside the same call in a session of 20, in NodeFsStore and IndexedDbStore (fake-indexeddb).
// Usage: node tests/bench/session.mjs [N for NodeFsStore] [N for IndexedDbStore]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { ToolStub, NodeFsStore } from "../../pkg/js/node.js";
import { IndexedDbStore } from "../../pkg/js/stores/indexeddb.js";

const [fsCount = 2000, idbCount = 2000] = process.argv.slice(2).map(Number);
const OUTPUT_KB = 20; // each stored result (the externalize row stores 100 KB)
const output = (i) => `result ${i}\n` + `line of a tool output ${i % 97}\n`.repeat((OUTPUT_KB * 1024) / 26);

async function median(fn, runs = 7) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn(i);
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)];
}

async function session(makeStore, n) {
  const store = makeStore();
  const config = { maxResults: n + 1000 };
  const filling = new ToolStub({ store, sessionId: "bench", config: { thresholdChars: 100 } });
  for (let i = 0; i < n; i += 50) {
    const parts = [];
    for (let j = i; j < Math.min(n, i + 50); j++) parts.push({ toolId: `c${j}`, toolName: j % 10 === 0 ? "rare" : "common", output: output(j) });
    await filling.externalize(parts, { messageId: `m${i}` });
  }
  // A new ToolStub, as a process that opens the session: its first call loads the catalog.
  const ts = new ToolStub({ store, sessionId: "bench", config: { ...config, thresholdChars: 100 } });
  const first = performance.now();
  await ts.usage();
  const cold = performance.now() - first;
  const big = "x".repeat(100 * 1024);
  return {
    cold,
    "list(limit 50)": await median(() => ts.list({ limit: 50 })),
    "list(toolName)": await median(() => ts.list({ toolName: "rare", limit: 50 })),
    usage: await median(() => ts.usage()),
    prune: await median(() => ts.prune()),
    "externalize 100 KB, retention on": await median((i) => ts.externalize([{ toolId: `x${i}`, toolName: "new", output: big + i }], { messageId: `x${i}` })),
    "searchAll(toolName: 1 result)": await median(() => ts.searchAll({ query: "result", toolName: "new" })),
  };
}

const rows = [];
for (const [name, make, n] of [
  ["NodeFsStore", () => new NodeFsStore(mkdtempSync(path.join(tmpdir(), "tool-stub-bench-session-"))), fsCount],
  ["IndexedDbStore", () => new IndexedDbStore({ indexedDB: new IDBFactory(), IDBKeyRange }), idbCount],
]) {
  const small = await session(make, 20);
  const large = await session(make, n);
  for (const call of Object.keys(small)) {
    rows.push(`| ${name} | ${call} | ${small[call].toFixed(1)} ms | ${large[call].toFixed(1)} ms (${n} results) | ${(large[call] / small[call]).toFixed(2)}x |`);
  }
}
console.log("| store | call | 20 results | large session | ratio |\n|---|---|---|---|---|\n" + rows.join("\n"));
