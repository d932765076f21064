// The session-scale benchmark's calls, shared by Node (tests/bench/session.mjs:
// NodeFsStore, IndexedDbStore on fake-indexeddb) and headless Chromium
// (tests/bench/browser-session.html: IndexedDbStore on the browser's IndexedDB). No Node imports.
//
// A session of N results beside one of 20, on warm ToolStubs (their catalogs loaded): each call
// timed `runs` times, the two sessions' calls alternating (a noisy period of a shared machine
// slows both sides of a ratio alike), the median of each. The tool "rare" has 5 results in every
// session, spread over it, so list(toolName) and searchAll(toolName) do the same work at any
// size: what grows is only what the session holds.

export const SMALL = 20;
const RARE = 5;

const line = (i) => `line of a tool output ${i % 97}\n`;
const output = (i, kb) => `result ${i}\n${line(i).repeat(Math.ceil((kb * 1024) / line(i).length))}`;
const median = (times) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];

async function fill(ToolStub, store, n, kb) {
  const ts = new ToolStub({ store, sessionId: "bench", config: { thresholdChars: 100 } });
  const rare = new Set(Array.from({ length: RARE }, (_, k) => Math.floor((k * n) / RARE)));
  for (let i = 0; i < n; i += 50) {
    const parts = [];
    for (let j = i; j < Math.min(n, i + 50); j++)
      parts.push({
        toolId: `c${j}`,
        toolName: rare.has(j) ? "rare" : "common",
        output: output(j, kb),
      });
    await ts.externalize(parts, { messageId: `m${i}` });
  }
}

/** A warm ToolStub on a filled session (its first call made: the catalog loaded). */
async function open(ToolStub, store, config) {
  const ts = new ToolStub({
    store,
    sessionId: "bench",
    config: { thresholdChars: 100, ...config },
  });
  await ts.usage();
  return { ts };
}

/** The median time of `call` as the first call of `runs` new ToolStubs on the session in `store`. */
async function firstCall(ToolStub, store, call, runs, config) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const ts = new ToolStub({
      store,
      sessionId: "bench",
      config: { thresholdChars: 100, ...config },
    });
    const begin = performance.now();
    await call(ts, i);
    times.push(performance.now() - begin);
  }
  return median(times);
}

const big = "x".repeat(100 * 1024);
const CALLS = {
  "list(limit 50)": ({ ts }) => ts.list({ limit: 50 }),
  "list(toolName: 5 results)": ({ ts }) => ts.list({ toolName: "rare", limit: 50 }),
  usage: ({ ts }) => ts.usage(),
  "prune (nothing to delete)": ({ ts }) => ts.prune(),
  "searchAll(toolName: 5 results)": ({ ts }) => ts.searchAll({ query: "result", toolName: "rare" }),
  // The writing calls last: they change the sessions the calls above read.
  // maxResults above the session: retention plans every turn, deletes nothing.
  "externalize 100 KB, retention on": ({ ts }, i) =>
    ts.externalize([{ toolId: `x${i}`, toolName: "new", output: big + i }], { messageId: `x${i}` }),
  // maxResults at the session's size after the row above: every turn's prune deletes the oldest.
  "externalize 100 KB, retention deleting the oldest": ({ capped }, i) =>
    capped.externalize([{ toolId: `y${i}`, toolName: "new", output: big + i }], {
      messageId: `y${i}`,
    }),
};

/**
 * `{ rows: { call: { small, large } } (ms), filledMs }` for a session of `n` results of `kb` KB
 * beside one of 20, each in a new store from `makeStore()`.
 */
export async function sessionRows({ ToolStub, makeStore, n, kb = 20, runs = 15 }) {
  const stores = { small: makeStore(), large: makeStore() };
  const start = performance.now();
  await fill(ToolStub, stores.small, SMALL, kb);
  await fill(ToolStub, stores.large, n, kb);
  const filledMs = performance.now() - start;
  const sessions = {};
  for (const [side, size] of [
    ["small", SMALL],
    ["large", n],
  ]) {
    const warm = await open(ToolStub, stores[side], { maxResults: size + 10_000 });
    const capped = await open(ToolStub, stores[side], { maxResults: size + runs });
    sessions[side] = { ts: warm.ts, capped: capped.ts };
  }
  const rows = {};
  // A new ToolStub per request (a serverless host): its first call reads the catalog's index and
  // the pages it needs, whatever the session holds. Retention on, with room: it plans every turn.
  const retained = (side) => ({ maxResults: (side === "small" ? SMALL : n) + 10_000 });
  for (const [call, run] of [
    ["first call of a new ToolStub: usage", (ts) => ts.usage()],
    ["first call of a new ToolStub: list(limit 50)", (ts) => ts.list({ limit: 50 })],
    [
      "first call of a new ToolStub: searchAll(toolName: 5 results)",
      (ts) => ts.searchAll({ query: "result", toolName: "rare" }),
    ],
    [
      "first call of a new ToolStub: list tool newest first (limit 50)",
      (ts) => ts.handleToolCall("openviking_tool_result_list", { order: "newest", limit: 50 }),
    ],
    [
      "first call of a new ToolStub: searchAll(order newest, limit 3)",
      (ts) => ts.searchAll({ query: "result", order: "newest", limit: 3 }),
    ],
    ["first call of a new ToolStub: prune (nothing to delete)", (ts) => ts.prune()],
    [
      "first call of a new ToolStub: externalize 100 KB, retention on",
      (ts, i) =>
        ts.externalize([{ toolId: `first${i}`, toolName: "new", output: big + i }], {
          messageId: `first${i}`,
        }),
    ],
  ]) {
    rows[call] = {};
    for (const side of ["small", "large"])
      rows[call][side] = await firstCall(
        ToolStub,
        stores[side],
        run,
        Math.min(runs, 7),
        retained(side),
      );
  }
  // In this order: each call's 15 runs on both sessions, then the next call.
  for (const [call, run] of Object.entries(CALLS)) {
    const times = { small: [], large: [] };
    for (let i = 0; i < runs; i++) {
      for (const side of ["small", "large"]) {
        const begin = performance.now();
        await run(sessions[side], `${side}${i}`);
        times[side].push(performance.now() - begin);
      }
    }
    rows[call] = { small: median(times.small), large: median(times.large) };
  }
  return { rows, filledMs, stores };
}

/** Markdown rows `| store | call | 20 results | n results | ratio |`. */
export function tableRows(name, n, rows) {
  return Object.entries(rows).map(
    ([call, { small, large }]) =>
      `| ${name} | ${call} | ${small.toFixed(2)} ms | ${large.toFixed(2)} ms (${n}) | ${(large / small).toFixed(2)}x |`,
  );
}
