// The public API against the built package: stubs, externalize → read/search/list round trips,
// typed errors, failure modes with failing stores, dedup, and exact storage of what the host gave.
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import * as path from "node:path";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { encode as wtf8Encode } from "../../pkg/js/stores/wtf8.js";
import {
  synopsis,
  renderStub,
  makePreview,
  toolResultId,
  sha256Hex,
  ToolStub,
  MemoryStore,
  NodeFsStore,
  ToolStubError,
  ROOT,
  rejectsWith,
} from "./pkg.js";
import { tempDir } from "./temp.js";

const bigJson = JSON.stringify({
  items: Array.from({ length: 3000 }, (_, i) => ({ id: i, name: `item ${i}` })),
});
const part = (toolId, output, extra = {}) => ({
  toolId,
  toolName: "fetch",
  output,
  mimeType: "application/json",
  ...extra,
});

describe("synopsis, renderStub, makePreview, toolResultId", () => {
  it("detects kinds and returns camelCase synopses", () => {
    const s = synopsis('{"a": 1, "b": [true]}');
    assert.equal(s.kind, "json");
    assert.deepEqual(s.notableItems, ["a: 1", "b[0]: True"]);
    assert.equal(synopsis("a,b\n1,2\n3,4\n").kind, "csv");
    assert.equal(synopsis("", { mimeType: "text/plain" }).title, "Empty output");
  });

  it("renders the same stub from a synopsis as makePreview", () => {
    const output = "# Title\n\nsome text\n";
    const options = {
      ref: "viking://x/tool-results/tr_1",
      toolName: "cat",
      sha256: sha256Hex(output),
      reason: "single_threshold",
    };
    const { synopsis: s, stub } = makePreview(output, { ...options, previewChars: 5 });
    assert.equal(
      renderStub(s, { ...options, originalChars: [...output].length, previewChars: 5 }),
      stub,
    );
    assert.match(
      stub,
      /^\[OpenViking tool result externalized\]\ntool_name: cat\nkind: text\noriginal_chars: 19\npreview_chars: 5\n/,
    );
  });

  it("builds ids like the reference", () => {
    const sha = sha256Hex("abc");
    assert.equal(toolResultId("call 1", sha), "tr_call_1_ba7816bf8f01cfea");
    assert.equal(toolResultId("", sha), "tr_ba7816bf8f01cfea414140de");
  });

  it("passes strings of every length and shape into the core intact", () => {
    // The glue copies a short ASCII head itself and encodes the rest (scripts/patch-glue.mjs):
    // heads around that length, every UTF-8 width and lone surrogates after it.
    for (const head of [0, 1, 63, 64, 65, 200, 100_000]) {
      for (const tail of ["", "é", "日本", "😀", "\uD800", "\uDC00x", "a".repeat(70)]) {
        const text = `${"a".repeat(head) + tail}z`;
        // Text with a lone surrogate is hashed over its WTF-8 (the bytes a store keeps).
        const expected = createHash("sha256").update(wtf8Encode(text)).digest("hex");
        assert.equal(
          sha256Hex(text),
          expected,
          `head ${head}, tail ${JSON.stringify(tail.slice(0, 8))}`,
        );
      }
    }
    // A one-byte string V8 reads from a buffer, as tool outputs usually are.
    const ascii = Buffer.from("x,y\n".repeat(300_000), "latin1").toString("latin1");
    assert.equal(sha256Hex(ascii), createHash("sha256").update(ascii).digest("hex"));
  });

  it("rejects bad arguments with INVALID_ARGUMENT", async () => {
    for (const bad of [
      () => synopsis(42),
      () => synopsis(null),
      () => synopsis("x", { previewChars: NaN }),
      () => synopsis("x", { previewChars: 1.5 }),
      () => synopsis("x", { unknownOption: 1 }),
      () => makePreview("x", { previewChars: "10" }),
      () => toolResultId("a", 5),
    ]) {
      await rejectsWith(bad, "INVALID_ARGUMENT");
    }
  });
});

describe("before the wasm module is ready", () => {
  it("calls fail with NOT_READY, not a crash", () => {
    // The API on a runtime no entry module built: nothing has instantiated the module.
    const script = `
      const { createApi, ToolStubError } = await import(${JSON.stringify(path.join(ROOT, "pkg/js/api.js"))});
      const { Runtime } = await import(${JSON.stringify(path.join(ROOT, "pkg/js/runtime.js"))});
      const core = await import(${JSON.stringify(path.join(ROOT, "pkg/wasm/tool_stub.js"))});
      const { synopsis } = createApi(new Runtime(core));
      try { synopsis("x"); console.log("no error"); } catch (e) { console.log(e instanceof ToolStubError, e.code, e.message); }`;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
    });
    assert.match(out, /^true NOT_READY the tool-stub wasm module is not initialized yet/);
  });

  it("the entry points do not export the readiness switch", async () => {
    const api = await import(path.join(ROOT, "pkg/js/node.js"));
    assert.equal(api.markReady, undefined);
  });
});

describe("ToolStub round trips", () => {
  it("externalizes a large output and reads, searches and lists it back", async () => {
    const ts = new ToolStub({ sessionId: "s1" });
    const input = [part("call_1", bigJson), part("call_2", "small")];
    const frozen = structuredClone(input);
    const out = await ts.externalize(input, { messageId: "m1" });
    assert.deepEqual(input, frozen, "inputs are untouched");
    assert.equal(out[0].truncated, true);
    assert.equal(out[0].externalizedReason, "single_threshold");
    assert.match(
      out[0].outputRef,
      /^viking:\/\/user\/default\/sessions\/s1\/tool-results\/tr_call_1_[0-9a-f]{16}$/,
    );
    assert.match(out[0].output, /kind: json/);
    assert.equal(out[0].originalChars, bigJson.length);
    assert.equal(out[1].output, "small");
    assert.equal(out[1].outputRef, "");
    assert.equal(out[1].groupId, "m1");

    const all = await ts.read(out[0].outputRef, { offset: 0, limit: -1 });
    assert.equal(all.content, bigJson);
    assert.equal(all.hasMore, false);
    assert.equal(all.metadata.sha256, sha256Hex(bigJson));
    const window = await ts.read(out[0].outputRef.split("/").pop(), {
      offset: 10,
      limit: 20,
      includeMetadata: false,
    });
    assert.deepEqual(
      {
        content: window.content,
        offset: window.offset,
        limit: window.limit,
        totalChars: window.totalChars,
        hasMore: window.hasMore,
        unit: window.offsetUnit,
      },
      {
        content: bigJson.slice(10, 30),
        offset: 10,
        limit: 20,
        totalChars: bigJson.length,
        hasMore: true,
        unit: "unicode_code_point",
      },
    );
    assert.equal(window.metadata, undefined);

    const found = await ts.search(out[0].outputRef, { query: '"item 2999"', contextChars: 5 });
    assert.equal(found.matches.length, 1);
    assert.equal(found.matches[0].offset, bigJson.indexOf('"item 2999"'));
    assert.equal(found.matches[0].snippet, 'ame":"item 2999"}]}');

    const listed = await ts.list();
    assert.deepEqual(
      listed.toolResults.map((r) => r.tool_id),
      ["call_1"],
    );
    assert.deepEqual((await ts.list({ toolName: "other" })).toolResults, []);
  });

  it("stores an output with lone surrogates exactly as given", async () => {
    const odd = "bad \uD800 surrogate ".repeat(2000);
    const ts = new ToolStub({ sessionId: "s2", config: { thresholdChars: 100 } });
    const [out] = await ts.externalize([part("c", odd, { mimeType: "text/plain" })], {
      messageId: "m",
    });
    assert.equal(out.truncated, true);
    assert.equal((await ts.read(out.outputRef, { limit: -1 })).content, odd);
  });

  it("writes an identical output once (dedup by tool id and sha256)", async () => {
    const saves = [];
    const store = new MemoryStore();
    const counting = Object.create(store);
    counting.save = (key, value) => {
      saves.push(key.join("/"));
      return store.save(key, value);
    };
    counting.load = (key) => store.load(key);
    counting.loadRange = (prefix) => store.loadRange(prefix);
    counting.loadKeys = (prefix) => store.loadKeys(prefix);
    counting.lock = (key) => store.lock(key);
    const ts = new ToolStub({ store: counting, sessionId: "s3" });
    const first = await ts.externalize([part("same", bigJson)], { messageId: "m1" });
    const second = await ts.externalize([part("same", bigJson)], { messageId: "m2" });
    // The result's files, once (the session's catalog records the result once too).
    const results = saves.filter((key) => key.includes("/tool-results/"));
    assert.deepEqual(
      results.map((key) => key.split("/").pop()),
      ["output.txt", "index.json", "metadata.json"],
      "once",
    );
    assert.equal(
      saves.filter((key) => key.endsWith("/tool-stub/catalog-index")).length,
      1,
      "one change of the catalog",
    );
    assert.equal(first[0].outputRef, second[0].outputRef);
    assert.equal(first[0].output, second[0].output);
  });

  it("returns new parts that keep the caller's own keys, a '__proto__' key as a plain key", async () => {
    const ts = new ToolStub({ sessionId: "s3b" });
    const parsed = JSON.parse(
      `{"toolId": "p", "toolName": "fetch", "output": "short", "mine": 1, "__proto__": {"polluted": true}}`,
    );
    const given = [part("a", bigJson, { mine: 2 }), parsed];
    const [big, small] = await ts.externalize(given, { messageId: "m" });
    assert.equal(big.mine, 2);
    assert.ok(big.outputRef && big.output !== bigJson);
    assert.equal(small.output, "short");
    assert.equal(small.mine, 1);
    assert.equal(Object.getPrototypeOf(small), Object.prototype);
    assert.deepEqual(Object.getOwnPropertyDescriptor(small, "__proto__")?.value, {
      polluted: true,
    });
    assert.equal(small.polluted, undefined);
    assert.equal(given[0].output, bigJson, "the inputs are not touched");
  });

  it("reports NOT_FOUND, bad ids and bad arguments as typed errors", async () => {
    const ts = new ToolStub({ sessionId: "s4" });
    await rejectsWith(ts.read("tr_missing_0123456789abcdef"), "NOT_FOUND");
    await rejectsWith(ts.search("tr_missing", { query: "x" }), "NOT_FOUND");
    for (const id of [
      "../x",
      "a/b",
      "a\\b",
      "a\0b",
      "x".repeat(10_000),
      "",
      "https://example.com/page",
    ]) {
      await rejectsWith(ts.read(id), "INVALID_ARGUMENT");
    }
    // A ref of a session this ToolStub was not granted.
    await rejectsWith(ts.read("viking://other/tool-results/tr_1"), "FORBIDDEN");
    for (const options of [
      { offset: -1 },
      { limit: -2 },
      { offset: NaN },
      { offset: 0.5 },
      { limit: 2 ** 60 },
      { bogus: 1 },
    ]) {
      await rejectsWith(ts.read("tr_x", options), "INVALID_ARGUMENT");
    }
    await rejectsWith(ts.search("tr_x", { query: "" }), "INVALID_ARGUMENT");
    await rejectsWith(ts.search("tr_x", { query: "a", limit: 0 }), "INVALID_ARGUMENT");
    await rejectsWith(ts.list({ limit: 0 }), "INVALID_ARGUMENT");
    await rejectsWith(ts.externalize("not an array", { messageId: "m" }), "INVALID_ARGUMENT");
    await rejectsWith(ts.externalize([part("c", 42)], { messageId: "m" }), "INVALID_ARGUMENT");
    await rejectsWith(ts.externalize([part("c", "x")], {}), "INVALID_ARGUMENT");
    await rejectsWith(() => new ToolStub({ sessionId: "../etc" }), "INVALID_ARGUMENT");
    await rejectsWith(() => new ToolStub({ sessionId: "a/b" }), "INVALID_ARGUMENT");
    await rejectsWith(
      () => new ToolStub({ sessionId: "s", config: { thresholdChar: 5 } }),
      "INVALID_ARGUMENT",
    );
  });

  it("rejects a bad config value when constructed, naming what is allowed", async () => {
    await rejectsWith(
      () => new ToolStub({ sessionId: "s5", config: { failureMode: "explode" } }),
      "INVALID_ARGUMENT",
    );
    assert.throws(
      () => new ToolStub({ sessionId: "s5", config: { treshold: 1 } }),
      /unknown field `treshold`, expected one of `enabled`, `thresholdChars`/,
    );
  });

  it("brands its stubs with config.stubHeader; the default is the reference's header", async () => {
    const output = "word ".repeat(6000);
    const branded = new ToolStub({
      sessionId: "brand",
      config: { stubHeader: "[acme: tool output stored]" },
    });
    const [out] = await branded.externalize([{ toolId: "a", toolName: "t", output }], {
      messageId: "m",
    });
    assert.equal(out.output.split("\n")[0], "[acme: tool output stored]");
    assert.equal((await branded.read(out.outputRef, { limit: -1 })).content, output);
    const plain = new ToolStub({ sessionId: "brand" });
    const [ref] = await plain.externalize([{ toolId: "a", toolName: "t", output }], {
      messageId: "m",
    });
    assert.equal(ref.output.split("\n")[0], "[OpenViking tool result externalized]");
    assert.equal(
      ref.output.replace(/^.*\n/, ""),
      out.output.replace(/^.*\n/, ""),
      "only the first line differs",
    );
    assert.equal(makePreview("x", { stubHeader: "[h]" }).stub.split("\n")[0], "[h]");
    for (const stubHeader of ["", "two\nlines"]) {
      assert.throws(
        () => new ToolStub({ sessionId: "brand", config: { stubHeader } }),
        (e) =>
          e instanceof ToolStubError &&
          e.code === "INVALID_ARGUMENT" &&
          /stubHeader/.test(e.message),
      );
    }
  });
});

describe("failure modes with a store that fails", () => {
  class FailingStore extends MemoryStore {
    async save() {
      const error = new Error("disk is full");
      error.name = "QuotaExceededError";
      throw error;
    }
  }

  it("preserve_raw keeps the raw output and records the error", async () => {
    const ts = new ToolStub({ store: new FailingStore(), sessionId: "f1" });
    const [out] = await ts.externalize([part("c", bigJson)], { messageId: "m" });
    assert.equal(out.output, bigJson);
    assert.equal(out.truncated, false);
    assert.equal(out.externalizationError, "QuotaExceededError: disk is full");
  });

  it("preview_only puts a stub without a ref in place", async () => {
    const ts = new ToolStub({
      store: new FailingStore(),
      sessionId: "f2",
      config: { failureMode: "preview_only" },
    });
    const [out] = await ts.externalize([part("c", bigJson)], { messageId: "m" });
    assert.equal(out.truncated, true);
    assert.equal(out.outputRef, "");
    assert.match(out.output, /reason: single_threshold:externalization_failed/);
    // The suffix is the stub text's only: the part keeps the reason it was selected for.
    assert.equal(out.externalizedReason, "single_threshold");
    assert.doesNotMatch(out.output, /Explore:/);
    assert.equal(out.externalizationError, "QuotaExceededError: disk is full");
  });

  it("reject fails the turn with STORE_FAILED", async () => {
    const ts = new ToolStub({
      store: new FailingStore(),
      sessionId: "f3",
      config: { failureMode: "reject" },
    });
    await rejectsWith(ts.externalize([part("c", bigJson)], { messageId: "m" }), "STORE_FAILED");
  });
});

describe("bounded stubs", () => {
  it("a CSV with many columns gets a stub within maxStubChars, with markers", async () => {
    const header = Array.from({ length: 100_000 }, (_, i) => `c${i}`).join(",");
    const csv = `${header}\n${header}\n`;
    const { stub } = makePreview(csv, { maxStubChars: 3000 });
    assert.ok(stub.length <= 3000, `${stub.length}`);
    assert.match(stub, / more/);
    assert.ok(makePreview(csv).stub.length <= 20000);
    const ts = new ToolStub({ sessionId: "bounded", config: { maxStubChars: 5000 } });
    const [out] = await ts.externalize([part("a", csv, { mimeType: "text/csv" })], {
      messageId: "m",
    });
    assert.equal(out.truncated, true);
    assert.ok(out.output.length <= 5000, `${out.output.length}`);
    const record = (await ts.list()).toolResults[0];
    assert.ok(JSON.stringify(record.synopsis).length < 5000);
  });
});

describe("reference edges", () => {
  it("records carry peerId, and a part's own messageId names its record's message", async () => {
    const store = new MemoryStore();
    const ts = new ToolStub({ store, sessionId: "edges" });
    const parts = [
      part("a", bigJson),
      part("b", bigJson.replace("item", "thing"), { messageId: "m2" }),
    ];
    const out = await ts.externalize(parts, { messageId: "m1", peerId: "peer-1" });
    const { toolResults } = await ts.list();
    const byTool = Object.fromEntries(toolResults.map((record) => [record.tool_id, record]));
    assert.equal(byTool.a.message_id, "m1");
    assert.equal(byTool.b.message_id, "m2");
    assert.equal(byTool.a.peer_id, "peer-1");
    assert.equal(byTool.b.peer_id, "peer-1");
    assert.deepEqual(
      out.map((p) => p.groupId),
      ["m1", "m1"],
    );
    assert.equal(out[1].messageId, "m2");
    const plain = new ToolStub({ store: new MemoryStore(), sessionId: "edges2" });
    await plain.externalize([part("a", bigJson)], { messageId: "m" });
    assert.equal((await plain.list()).toolResults[0].peer_id, null);
    await rejectsWith(
      plain.externalize([part("a", bigJson)], { messageId: "m", peerId: 5 }),
      "INVALID_ARGUMENT",
    );
  });

  it("the reference's full config (model_dump) is accepted", async () => {
    const config = {
      enabled: true,
      threshold_chars: 20000,
      preview_chars: 2000,
      assistant_turn_inline_budget_chars: 100000,
      assistant_turn_preview_budget_chars: 10000,
      min_preview_chars: 1000,
      failure_mode: "preserve_raw",
      aggregate_selection_strategy: "largest_first",
    };
    const ts = new ToolStub({ sessionId: "cfg", config });
    const [out] = await ts.externalize([part("a", bigJson)], { messageId: "m" });
    assert.equal(out.truncated, true);
    await rejectsWith(
      () =>
        new ToolStub({
          sessionId: "cfg2",
          config: { aggregate_selection_strategy: "smallest_first" },
        }),
      "INVALID_ARGUMENT",
    );
  });

  it("a read-back whose tool_output_ref is not a string is stored as a new result, and offset/limit keep their values", async () => {
    const ts = new ToolStub({ sessionId: "rb" });
    const [stored] = await ts.externalize([part("a", bigJson)], { messageId: "m" });
    const readName = "openviking_tool_result_read";
    const window = bigJson.slice(0, 30000);
    const [numeric] = await ts.externalize(
      [
        {
          toolId: "r1",
          toolName: readName,
          output: window,
          toolInput: { tool_output_ref: 7, ref: stored.outputRef },
        },
      ],
      { messageId: "m2" },
    );
    assert.equal(numeric.externalizedReason, "single_threshold");
    assert.notEqual(numeric.outputRef, stored.outputRef);
    const [source] = await ts.externalize(
      [
        {
          toolId: "r2",
          toolName: readName,
          output: window,
          toolInput: { ref: stored.outputRef, offset: "0", limit: 1.5 },
        },
      ],
      { messageId: "m3" },
    );
    assert.equal(source.externalizedReason, "source_read");
    assert.equal(source.sourceOffset, "0");
    assert.equal(source.sourceLimit, 1.5);
  });
});

describe("NodeFsStore across a process restart", () => {
  it("reads back, in a new process, what another process stored", async () => {
    const dir = tempDir("tool-stub-restart-");
    const script = `
      import { ToolStub, NodeFsStore } from ${JSON.stringify(path.join(ROOT, "pkg/js/node.js"))};
      const ts = new ToolStub({ store: new NodeFsStore(${JSON.stringify(dir)}), sessionId: "r1" });
      const [out] = await ts.externalize([{ toolId: "c1", toolName: "fetch", output: process.argv[1] }], { messageId: "m" });
      console.log(out.outputRef);`;
    const ref = execFileSync(process.execPath, ["--input-type=module", "-e", script, bigJson], {
      encoding: "utf8",
    }).trim();
    const ts = new ToolStub({ store: new NodeFsStore(dir), sessionId: "r1" });
    assert.equal((await ts.read(ref, { limit: -1 })).content, bigJson);
    assert.equal((await ts.search(ref, { query: '"id":2999' })).matches.length, 1);
    assert.equal((await ts.list()).toolResults[0].storage_uri, ref);
  });
});

describe("externalize's host SHA-256", () => {
  it("records the digest of the stored bytes, astral chars and lone surrogates (WTF-8) included", async () => {
    const output = `😀 astral ${"\uD800"} lone ${"é".repeat(12_000)} \uDFFF end ${"x ".repeat(10_000)}`;
    const stub = new ToolStub({ sessionId: "sha" });
    const [part] = await stub.externalize([{ toolId: "t", toolName: "x", output }], {
      messageId: "m",
    });
    assert.ok(part.truncated);
    assert.equal(part.sha256, sha256Hex(output));
    assert.notEqual(part.sha256, sha256Hex(output.toWellFormed()));
    assert.equal((await stub.verify(part.outputRef)).sha256, part.sha256);
  });
});
