// Session-scale rows: list(limit 50), list(toolName), usage, prune, externalize of a
// 100 KB output with retention on, and searchAll with a toolName filter, in a session of N results
// beside the same call in a session of 20 (tests/bench/session-calls.mjs), in NodeFsStore,
// IndexedDbStore on fake-indexeddb and, when Chromium is there, IndexedDbStore in headless
// Chromium (tests/bench/browser-session.html); then searchAll's peak memory against its largest
// output (needs --expose-gc).
//
// Usage: node --expose-gc tests/bench/session.mjs [--fs=N] [--idb=N] [--chromium=N] [--kb=K] [--runs=R]
//   --fs        results in the NodeFsStore session (default 10000; 0 skips it)
//   --idb       results in the fake-indexeddb session (default 2000; 0 skips it)
//   --chromium  results in the Chromium IndexedDB session (default 2000; 0 skips it)
//   --redis     results in the RedisStore session on a local redis-server started here (default
//               10000; 0 skips it; a machine without redis-server gets a row saying so)
//   --kb        size of each stored result in KB (default 20: 10,000 results are ~200 MB of outputs)
//   --runs      timed calls per row and session (default 15)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { ToolStub, NodeFsStore } from "../../pkg/js/node.js";
import { IndexedDbStore } from "../../pkg/js/stores/indexeddb.js";
import { createRequire } from "node:module";
import { RedisStore } from "../../pkg/js/redis.js";
import { SMALL, sessionRows, tableRows } from "./session-calls.mjs";
import { requireRedis, startRedis } from "../js/redis-servers.js";

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => arg.replace(/^--/, "").split("=")),
);
const count = (name, fallback) => Number(args[name] ?? fallback);
const kb = count("kb", 20);
const runs = count("runs", 15);

/**
 * searchAll's peak memory: the live heap (after a collection) each time the store hands it an
 * output, and after the call, above the live heap before it; against the largest output.
 */
async function searchAllPeak(store) {
  const ts = new ToolStub({ store, sessionId: "peak", config: { thresholdChars: 100 } });
  const sizes = [1, 8, 2, 8, 4].map((mb) => mb * 1024 * 1024);
  for (const [k, size] of sizes.entries()) {
    await ts.externalize(
      [{ toolId: `p${k}`, toolName: "peak", output: `peak ${k}\n${"z".repeat(size)}` }],
      { messageId: `p${k}` },
    );
  }
  const live = () => {
    globalThis.gc();
    const { heapUsed, external } = process.memoryUsage();
    return heapUsed + external;
  };
  const load = store.load.bind(store);
  let peak = 0;
  let base = 0;
  store.load = async (key) => {
    const value = await load(key);
    if (key.at(-1) === "output.txt") peak = Math.max(peak, live() - base);
    return value;
  };
  // Once to warm the module's memory (wasm memory only grows), then measured.
  await ts.searchAll({ query: "peak", toolName: "peak" });
  base = live();
  peak = 0;
  await ts.searchAll({ query: "peak", toolName: "peak" });
  peak = Math.max(peak, live() - base);
  store.load = load;
  return { peak, largest: Math.max(...sizes) };
}

/** The Chromium rows (the same calls in the browser build), or why they could not be measured. */
async function chromiumRows(n) {
  const { measureInChromium } = await import("../browser/harness.mjs");
  return measureInChromium(async (browser, open) => {
    const page = await open(browser, "/tests/bench/browser-session.html");
    return page.evaluate(([n, kb, runs]) => window.sessionRows(n, kb, runs), [n, kb, runs]);
  }, 120);
}

const out = [];
const dirs = [];
const stores = [
  [
    "NodeFsStore",
    count("fs", 10_000),
    () => {
      const dir = mkdtempSync(path.join(tmpdir(), "tool-stub-bench-session-"));
      dirs.push(dir);
      return new NodeFsStore(dir);
    },
  ],
  [
    "IndexedDbStore (fake-indexeddb)",
    count("idb", 2_000),
    () => new IndexedDbStore({ indexedDB: new IDBFactory(), IDBKeyRange }),
  ],
];
let redis;
try {
  requireRedis();
  const server = await startRedis();
  const Redis = createRequire(import.meta.url)("ioredis");
  const client = new Redis({ host: "127.0.0.1", port: server.port });
  redis = { server, client };
  let made = 0;
  stores.push([
    "RedisStore (local redis-server)",
    count("redis", 10_000),
    () => new RedisStore({ client, keyPrefix: `bench${made++}` }),
  ]);
} catch (error) {
  if (count("redis", 10_000))
    out.push(`| RedisStore | - | - | not measured: ${String(error.message).slice(0, 80)} | - |`);
}
try {
  for (const [name, n, makeStore] of stores) {
    if (!n) continue;
    const { rows, filledMs } = await sessionRows({ ToolStub, makeStore, n, kb, runs });
    console.error(
      `${name}: filled ${SMALL} + ${n} results of ${kb} KB in ${(filledMs / 1000).toFixed(1)} s`,
    );
    out.push(...tableRows(name, n, rows));
    if (typeof globalThis.gc === "function") {
      const { peak, largest } = await searchAllPeak(makeStore());
      const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
      out.push(
        `| ${name} | searchAll peak memory above baseline (5 outputs of 1-8 MB) | largest output ${mb(largest)} | ${mb(peak)} | ${(peak / largest).toFixed(2)}x |`,
      );
    }
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  }
  const n = count("chromium", 2_000);
  if (n) {
    const rows = await chromiumRows(n);
    if (typeof rows === "string")
      out.push(`| IndexedDbStore (headless Chromium) | - | - | not measured: ${rows} | - |`);
    else out.push(...tableRows("IndexedDbStore (headless Chromium)", n, rows));
  }
} finally {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  redis?.client.disconnect();
  await redis?.server.stop();
}
console.log(`| store | call | ${SMALL} results | large session (results of ${kb} KB) | ratio |`);
console.log("|---|---|---|---|---|");
console.log(out.join("\n"));
