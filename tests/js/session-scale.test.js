// Session-level calls cost what they change, not what the session holds: the catalog is read in
// pages (its index, then the pages a call needs), never a listing; retention reads the oldest
// pages only when the policy is exceeded; and yet every change another ToolStub or process makes
// is seen: a new index, pages split, a session removed and made again.
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import * as path from "node:path";
import { spawn } from "node:child_process";
import { runtime } from "../../pkg/js/node-runtime.js";
import { sha256Hex as coreSha256Hex } from "../../pkg/wasm/tool_stub.js";
import { ToolStub, MemoryStore, NodeFsStore, ROOT } from "./pkg.js";
import { tempDir } from "./temp.js";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { IndexedDbStore } from "../../pkg/js/stores/indexeddb.js";

const NODE_ENTRY = path.join(ROOT, "pkg/js/node.js");
const SMALL = { thresholdChars: 100 };
const output = (tag) => `${tag}\n${"payload ".repeat(40)}`;
const part = (toolId, toolName = "t") => ({ toolId, toolName, output: output(toolId) });

async function fill(ts, prefix, n, toolName) {
  const refs = [];
  for (let i = 0; i < n; i++) {
    const [p] = await ts.externalize([part(`${prefix}${i}`, toolName)], {
      messageId: `${prefix}m${i}`,
    });
    assert.equal(p.truncated, true);
    refs.push(p.outputRef);
  }
  return refs;
}

const toolIds = async (ts) =>
  (await ts.list({ limit: 100_000 })).toolResults.map((r) => r.tool_id).sort();

/** A store that counts its calls by method (listings separately: loadKeys and loadRange). */
function counting(store) {
  const calls = {};
  const wrapped = {};
  for (const method of [
    "load",
    "save",
    "remove",
    "loadRange",
    "removeRange",
    "loadKeys",
    "lock",
    "size",
  ]) {
    wrapped[method] = (...args) => {
      calls[method] = (calls[method] ?? 0) + 1;
      return store[method](...args);
    };
  }
  const take = () => {
    const seen = { ...calls };
    for (const key of Object.keys(calls)) delete calls[key];
    return seen;
  };
  return { store: wrapped, take };
}

describe("a loaded catalog stays current without listing", () => {
  it("sees another ToolStub's change, pages split, and a session removed and made again", async () => {
    const store = new MemoryStore();
    const reader = new ToolStub({ store, sessionId: "s", config: SMALL });
    const writer = new ToolStub({ store, sessionId: "s", config: SMALL });
    await fill(writer, "a", 3);
    assert.deepEqual(await toolIds(reader), ["a0", "a1", "a2"]);
    // One change: a new index.
    await fill(writer, "b", 1);
    assert.deepEqual(await toolIds(reader), ["a0", "a1", "a2", "b0"]);
    // Past a page of entries (the core splits it): the reader follows the new index.
    await fill(writer, "c", 270);
    assert.equal((await reader.usage()).results, 274);
    assert.equal((await toolIds(reader)).length, 274);
    // Removed and made again: a new generation, whose pages the reader never confuses with the old.
    const indexBefore = JSON.parse(await store.load(["s", "tool-stub", "catalog-index"]));
    assert.ok(indexBefore.pages.length >= 2, "split into pages");
    await writer.deleteSession();
    assert.deepEqual(await store.loadKeys(["s", "tool-stub", "catalog-pages"]), []);
    await fill(writer, "d", 74);
    const indexAfter = JSON.parse(await store.load(["s", "tool-stub", "catalog-index"]));
    assert.notEqual(indexAfter.generation, indexBefore.generation);
    const ids = await toolIds(reader);
    assert.equal(ids.length, 74);
    assert.ok(
      ids.every((id) => id.startsWith("d")),
      `the reader lists the new session: ${ids.slice(0, 3)}`,
    );
    assert.deepEqual(await reader.rebuildCatalog().then((r) => [r.added, r.removed]), [[], []]);
  });

  it("a turn with retention and the session-level calls make the store calls at 300 results that they make at 20", async () => {
    const calls = {};
    for (const n of [20, 300]) {
      const { store, take } = counting(new MemoryStore());
      const filling = new ToolStub({ store, sessionId: "s", config: SMALL });
      await fill(filling, "f", n);
      const ts = new ToolStub({ store, sessionId: "s", config: { ...SMALL, maxResults: n } });
      await ts.list({ limit: 1 }); // a new ToolStub's first list loads the catalog
      take();
      const seen = {};
      // The session stays at n: each turn's prune deletes the oldest result.
      for (let i = 0; i < 3; i++) {
        const result = await ts.externalize([part(`x${i}`)], { messageId: `x${i}` });
        assert.equal(result.retention.deleted.length, 1);
        seen[`externalize ${i}`] = take();
      }
      await ts.usage();
      seen.usage = take();
      await ts.list({ limit: 5 });
      seen.list = take();
      await ts.prune();
      seen.prune = take();
      for (const [call, counts] of Object.entries(seen)) {
        assert.equal(
          (counts.loadKeys ?? 0) + (counts.loadRange ?? 0),
          0,
          `${call} at ${n} results lists nothing: ${JSON.stringify(counts)}`,
        );
      }
      calls[n] = seen;
    }
    // The same calls, but for one more page read, written and removed where a turn's new result
    // and the oldest one (which retention deletes) fall in different pages.
    for (const [call, counts] of Object.entries(calls[300])) {
      const methods = new Set([...Object.keys(counts), ...Object.keys(calls[20][call])]);
      for (const method of methods) {
        const [large, small] = [counts[method] ?? 0, calls[20][call][method] ?? 0];
        assert.ok(large <= small + 1, `${call}: ${method} ${large} at 300, ${small} at 20`);
      }
    }
  });

  it("retention plans right after the core restarts, and never with another session's order", async () => {
    const a = new ToolStub({
      store: new MemoryStore(),
      sessionId: "a",
      config: { ...SMALL, maxResults: 3 },
    });
    const b = new ToolStub({
      store: new MemoryStore(),
      sessionId: "b",
      config: { ...SMALL, maxResults: 2 },
    });
    await fill(a, "a", 4);
    await fill(b, "b", 3);
    const before = runtime.coreInstance();
    // A trap (as a bug would cause one) restarts the core: the orders made before are gone.
    assert.throws(() => runtime.run(coreSha256Hex, 42));
    assert.notEqual(runtime.coreInstance(), before);
    // b makes its order first in the fresh core, where numbers start again.
    await fill(b, "b", 1);
    await fill(a, "after", 1);
    assert.deepEqual(await toolIds(a), ["a2", "a3", "after0"]);
    assert.equal((await toolIds(b)).length, 2);
  });
});

describe("processes sharing a session: a long-lived ToolStub sees the other's writes", () => {
  const run = (script) =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
        stdio: ["ignore", "inherit", "inherit"],
      });
      child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`exited ${code}`))));
    });

  it("after the other process adds (past a fold of the log), deletes and prunes", async () => {
    const dir = tempDir("tool-stub-long-lived-");
    const ts = new ToolStub({
      store: new NodeFsStore(dir),
      sessionId: "shared",
      config: { ...SMALL, maxResults: 60 },
    });
    await fill(ts, "p", 5);
    assert.equal((await ts.usage()).results, 5);
    await run(`
      import { ToolStub, NodeFsStore } from ${JSON.stringify(NODE_ENTRY)};
      const ts = new ToolStub({ store: new NodeFsStore(${JSON.stringify(dir)}), sessionId: "shared", config: { thresholdChars: 100 } });
      for (let i = 0; i < 70; i++) {
        const [p] = await ts.externalize([{ toolId: "c" + i, toolName: "child", output: "c" + i + "\\n" + "payload ".repeat(40) }], { messageId: "m" + i });
        if (!p.truncated) throw new Error("not stored");
      }
      const { toolResults } = await ts.list({ limit: 1000 });
      await ts.delete(toolResults.find((r) => r.tool_id === "p0").tool_result_id);
    `);
    // The long-lived ToolStub's catalog was loaded before: it sees all 70, and not p0.
    const ids = await toolIds(ts);
    assert.equal(ids.length, 74);
    assert.ok(!ids.includes("p0") && ids.includes("c69"));
    assert.equal((await ts.usage()).results, 74);
    // Its retention plans over the other process's results too: 74 + 1 new, keep 60.
    const [p] = await ts.externalize([part("last")], { messageId: "last" });
    assert.equal(p.truncated, true);
    const kept = await toolIds(ts);
    assert.equal(kept.length, 60);
    assert.ok(
      kept.includes("last") && !kept.includes("p1") && !kept.includes("c0"),
      kept.slice(0, 5).join(","),
    );
    const fresh = new ToolStub({ store: new NodeFsStore(dir), sessionId: "shared" });
    assert.deepEqual(await toolIds(fresh), kept);
    assert.deepEqual(await fresh.rebuildCatalog().then((r) => [r.added, r.removed]), [[], []]);
  });
});

describe("searchAll loads one output at a time, only its tool's, and stops when it can", () => {
  /** A store that records which outputs are loaded, in order, and how many are held at once. */
  function recording(store) {
    const loads = [];
    const wrapped = {};
    for (const method of ["save", "remove", "loadRange", "removeRange", "loadKeys", "lock"])
      wrapped[method] = (...args) => store[method](...args);
    wrapped.load = async (key) => {
      const value = await store.load(key);
      if (key.at(-1) === "output.txt") loads.push(key[2]);
      return value;
    };
    return { store: wrapped, loads };
  }

  async function session() {
    const { store, loads } = recording(new MemoryStore());
    let tick = 0;
    // Each result a minute after the previous: "newest" is the last stored.
    const now = () => new Date(Date.UTC(2025, 0, 1, 0, tick++)).toISOString();
    const ts = new ToolStub({ store, sessionId: "s", config: SMALL, now });
    const ids = {};
    for (let i = 0; i < 10; i++) {
      const toolName = i % 2 ? "odd" : "even";
      // Result i matches "needle" i + 1 times: the most matches are the newest too.
      const [p] = await ts.externalize(
        [
          {
            toolId: `r${i}`,
            toolName,
            output: `r${i}\n${"needle ".repeat(i + 1)}${"hay ".repeat(60)}`,
          },
        ],
        { messageId: `m${i}` },
      );
      ids[`r${i}`] = p.outputRef.split("/").pop();
    }
    loads.length = 0;
    return { ts, loads, ids };
  }

  it("toolName is applied before loading, and the default ranking searches every candidate once", async () => {
    const { ts, loads, ids } = await session();
    const found = await ts.searchAll({ query: "needle", toolName: "odd", limit: 2 });
    assert.deepEqual(
      found.results.map((r) => r.toolResultId),
      [ids.r9, ids.r7],
    );
    assert.deepEqual(
      [found.totalResults, found.totalMatches, found.unsearched],
      [5, 2 + 4 + 6 + 8 + 10, undefined],
    );
    assert.deepEqual(
      [...loads].sort(),
      [ids.r1, ids.r3, ids.r5, ids.r7, ids.r9].sort(),
      "each odd output once, no other",
    );
  });

  it("order newest loads newest first and stops once limit results matched", async () => {
    const { ts, loads, ids } = await session();
    const found = await ts.searchAll({ query: "needle", order: "newest", limit: 3 });
    assert.deepEqual(
      loads,
      [ids.r9, ids.r8, ids.r7],
      "the three newest, newest first, then no more",
    );
    assert.deepEqual(
      found.results.map((r) => r.toolResultId),
      [ids.r9, ids.r8, ids.r7],
    );
    assert.deepEqual([found.totalResults, found.unsearched], [3, 7]);
    // Results that do not match are searched past; a search that finds fewer than limit loads all.
    loads.length = 0;
    const few = await ts.searchAll({
      query: "needle needle needle needle needle needle needle needle needle",
      order: "newest",
      limit: 5,
      toolName: "even",
    });
    assert.deepEqual(loads, [ids.r8, ids.r6, ids.r4, ids.r2, ids.r0]);
    assert.deepEqual([few.totalResults, few.unsearched], [1, undefined]);
    await assert.rejects(
      ts.searchAll({ query: "x", order: "oldest" }),
      /order must be "relevance" or "newest"/,
    );
  });
});

describe("a new ToolStub's first call", () => {
  for (const [name, makeStore] of Object.entries({
    MemoryStore: () => new MemoryStore(),
    NodeFsStore: () => new NodeFsStore(tempDir("tool-stub-cold-")),
    IndexedDbStore: () => new IndexedDbStore({ indexedDB: new IDBFactory(), IDBKeyRange }),
  })) {
    it(`reads the catalog and its page, never a listing or a record of every result (${name})`, async () => {
      for (const n of [20, 300]) {
        const backing = makeStore();
        await fill(new ToolStub({ store: backing, sessionId: "s", config: SMALL }), "r", n);
        // Every key the first call loads or lists.
        const loaded = [];
        const listed = [];
        const seen = { load: loaded, loadKeys: listed, loadRange: listed };
        const store = new Proxy(backing, {
          get(target, name) {
            const value = Reflect.get(target, name, target);
            if (typeof value !== "function") return value;
            return (first, ...rest) => {
              seen[name]?.push(first.join("/"));
              return value.call(target, first, ...rest);
            };
          },
        });
        const fresh = new ToolStub({ store, sessionId: "s", config: SMALL });
        assert.equal((await fresh.list({ limit: 10 })).toolResults.length, 10);
        assert.deepEqual(listed, [], "nothing is listed");
        const records = loaded.filter((key) => key.startsWith("s/tool-results/"));
        assert.ok(records.length <= 10, `${records.length} result files loaded for a page of 10`);
        // The index and the first page.
        const catalog = loaded.filter((key) => key.startsWith("s/tool-stub/"));
        assert.equal(catalog.length, 2, `catalog records loaded: ${catalog}`);
        assert.equal(catalog[0], "s/tool-stub/catalog-index");
        assert.equal((await fresh.usage()).results, n);
      }
    });
  }

  for (const [name, makeStore] of Object.entries({
    MemoryStore: () => new MemoryStore(),
    NodeFsStore: () => new NodeFsStore(tempDir("tool-stub-cold-usage-")),
    IndexedDbStore: () => new IndexedDbStore({ indexedDB: new IDBFactory(), IDBKeyRange }),
  })) {
    it(`usage reads the catalog's index alone, and agrees with it (${name})`, async () => {
      const backing = makeStore();
      const writer = new ToolStub({ store: backing, sessionId: "s", config: SMALL });
      // Past a page (200 entries), then a change that removes and one that adds.
      const refs = await fill(writer, "u", 230);
      await writer.delete(refs[3]);
      await fill(writer, "v", 1);
      const loaded = [];
      const store = new Proxy(backing, {
        get(target, method) {
          const value = Reflect.get(target, method, target);
          if (typeof value !== "function") return value;
          return (first, ...rest) => {
            if (method === "load") loaded.push(first.join("/"));
            return value.call(target, first, ...rest);
          };
        },
      });
      const expected = await writer.usage();
      assert.equal(expected.results, 230);
      const fresh = new ToolStub({ store, sessionId: "s", config: SMALL });
      assert.deepEqual(await fresh.usage(), expected);
      assert.deepEqual(loaded, ["s/tool-stub/catalog-index"]);
    });
  }

  it("reads a catalog in the layout before pages, and writes it in pages", async () => {
    const store = new MemoryStore();
    const refs = await fill(new ToolStub({ store, sessionId: "s", config: SMALL }), "o", 5);
    const fresh = new ToolStub({ store, sessionId: "s", config: SMALL });
    const entries = (await fresh.list()).toolResults.map((record) => record.tool_result_id);
    assert.equal(entries.length, 5);
    // The same session as an older version stored it: a snapshot of three entries, then a log
    // record adding a fourth and removing one. The fifth result has no entry (found by verify).
    const pages = await store.loadKeys(["s", "tool-stub", "catalog-pages"]);
    const stored = JSON.parse(await store.load(pages[0]));
    await store.remove(["s", "tool-stub", "catalog-index"]);
    for (const key of pages) await store.remove(key);
    const snapshot = {
      format: "tool-stub-catalog",
      version: 1,
      seq: 1,
      entries: stored.slice(0, 3),
    };
    await store.save(["s", "tool-stub", "catalog.json"], JSON.stringify(snapshot));
    const change = { seq: 2, add: [stored[3]], remove: [stored[0].toolResultId] };
    await store.save(["s", "tool-stub", "catalog-log", "000000000002"], JSON.stringify(change));
    const older = new ToolStub({ store, sessionId: "s", config: SMALL });
    assert.equal((await older.usage()).results, 3, "the older catalog, as stored");
    assert.deepEqual(
      (await older.list()).toolResults.map((record) => record.tool_result_id),
      stored.slice(1, 4).map((entry) => entry.toolResultId),
    );
    assert.equal(await store.load(["s", "tool-stub", "catalog.json"]), undefined, "migrated");
    assert.deepEqual(await store.loadKeys(["s", "tool-stub", "catalog-log"]), []);
    assert.ok(await store.load(["s", "tool-stub", "catalog-index"]));
    await older.rebuildCatalog();
    assert.equal((await new ToolStub({ store, sessionId: "s" }).usage()).results, 5);
    assert.equal(refs.length, 5);
  });

  it("finds results written behind the catalog's back on verify and rebuildCatalog", async () => {
    const store = new MemoryStore();
    const [stored] = await fill(new ToolStub({ store, sessionId: "s", config: SMALL }), "a", 1);
    const id = stored.split("/").pop();
    for (const copy of ["tr_copy_0000000000000001", "tr_copy_0000000000000002"]) {
      for (const file of ["output.txt", "index.json", "metadata.json"])
        await store.save(
          ["s", "tool-results", copy, file],
          await store.load(["s", "tool-results", id, file]),
        );
    }
    const fresh = new ToolStub({ store, sessionId: "s", config: SMALL });
    assert.equal((await fresh.usage()).results, 1, "the catalog as stored");
    await fresh.verify("tr_copy_0000000000000001");
    assert.equal((await fresh.usage()).results, 3, "verify checks the catalog against the records");
    const other = new ToolStub({ store, sessionId: "s", config: SMALL });
    await store.remove(["s", "tool-results", "tr_copy_0000000000000002", "metadata.json"]);
    const rebuilt = await other.rebuildCatalog();
    assert.deepEqual(rebuilt.removed, ["tr_copy_0000000000000002"]);
    assert.equal((await other.usage()).results, 2);
  });
});
