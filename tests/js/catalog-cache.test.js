// The catalog's pages stay parsed in the core for the SessionCatalog that read them
// (src/catalog/page_cache.rs): a warm call hands the core no page again. What must hold around
// that: each catalog sees its own store's pages even where two stores hold pages of one name, a
// core restart (which empties the cache) loses nothing, and a page written for an index that
// failed to save is never taken for the page another writer then commits under its name.
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { runtime } from "../../pkg/js/node-runtime.js";
import { sha256Hex as coreSha256Hex } from "../../pkg/wasm/tool_stub.js";
import { ToolStub, MemoryStore, ToolStubError } from "./pkg.js";

const SMALL = { thresholdChars: 100 };
const output = (tag) => `${tag}\n${"payload ".repeat(40)}`;

/** `n` results, 50 a turn; every 100th of tool "rare" (spread over the catalog's pages). */
async function fill(ts, n, prefix = "c") {
  for (let i = 0; i < n; i += 50) {
    const parts = [];
    for (let j = i; j < Math.min(n, i + 50); j++)
      parts.push({
        toolId: `${prefix}${j}`,
        toolName: j % 100 === 7 ? "rare" : "common",
        output: output(`${prefix}${j}`),
      });
    await ts.externalize(parts, { messageId: `${prefix}m${i}` });
  }
}

/** Runs `fn` recording the pages handed to the core's catalog calls (names, in call order). */
async function handedPages(fn) {
  const handed = [];
  const call = runtime.call;
  runtime.call = function (name, ...args) {
    if (name === "catalogSelect" || name === "catalogPrune" || name === "catalogApply") {
      const pages = args.find(Array.isArray) ?? [];
      for (let i = 0; i < pages.length; i += 2) handed.push(pages[i]);
    }
    return call.call(this, name, ...args);
  };
  try {
    return { value: await fn(), handed };
  } finally {
    runtime.call = call;
  }
}

/** A copy of every key and value of `store` (a session copied as a folder would be). */
async function copied(store) {
  const copy = new MemoryStore();
  for (const { key, value } of await store.loadRange([])) await copy.save(key, value);
  return copy;
}

const ids = (listed) => listed.toolResults.map((r) => r.tool_id).sort();

describe("the catalog's parsed pages", () => {
  it("a warm list(toolName) hands the core no page again", async () => {
    const store = new MemoryStore();
    await fill(new ToolStub({ store, sessionId: "s", config: SMALL }), 1_000);
    const index = JSON.parse(await store.load(["s", "tool-stub", "catalog-index"]));
    assert.ok(index.pages.length >= 4, "several pages");
    const ts = new ToolStub({ store, sessionId: "s", config: SMALL });
    const cold = await handedPages(() => ts.list({ toolName: "rare", limit: 50 }));
    assert.equal(cold.value.toolResults.length, 10);
    assert.ok(cold.handed.length >= 4, `the first call reads the pages: ${cold.handed}`);
    const warm = await handedPages(() => ts.list({ toolName: "rare", limit: 50 }));
    assert.deepEqual(ids(warm.value), ids(cold.value));
    assert.deepEqual(warm.handed, [], "kept parsed: nothing handed again");
    // Another ToolStub (another catalog) does not share them: its first call reads its own.
    const other = new ToolStub({ store, sessionId: "s", config: SMALL });
    const first = await handedPages(() => other.list({ toolName: "rare", limit: 50 }));
    assert.ok(first.handed.length >= 4, "a new catalog reads the pages");
  });

  it("after a change only the page written is handed in, once", async () => {
    const store = new MemoryStore();
    const ts = new ToolStub({ store, sessionId: "s", config: SMALL });
    await fill(ts, 1_000);
    await ts.list({ toolName: "rare", limit: 50 });
    const change = await handedPages(() =>
      ts.externalize([{ toolId: "c1", toolName: "rare", output: output("new") }], {
        messageId: "n",
      }),
    );
    // The change reads its page from the cache: only pages not yet parsed are handed in.
    assert.ok(change.handed.length <= 1, `${change.handed}`);
    const after = await handedPages(() => ts.list({ toolName: "rare", limit: 50 }));
    assert.equal(after.value.toolResults.length, 11);
    assert.ok(after.handed.length <= 1, `the page written, read once: ${after.handed}`);
    const again = await handedPages(() => ts.list({ toolName: "rare", limit: 50 }));
    assert.deepEqual(again.handed, []);
  });

  it("two copies of a session writing pages of one name each read their own", async () => {
    const a = new MemoryStore();
    await fill(new ToolStub({ store: a, sessionId: "s", config: SMALL }), 300);
    const b = await copied(a);
    const onA = new ToolStub({ store: a, sessionId: "s", config: SMALL });
    const onB = new ToolStub({ store: b, sessionId: "s", config: SMALL });
    await onA.list({ toolName: "rare" });
    await onB.list({ toolName: "rare" });
    // Each writes the next page name of their shared generation, with different entries.
    await onA.externalize([{ toolId: "onlyA", toolName: "rare", output: output("A") }], {
      messageId: "a",
    });
    await onB.externalize([{ toolId: "onlyB", toolName: "rare", output: output("B") }], {
      messageId: "b",
    });
    const indexA = JSON.parse(await a.load(["s", "tool-stub", "catalog-index"]));
    const indexB = JSON.parse(await b.load(["s", "tool-stub", "catalog-index"]));
    assert.deepEqual(
      indexA.pages.map((p) => p.name),
      indexB.pages.map((p) => p.name),
      "the same page names in both copies",
    );
    const listedA = ids(await onA.list({ toolName: "rare" }));
    const listedB = ids(await onB.list({ toolName: "rare" }));
    assert.ok(listedA.includes("onlyA") && !listedA.includes("onlyB"), `${listedA}`);
    assert.ok(listedB.includes("onlyB") && !listedB.includes("onlyA"), `${listedB}`);
  });

  it("a restart of the core (its cache gone) loses nothing", async () => {
    const store = new MemoryStore();
    const ts = new ToolStub({ store, sessionId: "s", config: SMALL });
    await fill(ts, 600);
    const before = ids(await ts.list({ toolName: "rare", limit: 50 }));
    // A trap, as a bug would cause one: the core starts afresh, with an empty page cache.
    assert.throws(
      () => runtime.run(coreSha256Hex, 42),
      (error) => error instanceof ToolStubError && /module reset/.test(error.message),
    );
    const after = await handedPages(() => ts.list({ toolName: "rare", limit: 50 }));
    assert.deepEqual(ids(after.value), before);
    assert.ok(after.handed.length >= 1, "read again into the new instance");
    await ts.externalize([{ toolId: "late", toolName: "rare", output: output("late") }], {
      messageId: "late",
    });
    assert.equal((await ts.list({ toolName: "rare", limit: 50 })).toolResults.length, 7);
  });

  it("a page written for an index that failed to save is not the page committed later", async () => {
    const store = new MemoryStore();
    await fill(new ToolStub({ store, sessionId: "s", config: SMALL }), 100);
    const writer = new ToolStub({ store, sessionId: "s", config: SMALL });
    await writer.list({ toolName: "rare" });
    // The writer's next index save fails: its page is stored, its index is not.
    const save = store.save.bind(store);
    let failIndex = true;
    store.save = async (key, value) => {
      if (failIndex && key.at(-1) === "catalog-index") {
        failIndex = false;
        throw new ToolStubError("STORE_FAILED", "disk full");
      }
      return save(key, value);
    };
    await writer.externalize([{ toolId: "lost", toolName: "rare", output: output("L") }], {
      messageId: "l",
    });
    // Another writer commits a page under the same name (the index it reads still says so).
    const other = new ToolStub({ store, sessionId: "s", config: SMALL });
    await other.externalize([{ toolId: "kept", toolName: "rare", output: output("K") }], {
      messageId: "k",
    });
    const listed = ids(await writer.list({ toolName: "rare" }));
    // "lost" was stored (its files are there): the writer's check finds it; "kept" is there too.
    assert.ok(listed.includes("kept"), `${listed}`);
    assert.ok(listed.includes("lost"), `${listed}`);
    assert.deepEqual(listed, ids(await other.list({ toolName: "rare" })));
  });
});
