// Newest first without reading every page: the catalog keeps its newest entries in a page of their
// own (src/catalog/recent.rs), so a new ToolStub's first `list` newest first and `searchAll` with
// order "newest" read the index and that page, whatever the session holds, and answer as a read
// of every page would.
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { ToolStub, MemoryStore } from "./pkg.js";

const SMALL = { thresholdChars: 100 };
const LIST = "openviking_tool_result_list";
const output = (tag) => `${tag}\n${"payload ".repeat(40)}`;

/** `n` results, 50 a turn, ids in no order of time (as tool call ids are). */
async function fill(ts, n) {
  for (let i = 0; i < n; i += 50) {
    const parts = [];
    for (let j = i; j < Math.min(n, i + 50); j++)
      parts.push({
        toolId: `call_${((j * 2_654_435_761) % 2 ** 32).toString(16)}`,
        toolName: j % 2 ? "odd" : "even",
        output: output(`result ${j}${j >= n - 5 ? " fresh" : ""}`),
      });
    await ts.externalize(parts, { messageId: `m${i}` });
  }
}

/** Every result's id newest first (later created_at first, ties in id order), from the records. */
async function newestIds(ts) {
  const { toolResults } = await ts.list({ limit: 100_000 });
  const at = (r) => Date.parse(r.created_at);
  return toolResults
    .sort((a, b) => at(b) - at(a) || (a.tool_result_id < b.tool_result_id ? -1 : 1))
    .map((r) => r.tool_result_id);
}

const idsOf = (answer) => answer.tool_results.map((r) => r.ref.split("/").at(-1));

/** The catalog keys a call loads (page names shortened to "page"), in order. */
function catalogLoads(store) {
  const loaded = [];
  const load = store.load.bind(store);
  store.load = async (key) => {
    if (key[1] === "tool-stub") loaded.push(key.length === 4 ? "page" : key.at(-1));
    return load(key);
  };
  return { loaded, stop: () => (store.load = load) };
}

describe("newest first from the catalog's newest page", () => {
  it("a new ToolStub's first list newest first reads the index and one page", async () => {
    const store = new MemoryStore();
    await fill(new ToolStub({ store, sessionId: "s", config: SMALL }), 1_000);
    const index = JSON.parse(await store.load(["s", "tool-stub", "catalog-index"]));
    assert.ok(index.pages.length >= 5, "several pages");
    const expected = await newestIds(new ToolStub({ store, sessionId: "s", config: SMALL }));
    const { loaded, stop } = catalogLoads(store);
    const ts = new ToolStub({ store, sessionId: "s", config: SMALL });
    const first = await ts.handleToolCall(LIST, { order: "newest", limit: 50 });
    stop();
    assert.deepEqual(loaded, ["catalog-index", "page"]);
    assert.equal(first.total_results, 1_000);
    assert.equal(first.has_more, true);
    // (The model's answer may hold fewer lines than asked: it is bounded in chars.)
    assert.ok(first.tool_results.length >= 10);
    assert.deepEqual(idsOf(first), expected.slice(0, first.tool_results.length));
    const second = await ts.handleToolCall(LIST, { order: "newest", offset: 60, limit: 20 });
    assert.deepEqual(idsOf(second), expected.slice(60, 60 + second.tool_results.length));
    // Past the newest page: every page, in the same order.
    const past = await ts.handleToolCall(LIST, { order: "newest", offset: 95, limit: 20 });
    assert.ok(past.tool_results.length >= 10);
    assert.deepEqual(idsOf(past), expected.slice(95, 95 + past.tool_results.length));
  });

  it("searchAll newest first stops in the newest page when it matched enough", async () => {
    const store = new MemoryStore();
    await fill(new ToolStub({ store, sessionId: "s", config: SMALL }), 1_000);
    const { loaded, stop } = catalogLoads(store);
    const ts = new ToolStub({ store, sessionId: "s", config: SMALL });
    const found = await ts.searchAll({ query: "fresh", order: "newest", limit: 3 });
    stop();
    assert.deepEqual(loaded, ["catalog-index", "page"]);
    assert.equal(found.results.length, 3);
    // Too few matches in the newest page: the rest is searched, each result once.
    const all = await ts.searchAll({ query: "result 1", order: "newest", limit: 500 });
    const relevance = await ts.searchAll({ query: "result 1", limit: 500 });
    const refs = all.results.map((r) => r.ref);
    assert.equal(new Set(refs).size, refs.length, "no result twice");
    assert.deepEqual(
      [...refs].sort(),
      relevance.results.map((r) => r.ref).sort(),
      "the same results as a search of every output",
    );
  });
});
