// Per-result data integrity: identity is the exact stored text, reads check what they
// trust, dedup checks what it reuses, deletes never leave a record without its output, session ids
// stay inside the store's layout, temp leftovers are reclaimed, and no message carries a path.
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import {
  mkdirSync,
  readdirSync,
  writeFileSync,
  readFileSync,
  existsSync,
  truncateSync,
  appendFileSync,
  utimesSync,
  unlinkSync,
} from "node:fs";
import * as path from "node:path";
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { ToolStub, MemoryStore, NodeFsStore, sha256Hex, isCode } from "./pkg.js";
import { encode } from "../../pkg/js/stores/wtf8.js";
import { tempDir } from "./temp.js";

const freshDir = (tag) => tempDir(`tool-stub-${tag}-`);
const big = (tag, n = 30_000) => `${tag}\n${"line of text ".repeat(n / 13)}`;

describe("session ids", () => {
  it("never name a dot entry of the store's folder", async () => {
    const dir = freshDir("dot");
    mkdirSync(path.join(dir, ".git"));
    writeFileSync(path.join(dir, ".git", "HEAD"), "ref: refs/heads/main\n");
    const store = new NodeFsStore(dir);
    for (const sessionId of [".git", ".", "..", ".tool-stub", ".x"]) {
      assert.throws(
        () => new ToolStub({ store, sessionId }),
        isCode("INVALID_ARGUMENT"),
        sessionId,
      );
    }
    // Reference-style ids, dots inside included, keep working.
    for (const sessionId of ["s0", "chat.42", "a..b", "x.git"]) {
      const ts = new ToolStub({ store, sessionId, config: { thresholdChars: 100 } });
      const [part] = await ts.externalize(
        [{ toolId: "t", toolName: "x", output: big(sessionId) }],
        { messageId: "m" },
      );
      assert.equal((await ts.read(part.outputRef, { limit: -1 })).content, big(sessionId));
    }
    assert.equal(readFileSync(path.join(dir, ".git", "HEAD"), "utf8"), "ref: refs/heads/main\n");
  });
});

describe("store errors that reach the model", () => {
  it("name the key relative to the store and the OS error code, never an absolute path", async () => {
    const parent = freshDir("paths");
    writeFileSync(path.join(parent, "file"), "a file, not a folder");
    const store = new NodeFsStore(path.join(parent, "file", "store"));
    const error = await store.save(["s", "tool-results", "tr_x", "output.txt"], "v").then(
      () => null,
      (e) => e,
    );
    isCode("STORE_FAILED")(error);
    assert.match(error.message, /s\/tool-results\/tr_x\/output\.txt: ENOTDIR/);
    assert.ok(!error.message.includes(parent), error.message);

    const ts = new ToolStub({ store, sessionId: "s", config: { thresholdChars: 100 } });
    const [part] = await ts.externalize([{ toolId: "t", toolName: "x", output: big("x") }], {
      messageId: "m",
    });
    assert.match(part.externalizationError, /ENOTDIR/);
    assert.ok(!part.externalizationError.includes(parent), part.externalizationError);
  });

  it("say ENAMETOOLONG for a 256-byte id without a path", async () => {
    const dir = freshDir("long");
    const store = new NodeFsStore(dir);
    const id = `tr_${"a".repeat(253)}`;
    const error = await store.save(["s", "tool-results", id, "output.txt"], "v").then(
      () => null,
      (e) => e,
    );
    isCode("STORE_FAILED")(error);
    assert.match(error.message, /ENAMETOOLONG \(name too long\)/);
    assert.ok(!error.message.includes(dir), error.message);
    // Reading such an id: nothing can be stored under it.
    const ts = new ToolStub({ store, sessionId: "s" });
    const answer = await ts.handleToolCall("openviking_tool_result_read", { ref: id });
    assert.equal(answer.error.code, "NOT_FOUND", JSON.stringify(answer));
    assert.ok(!answer.error.message.includes(dir), answer.error.message);
  });
});

describe("temp files of crashed saves", () => {
  // A pid that is surely gone: a child that has exited.
  const deadPid = () => spawnSync(process.execPath, ["-e", ""]).pid;
  const leftover = (pid) => `.output.txt.${pid}.${"0123456789abcdef"}.tmp`;

  it("are reclaimed by the calls that walk the results when their writer is gone or they are an hour old, and never counted", async () => {
    const dir = freshDir("tmp");
    const ts = new ToolStub({
      store: new NodeFsStore(dir),
      sessionId: "s",
      config: { thresholdChars: 100 },
    });
    const [part] = await ts.externalize([{ toolId: "t", toolName: "x", output: big("x") }], {
      messageId: "m",
    });
    const resultDir = path.join(dir, "s", "tool-results", part.outputRef.split("/").pop());
    const before = await ts.usage();
    const dead = leftover(deadPid());
    const oldLive = `.index.json.1.${"1".repeat(16)}.tmp`;
    const freshLive = `.metadata.json.1.${"2".repeat(16)}.tmp`;
    for (const name of [dead, oldLive, freshLive])
      writeFileSync(path.join(resultDir, name), "x".repeat(1000));
    const hoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    utimesSync(path.join(resultDir, oldLive), hoursAgo, hoursAgo);
    assert.deepEqual(await ts.usage(), before, "temp files are not values");
    // list and usage read the session's catalog, not the results' folders: a call that walks
    // them (the catalog's check, here an explicit rebuild) reclaims what crashed saves left.
    await ts.rebuildCatalog();
    const left = readdirSync(resultDir).filter((name) => name.endsWith(".tmp"));
    assert.deepEqual(
      left,
      [freshLive],
      "pid 1 is alive and its file is fresh: a save may be writing it",
    );
  });

  it("are reclaimed by the first save into a folder they were left in", async () => {
    const dir = freshDir("tmp-save");
    const resultDir = path.join(dir, "s", "tool-results", "tr_x");
    mkdirSync(resultDir, { recursive: true });
    const dead = leftover(deadPid());
    writeFileSync(path.join(resultDir, dead), "half a write");
    await new NodeFsStore(dir).save(["s", "tool-results", "tr_x", "output.txt"], "whole");
    assert.deepEqual(readdirSync(resultDir), ["output.txt"]);
  });
});

describe("identity is the exact stored text", () => {
  const filler = "row of text\n".repeat(3_000);
  const lone = `head \uD800 middle \uDC00 ${filler}`;
  const replaced = lone.toWellFormed(); // U+FFFD where the lone surrogates were
  const digestOf = (text) => createHash("sha256").update(encode(text)).digest("hex");
  const stores = {
    MemoryStore: () => new MemoryStore(),
    NodeFsStore: () => new NodeFsStore(freshDir("exact")),
  };

  for (const [name, makeStore] of Object.entries(stores)) {
    it(`an output with lone surrogates and one with U+FFFD in their place never merge (${name})`, async () => {
      for (const oneTurn of [false, true]) {
        const ts = new ToolStub({
          store: makeStore(),
          sessionId: "s",
          config: { thresholdChars: 100 },
        });
        const parts = [lone, replaced].map((output) => ({ toolId: "same", toolName: "x", output }));
        const done = oneTurn
          ? await ts.externalize(parts, { messageId: "m" })
          : [
              ...(await ts.externalize([parts[0]], { messageId: "m1" })),
              ...(await ts.externalize([parts[1]], { messageId: "m2" })),
            ];
        const [a, b] = done;
        assert.ok(a.truncated && b.truncated);
        assert.equal(a.sha256, digestOf(lone), "the digest of the WTF-8 stored");
        assert.equal(
          b.sha256,
          createHash("sha256").update(replaced, "utf8").digest("hex"),
          "well-formed text: its UTF-8, as the reference",
        );
        assert.notEqual(a.outputRef, b.outputRef);
        assert.equal((await ts.read(a.outputRef, { limit: -1 })).content, lone);
        assert.equal((await ts.read(b.outputRef, { limit: -1 })).content, replaced);
        const [ra, rb] = await ts.restore([a, b]);
        assert.equal(ra.output, lone);
        assert.equal(rb.output, replaced);
        assert.equal((await ts.verify(a.outputRef)).sha256, a.sha256);
        assert.equal((await ts.verify(b.outputRef)).sha256, b.sha256);
        assert.equal((await ts.list()).toolResults.length, 2);
        assert.equal(sha256Hex(lone), a.sha256, "sha256Hex hashes what a store keeps too");
      }
    });
  }

  it("is the same digest whichever hasher the host installed (browsers' staged one, a custom one)", async () => {
    const { useSha256 } = await import("./pkg.js");
    const { runtime } = await import("../../pkg/js/node-runtime.js");
    const externalized = async () => {
      const [part] = await new ToolStub({
        sessionId: "h",
        config: { thresholdChars: 100 },
      }).externalize([{ toolId: "t", toolName: "x", output: lone }], { messageId: "m" });
      return part.sha256;
    };
    try {
      useSha256(() => "ab".repeat(32)); // a custom text hasher: used for well-formed text only
      assert.equal(await externalized(), digestOf(lone));
      useSha256(() => {
        throw new Error("not used");
      });
      runtime.useStagedSha256(async (bytes) => createHash("sha256").update(bytes).digest("hex"));
      assert.equal(await externalized(), digestOf(lone));
    } finally {
      useSha256((text) => createHash("sha256").update(text, "utf8").digest("hex"));
      runtime.useInCoreSha256((utf8) => createHash("sha256").update(utf8).digest("hex"));
    }
  });

  it("verify and restore answer CORRUPT when the stored bytes change", async () => {
    const dir = freshDir("exact-corrupt");
    const ts = new ToolStub({
      store: new NodeFsStore(dir),
      sessionId: "s",
      config: { thresholdChars: 100 },
    });
    const [part] = await ts.externalize([{ toolId: "t", toolName: "x", output: lone }], {
      messageId: "m",
    });
    const file = path.join(dir, "s", "tool-results", part.outputRef.split("/").pop(), "output.txt");
    // The lone surrogate's WTF-8 replaced by U+FFFD's UTF-8: same length, same text to the core.
    writeFileSync(file, Buffer.from(replaced, "utf8"));
    await assert.rejects(ts.verify(part.outputRef), isCode("CORRUPT"));
    await assert.rejects(ts.restore([part]), isCode("CORRUPT"));
  });
});

describe("reads check what they trust", () => {
  const output = "0123456789abcdef\n".repeat(20_000); // 340,000 chars: several index blocks
  const setUp = async () => {
    const dir = freshDir("cut");
    const ts = new ToolStub({
      store: new NodeFsStore(dir),
      sessionId: "s",
      config: { thresholdChars: 100 },
    });
    const [part] = await ts.externalize([{ toolId: "t", toolName: "x", output }], {
      messageId: "m",
    });
    const file = path.join(dir, "s", "tool-results", part.outputRef.split("/").pop(), "output.txt");
    return { ts, ref: part.outputRef, file };
  };

  it("a ranged read past a cut is CORRUPT, not an empty window with hasMore", async () => {
    const { ts, ref, file } = await setUp();
    truncateSync(file, 100_000);
    for (const offset of [100_000, 200_000, 339_000]) {
      await assert.rejects(
        ts.read(ref, { offset, limit: 2000 }),
        isCode("CORRUPT"),
        `offset ${offset}`,
      );
    }
    await assert.rejects(
      ts.read(ref, { offset: 99_000, limit: 2000 }),
      isCode("CORRUPT"),
      "a window across the cut",
    );
    await assert.rejects(ts.read(ref, { offset: 0, limit: -1 }), isCode("CORRUPT"));
    await assert.rejects(
      ts.search(ref, { query: "0123" }),
      isCode("CORRUPT"),
      "a full read checks the length",
    );
    await assert.rejects(ts.read(ref, { line: 1 }), isCode("CORRUPT"));
    // Before the cut the bytes are intact and the index places them right.
    assert.equal((await ts.read(ref, { offset: 0, limit: 17 })).content, "0123456789abcdef\n");
  });

  it("a read reaching the end of an output grown behind the store's back is CORRUPT", async () => {
    const { ts, ref, file } = await setUp();
    appendFileSync(file, "appended");
    await assert.rejects(ts.read(ref, { offset: 339_000, limit: 2000 }), isCode("CORRUPT"));
    await assert.rejects(ts.read(ref, { limit: -1 }), isCode("CORRUPT"));
    await assert.rejects(ts.search(ref, { query: "appended" }), isCode("CORRUPT"));
  });

  it("the same in a store whose slices count UTF-16 units (MemoryStore)", async () => {
    const store = new MemoryStore();
    const ts = new ToolStub({ store, sessionId: "s", config: { thresholdChars: 100 } });
    const [part] = await ts.externalize([{ toolId: "t", toolName: "x", output }], {
      messageId: "m",
    });
    const key = ["s", "tool-results", part.outputRef.split("/").pop(), "output.txt"];
    await store.save(key, output.slice(0, 100_000));
    await assert.rejects(
      ts.read(part.outputRef, { offset: 200_000, limit: 2000 }),
      isCode("CORRUPT"),
    );
    await store.save(key, `${output}more`);
    await assert.rejects(
      ts.read(part.outputRef, { offset: 339_000, limit: 2000 }),
      isCode("CORRUPT"),
    );
    await store.save(key, output);
    assert.equal(
      (await ts.read(part.outputRef, { offset: 339_990, limit: 100 })).content,
      output.slice(339_990),
    );
  });

  it("a result stored without an index is checked against its record's length", async () => {
    const { ts, ref, file } = await setUp();
    unlinkSync(path.join(path.dirname(file), "index.json"));
    assert.equal(
      (await ts.read(ref, { offset: 339_990, limit: 100 })).content,
      output.slice(339_990),
    );
    truncateSync(file, 339_000);
    await assert.rejects(ts.read(ref, { offset: 339_990, limit: 100 }), isCode("CORRUPT"));
  });
});

describe("dedup", () => {
  const output = big("dedup");
  for (const [damage, harm] of [
    ["missing", (file) => unlinkSync(file)],
    ["cut short", (file) => truncateSync(file, 100)],
    ["changed", (file) => writeFileSync(file, output.replace("dedup", "DEDUP"))],
  ]) {
    it(`rewrites a result whose stored output is ${damage} instead of reusing it`, async () => {
      const dir = freshDir("dedup");
      const ts = new ToolStub({
        store: new NodeFsStore(dir),
        sessionId: "s",
        config: { thresholdChars: 100 },
      });
      const [first] = await ts.externalize([{ toolId: "t", toolName: "x", output }], {
        messageId: "m1",
      });
      const resultDir = path.join(dir, "s", "tool-results", first.outputRef.split("/").pop());
      harm(path.join(resultDir, "output.txt"));
      unlinkSync(path.join(resultDir, "index.json"));
      const [again] = await ts.externalize([{ toolId: "t", toolName: "x", output }], {
        messageId: "m2",
      });
      assert.equal(again.outputRef, first.outputRef);
      assert.ok(again.truncated);
      assert.equal((await ts.read(again.outputRef, { limit: -1 })).content, output);
      assert.equal(
        (await ts.read(again.outputRef, { offset: 5, limit: 10 })).content,
        output.slice(5, 15),
      );
      assert.ok(existsSync(path.join(resultDir, "index.json")), "the index is written again too");
      assert.equal((await ts.verify(again.outputRef)).sha256, first.sha256);
    });
  }

  it("still writes an intact result once", async () => {
    const saves = [];
    const store = new MemoryStore();
    // The result's own files (the session's catalog under "tool-stub" records it beside them).
    const counting = {
      load: (k) => store.load(k),
      loadRange: (p) => store.loadRange(p),
      save: (k, v) => {
        if (k[1] === "tool-results") saves.push(k.at(-1));
        return store.save(k, v);
      },
    };
    const ts = new ToolStub({ store: counting, sessionId: "s", config: { thresholdChars: 100 } });
    await ts.externalize([{ toolId: "t", toolName: "x", output }], { messageId: "m1" });
    await ts.externalize([{ toolId: "t", toolName: "x", output }], { messageId: "m2" });
    assert.deepEqual(saves, ["output.txt", "index.json", "metadata.json"]);
  });
});

describe("delete", () => {
  /** A store that keeps entries in write order, removes them one at a time and can crash after `crashAfter` removals. */
  class CrashingStore {
    entries = new Map();
    removals = 0;
    crashAfter = Infinity;
    async load(key) {
      return this.entries.get(key.join("/"));
    }
    async save(key, value) {
      this.entries.set(key.join("/"), value);
    }
    async loadRange(prefix) {
      const start = prefix.length ? `${prefix.join("/")}/` : "";
      return [...this.entries]
        .filter(([k]) => k.startsWith(start))
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, value]) => ({ key: k.split("/"), value }));
    }
    #removeOne(k) {
      if (this.removals++ >= this.crashAfter) throw new Error("crashed mid-delete");
      this.entries.delete(k);
    }
    async remove(key) {
      if (this.entries.has(key.join("/"))) this.#removeOne(key.join("/"));
    }
    async removeRange(prefix) {
      for (const k of [...this.entries.keys()])
        if (k.startsWith(`${prefix.join("/")}/`)) this.#removeOne(k);
    }
  }

  it("removes the record first: a crash mid-delete never leaves a record naming a missing output", async () => {
    for (let crashAfter = 0; crashAfter <= 3; crashAfter++) {
      const store = new CrashingStore();
      const ts = new ToolStub({ store, sessionId: "s", config: { thresholdChars: 100 } });
      const [part] = await ts.externalize([{ toolId: "t", toolName: "x", output: big("gone") }], {
        messageId: "m",
      });
      store.crashAfter = crashAfter;
      await ts.delete(part.outputRef).catch(() => {});
      const id = part.outputRef.split("/").pop();
      const has = (file) => store.entries.has(`s/tool-results/${id}/${file}`);
      assert.ok(!has("metadata.json") || has("output.txt"), `crash after ${crashAfter} removal(s)`);
      // Either the whole result or nothing a reader can see.
      const read = await ts.read(part.outputRef, { limit: -1 }).then(
        (r) => r.content,
        (e) => e.code,
      );
      assert.ok(read === big("gone") || read === "NOT_FOUND", `crash after ${crashAfter}: ${read}`);
    }
  });
});
