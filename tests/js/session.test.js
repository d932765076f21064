// Session-level calls at scale and their reliability: the catalog answers
// list, usage, retention and searchAll's candidates without loading outputs; it is found wrong
// and repaired; unreadable results are skipped and reported; retention never loses a turn;
// deleteSession removes only what the package wrote; processes share a session through its lock.
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { mkdirSync, writeFileSync, readFileSync, rmSync, existsSync } from "node:fs";
import * as path from "node:path";
import { spawn } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { ToolStub, MemoryStore, NodeFsStore, ROOT, rejectsWith } from "./pkg.js";
import { tempDir } from "./temp.js";

const NODE_ENTRY = path.join(ROOT, "pkg/js/node.js");
const big = (tag, n = 25_000) => `${tag}\n${"x ".repeat(n / 2)}`;
const part = (toolId, output, toolName = "t") => ({ toolId, toolName, output });
const freshDir = (name) => tempDir(`tool-stub-${name}-`);

/** A store that counts what it is asked: loads of output files, and loadRange calls. */
function counting(store) {
  const seen = { outputLoads: 0, loadRange: 0 };
  const wrapped = {
    load: (key) => {
      if (key.at(-1) === "output.txt") seen.outputLoads++;
      return store.load(key);
    },
    save: (key, value) => store.save(key, value),
    remove: (key) => store.remove(key),
    loadRange: (prefix) => {
      seen.loadRange++;
      return store.loadRange(prefix);
    },
    removeRange: (prefix) => store.removeRange(prefix),
    loadKeys: (prefix) => store.loadKeys(prefix),
    lock: (key) => store.lock(key),
  };
  return { store: wrapped, seen };
}

async function fill(ts, n, toolName = (i) => (i % 2 ? "odd" : "even")) {
  const out = [];
  for (let i = 0; i < n; i++)
    out.push(
      ...(await ts.externalize([part(`c${i}`, big(`out ${i}`), toolName(i))], {
        messageId: `m${i}`,
      })),
    );
  return out;
}

describe("the session catalog", () => {
  it("list, usage and prune load no output; searchAll loads only its tool's outputs", async () => {
    const { store, seen } = counting(new MemoryStore());
    const ts = new ToolStub({ store, sessionId: "s", config: { maxResults: 100 } });
    await fill(ts, 6);
    seen.outputLoads = 0;
    seen.loadRange = 0;
    assert.equal((await ts.list()).toolResults.length, 6);
    assert.equal((await ts.list({ toolName: "odd", limit: 2 })).toolResults.length, 2);
    assert.deepEqual(await ts.usage(), {
      results: 6,
      chars: 6 * big("out 0").length,
      bytes: (await ts.usage()).bytes,
    });
    assert.deepEqual(await ts.prune(), { deleted: [] });
    assert.equal(seen.outputLoads, 0, "no output loaded");
    const found = await ts.searchAll({ query: "out", toolName: "odd" });
    assert.equal(found.totalResults, 3);
    assert.equal(seen.outputLoads, 3, "only the odd tool's outputs");
    assert.equal(seen.loadRange, 0, "no call loads a whole session");
  });

  it("prune refuses a protect list that is not an array as INVALID_ARGUMENT", async () => {
    const ts = new ToolStub({ sessionId: "p", config: { maxResults: 3 } });
    for (const protect of ["tr_x", {}, 7]) {
      await rejectsWith(ts.prune({ protect }), "INVALID_ARGUMENT", /protect must be an array/);
    }
    await rejectsWith(ts.prune({ protect: [7] }), "INVALID_ARGUMENT", /must be a string/);
    assert.deepEqual(await ts.prune({ protect: [] }), { deleted: [] });
  });

  it("usage counts what the files hold and agrees with list (orphans and temp files are not results)", async () => {
    const dir = freshDir("usage");
    const ts = new ToolStub({ store: new NodeFsStore(dir), sessionId: "u" });
    const [a] = await ts.externalize([part("a", big("a"))], { messageId: "m" });
    const id = a.outputRef.split("/").pop();
    const files = ["output.txt", "index.json", "metadata.json"].map((f) =>
      path.join(dir, "u", "tool-results", id, f),
    );
    const bytes = files.reduce((sum, f) => sum + readFileSync(f).length, 0);
    const orphan = path.join(dir, "u", "tool-results", "tr_orphan_0123456789abcdef");
    mkdirSync(orphan, { recursive: true });
    writeFileSync(path.join(orphan, "output.txt"), "half");
    writeFileSync(
      path.join(dir, "u", "tool-results", id, `.output.txt.1.${"0".repeat(16)}.tmp`),
      "temp",
    );
    const fresh = new ToolStub({ store: new NodeFsStore(dir), sessionId: "u" });
    const usage = await fresh.usage();
    assert.deepEqual(usage, { results: 1, chars: big("a").length, bytes });
    assert.equal((await fresh.list()).toolResults.length, usage.results);
  });

  it("lists any JSON object record, as the reference does (a record lacking optional fields)", async () => {
    const store = new MemoryStore();
    await store.save(
      ["s", "tool-results", "tr_x", "metadata.json"],
      '{"tool_result_id": "tr_x", "tool_name": "t"}',
    );
    await store.save(["s", "tool-results", "tr_x", "output.txt"], "raw");
    await store.save(["s", "tool-results", "tr_y", "metadata.json"], "[1, 2]");
    const ts = new ToolStub({ store, sessionId: "s" });
    assert.deepEqual((await ts.list()).toolResults, [{ tool_result_id: "tr_x", tool_name: "t" }]);
    assert.deepEqual((await ts.list({ toolName: "t" })).toolResults.length, 1);
    assert.equal((await ts.usage()).results, 1);
  });

  it("finds results stored without an entry and drops entries whose record is gone", async () => {
    const dir = freshDir("repair");
    const store = new NodeFsStore(dir);
    const ts = new ToolStub({ store, sessionId: "r" });
    const stored = await fill(ts, 3);
    // Another tool writes the reference layout; one result vanishes behind the package's back.
    const foreign = path.join(dir, "r", "tool-results", "tr_foreign_00112233aabbccdd");
    mkdirSync(foreign, { recursive: true });
    writeFileSync(path.join(foreign, "output.txt"), "from elsewhere é");
    writeFileSync(
      path.join(foreign, "metadata.json"),
      JSON.stringify({
        tool_result_id: "tr_foreign_00112233aabbccdd",
        tool_name: "py",
        created_at: "2020-01-01T00:00:00Z",
        original_chars: 16,
      }),
    );
    rmSync(path.join(dir, "r", "tool-results", stored[0].outputRef.split("/").pop()), {
      recursive: true,
    });
    // A new ToolStub trusts the stored catalog (its first call lists no record); rebuildCatalog()
    // checks it against the records.
    const next = new ToolStub({ store, sessionId: "r" });
    const gone = stored[0].outputRef.split("/").pop();
    assert.equal((await next.usage()).results, 3, "the catalog as stored");
    const repaired = await next.rebuildCatalog();
    assert.deepEqual(repaired.added, ["tr_foreign_00112233aabbccdd"]);
    assert.deepEqual(repaired.removed, [gone]);
    const ids = (await next.list()).toolResults.map((r) => r.tool_result_id);
    assert.ok(ids.includes("tr_foreign_00112233aabbccdd"), "the foreign result is listed");
    assert.equal(ids.length, 3);
    assert.deepEqual(await next.usage().then((u) => u.results), 3);
    // The same ToolStub finds later changes on rebuildCatalog().
    rmSync(foreign, { recursive: true });
    const rebuilt = await next.rebuildCatalog();
    assert.deepEqual(rebuilt.removed, ["tr_foreign_00112233aabbccdd"]);
    assert.equal(rebuilt.results, 2);
    assert.equal((await next.usage()).results, 2);
  });

  it("verify adds a verified result the catalog lacks", async () => {
    const store = new MemoryStore();
    const ts = new ToolStub({ store, sessionId: "v" });
    const [a] = await ts.externalize([part("a", big("a"))], { messageId: "m" });
    // A second result written behind the loaded catalog's back, by copying the first's files.
    const id = a.outputRef.split("/").pop();
    for (const file of ["output.txt", "index.json", "metadata.json"]) {
      await store.save(
        ["v", "tool-results", "tr_copy_0000000000000000", file],
        await store.load(["v", "tool-results", id, file]),
      );
    }
    assert.equal((await ts.usage()).results, 1, "the loaded catalog does not know it yet");
    await ts.verify("tr_copy_0000000000000000");
    assert.equal((await ts.usage()).results, 2);
  });
});

describe("session-level calls and unreadable results", () => {
  it("skip a result whose output is not UTF-8 and report it, and retention still works", async () => {
    const dir = freshDir("unreadable");
    const ts = new ToolStub({
      store: new NodeFsStore(dir),
      sessionId: "b",
      config: { maxResults: 10 },
    });
    const stored = await fill(ts, 3, () => "t");
    const badId = stored[1].outputRef.split("/").pop();
    writeFileSync(
      path.join(dir, "b", "tool-results", badId, "output.txt"),
      Buffer.from([0x6f, 0x75, 0x74, 0xff, 0xfe]),
    );
    const found = await ts.searchAll({ query: "out" });
    assert.equal(found.totalResults, 2);
    assert.deepEqual(
      found.skipped.map((s) => s.toolResultId),
      [badId],
    );
    assert.equal(typeof found.skipped[0].code, "string");
    assert.equal((await ts.list()).toolResults.length, 3);
    assert.equal((await ts.usage()).results, 3);
    const more = await ts.externalize([part("d", big("d"))], { messageId: "m" });
    assert.equal(more[0].truncated, true);
    assert.deepEqual(more.retention, { deleted: [], skipped: [] });
  });

  it("searchAll skips a result whose record has a null synopsis and searches the rest", async () => {
    // A result in the reference layout (output and record, no index) whose record says
    // "synopsis": null: list and usage show it; searching must not fail for the whole session.
    const dir = freshDir("null-synopsis");
    try {
      const ts = new ToolStub({ store: new NodeFsStore(dir), sessionId: "n" });
      const stored = await fill(ts, 3, () => "t");
      const badId = stored[1].outputRef.split("/").pop();
      const resultDir = path.join(dir, "n", "tool-results", badId);
      const record = JSON.parse(readFileSync(path.join(resultDir, "metadata.json"), "utf8"));
      record.synopsis = null;
      writeFileSync(path.join(resultDir, "metadata.json"), JSON.stringify(record, null, 2));
      rmSync(path.join(resultDir, "index.json"), { force: true });
      const fresh = new ToolStub({ store: new NodeFsStore(dir), sessionId: "n" });
      assert.equal((await fresh.list()).toolResults.length, 3);
      const found = await fresh.searchAll({ query: "out" });
      assert.equal(found.totalResults, 2);
      assert.deepEqual(
        found.skipped.map((s) => [s.toolResultId, s.code]),
        [[badId, "CORRUPT"]],
      );
      const viaModel = await fresh.handleToolCall("openviking_tool_result_search_all", {
        query: "out",
      });
      assert.equal(viaModel.error, undefined);
      assert.equal(viaModel.total_results ?? viaModel.totalResults, 2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a part carrying another session's ref does not make externalize with retention throw", async () => {
    const ts = new ToolStub({ sessionId: "mine", config: { maxResults: 1 } });
    const foreign = {
      toolId: "old",
      toolName: "t",
      output: "stub",
      outputRef: "viking://user/default/sessions/other/tool-results/tr_x_0011223344556677",
      truncated: true,
    };
    const out = await ts.externalize([foreign, part("new", big("new"))], { messageId: "m" });
    assert.equal(out[1].truncated, true);
    assert.equal((await ts.read(out[1].outputRef, { limit: 3 })).content, "new");
  });

  it("a failed prune is reported beside the parts, never thrown after storing", async () => {
    const store = new MemoryStore();
    store.removeRange = async () => {
      throw new Error("disk says no");
    };
    const ts = new ToolStub({ store, sessionId: "p", config: { maxResults: 1 } });
    await ts.externalize([part("a", big("a"))], { messageId: "m1" });
    const out = await ts.externalize([part("b", big("b"))], { messageId: "m2" });
    assert.equal(out[0].truncated, true);
    assert.equal((await ts.read(out[0].outputRef, { limit: 1 })).content, "b");
    assert.equal(out.retention.skipped.length, 1);
    assert.match(out.retention.skipped[0].message, /disk says no/);
  });

  it("a result reused by a later turn is as fresh as that turn for retention", async () => {
    // Turns A, B, C, then A again (identical output: its ref is reused and handed out), then D.
    // With room for three, B goes: the ref the model got in turn 4 must still read after turn 5.
    const dir = freshDir("reuse");
    try {
      let clock = Date.parse("2030-01-01T00:00:00Z");
      const now = () => {
        clock += 1000;
        return new Date(clock).toISOString();
      };
      const config = { maxResults: 3 };
      const ts = new ToolStub({ store: new NodeFsStore(dir), sessionId: "r", config, now });
      const turn = async (tag) =>
        (await ts.externalize([part(tag, big(`out ${tag}`))], { messageId: `m-${tag}` }))[0];
      const a = await turn("A");
      const b = await turn("B");
      const c = await turn("C");
      const again = await turn("A");
      assert.equal(again.outputRef, a.outputRef, "an identical output reuses its result");
      const d = await turn("D");
      const idOf = (stub) => stub.outputRef.split("/").pop();
      const kept = (await ts.list()).toolResults.map((r) => r.tool_result_id).sort();
      assert.deepEqual(kept, [idOf(a), idOf(c), idOf(d)].sort());
      assert.equal((await ts.read(again.outputRef, { limit: 5 })).content, "out A");
      await assert.rejects(ts.read(b.outputRef, { limit: 5 }), { code: "NOT_FOUND" });
      // The reuse is remembered by the stored catalog: a new ToolStub on the session plans alike.
      const later = new ToolStub({ store: new NodeFsStore(dir), sessionId: "r", config, now });
      await later.externalize([part("E", big("out E"))], { messageId: "m-E" });
      assert.equal((await later.read(again.outputRef, { limit: 5 })).content, "out A");
      await assert.rejects(later.read(c.outputRef, { limit: 5 }), { code: "NOT_FOUND" });
      await later.externalize([part("F", big("out F"))], { messageId: "m-F" });
      await assert.rejects(later.read(again.outputRef, { limit: 5 }), { code: "NOT_FOUND" });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("concurrent externalize calls with retention on a slow store keep every returned ref", async () => {
    const inner = new MemoryStore();
    const slow = Object.assign(Object.create(null), {
      load: async (k) => {
        await sleep(1);
        return inner.load(k);
      },
      save: async (k, v) => {
        await sleep(2);
        return inner.save(k, v);
      },
      remove: (k) => inner.remove(k),
      loadRange: (p) => inner.loadRange(p),
      removeRange: async (p) => {
        await sleep(1);
        return inner.removeRange(p);
      },
      loadKeys: (p) => inner.loadKeys(p),
    });
    const ts = new ToolStub({ store: slow, sessionId: "c", config: { maxResults: 3 } });
    const turns = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        ts.externalize([part(`c${i}`, big(`turn ${i}`))], { messageId: `m${i}` }),
      ),
    );
    // Each call's own result survives its own prune; the last three survive everything.
    for (const turn of turns) assert.equal(turn[0].truncated, true);
    const kept = (await ts.list()).toolResults.map((r) => r.tool_id);
    assert.equal(kept.length, 3);
    for (const record of (await ts.list()).toolResults) await ts.verify(record.tool_result_id);
  });
});

describe("deleteSession", () => {
  it("removes the session's results and catalog, not the rest of its folder", async () => {
    const dir = freshDir("delete-session");
    const ts = new ToolStub({ store: new NodeFsStore(dir), sessionId: "d" });
    await fill(ts, 2);
    writeFileSync(path.join(dir, "d", "messages.jsonl"), "{}\n");
    mkdirSync(path.join(dir, "d", "memory"));
    writeFileSync(path.join(dir, "d", "memory", "note.md"), "keep");
    await ts.deleteSession();
    assert.ok(existsSync(path.join(dir, "d", "messages.jsonl")));
    assert.ok(existsSync(path.join(dir, "d", "memory", "note.md")));
    assert.ok(!existsSync(path.join(dir, "d", "tool-results")));
    assert.deepEqual(await ts.usage(), { results: 0, chars: 0, bytes: 0 });
    await ts.externalize([part("again", big("again"))], { messageId: "m" });
    assert.equal((await ts.list()).toolResults.length, 1);
  });
});

describe("processes sharing a session", () => {
  const worker = (dir, name, n, config) => `
    import { ToolStub, NodeFsStore } from ${JSON.stringify(NODE_ENTRY)};
    const ts = new ToolStub({ store: new NodeFsStore(${JSON.stringify(dir)}), sessionId: "shared", config: ${JSON.stringify(config)} });
    for (let i = 0; i < ${n}; i++) {
      const [p] = await ts.externalize([{ toolId: "${name}_" + i, toolName: "${name}", output: "${name} " + i + "\\n" + "payload ".repeat(3000) }], { messageId: "m" + i });
      if (!p.truncated) throw new Error("not stored: " + p.externalizationError);
      if (i === 2) console.log("running");
    }`;
  const run = (script, onStart) =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
        stdio: ["ignore", "pipe", "inherit"],
      });
      child.stdout.once("data", () => onStart?.(child));
      child.once("exit", (code, signal) =>
        code === 0 || signal === "SIGKILL" ? resolve(signal) : reject(new Error(`exited ${code}`)),
      );
    });

  it("two processes externalizing into one session lose no catalog entry", async () => {
    const dir = freshDir("two-procs");
    await Promise.all([run(worker(dir, "a", 40, {})), run(worker(dir, "b", 40, {}))]);
    const ts = new ToolStub({ store: new NodeFsStore(dir), sessionId: "shared" });
    const listed = await ts.list({ limit: 1000 });
    assert.equal(listed.toolResults.length, 80);
    assert.equal((await ts.usage()).results, 80);
    // The catalog as stored, without checking it against the records, holds every one too.
    const rebuilt = await ts.rebuildCatalog();
    assert.deepEqual([rebuilt.added, rebuilt.removed, rebuilt.results], [[], [], 80]);
  });

  it("a process killed mid-externalize with retention leaves a session the next call answers correctly", async () => {
    for (let trial = 0; trial < 3; trial++) {
      const dir = freshDir("kill");
      await run(worker(dir, "k", 10_000, { maxResults: 5 }), async (child) => {
        await sleep(20 + Math.floor(Math.random() * 200));
        child.kill("SIGKILL");
      });
      const ts = new ToolStub({
        store: new NodeFsStore(dir),
        sessionId: "shared",
        config: { maxResults: 5 },
      });
      const [p] = await ts.externalize([part("after", big("after"))], { messageId: "m" });
      assert.equal(p.truncated, true);
      const { toolResults } = await ts.list({ limit: 1000 });
      assert.equal((await ts.usage()).results, toolResults.length);
      assert.ok(toolResults.length <= 5, `${toolResults.length} results kept`);
      for (const record of toolResults) await ts.verify(record.tool_result_id);
      const rebuilt = await ts.rebuildCatalog();
      assert.deepEqual(
        [rebuilt.added, rebuilt.removed],
        [[], []],
        `trial ${trial}: the catalog was right`,
      );
    }
  });
});

describe("tool-stub/testing", () => {
  it("runs the store conformance suite on any store and reports each check", async () => {
    const { runStoreConformance, cases } = await import("../../pkg/js/conformance.js");
    const seen = [];
    const report = await runStoreConformance(() => new MemoryStore(), {
      onResult: (r) => seen.push(r.name),
    });
    assert.equal(report.failed, 0, JSON.stringify(report.results.filter((r) => !r.ok)));
    assert.equal(report.passed, cases.length);
    assert.ok(
      seen.includes(
        "lock is exclusive, served in order, and releasing twice is harmless (optional)",
      ),
    );
    // A store that breaks the contract is reported, not thrown.
    const broken = await runStoreConformance(() =>
      Object.assign(new MemoryStore(), { load: async () => "always" }),
    );
    assert.ok(broken.failed > 0 && broken.results.some((r) => !r.ok && r.error));
  });

  it("checks the optional size() only where the store has it, as the Store type says", async () => {
    const { runStoreConformance } = await import("../../pkg/js/conformance.js");
    // A store without size() (it is optional in store.d.ts) passes every check.
    const withoutSize = await runStoreConformance(() => {
      const store = new MemoryStore();
      return new Proxy(store, {
        get: (target, name) => {
          if (name === "size") return undefined;
          const value = Reflect.get(target, name);
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
    });
    assert.equal(withoutSize.failed, 0, JSON.stringify(withoutSize.results.filter((r) => !r.ok)));
    // One whose size() is wrong fails them.
    const wrongSize = await runStoreConformance(() =>
      Object.assign(new MemoryStore(), { size: async () => 7 }),
    );
    const failedNames = wrongSize.results.filter((r) => !r.ok).map((r) => r.name);
    assert.ok(failedNames.includes("size() equals value.length in UTF-16 code units (optional)"));
  });
});
