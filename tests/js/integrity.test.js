// Per-result data integrity (issue 14): identity is the exact stored text, reads check what they
// trust, dedup checks what it reuses, deletes never leave a record without its output, session ids
// stay inside the store's layout, temp leftovers are reclaimed, and no message carries a path.
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, readdirSync, writeFileSync, readFileSync, existsSync, truncateSync, appendFileSync, utimesSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { ToolStub, MemoryStore, NodeFsStore, ToolStubError, sha256Hex } from "./pkg.js";
import { encode } from "../../pkg/js/stores/wtf8.js";

const isCode = (code) => (error) => {
  assert.ok(error instanceof ToolStubError, `expected ToolStubError(${code}), got ${error}`);
  assert.equal(error.code, code, error.message);
  return true;
};
const freshDir = (tag) => mkdtempSync(path.join(tmpdir(), `tool-stub-${tag}-`));
const big = (tag, n = 30_000) => `${tag}\n${"line of text ".repeat(n / 13)}`;

describe("session ids", () => {
  it("never name a dot entry of the store's folder", async () => {
    const dir = freshDir("dot");
    mkdirSync(path.join(dir, ".git"));
    writeFileSync(path.join(dir, ".git", "HEAD"), "ref: refs/heads/main\n");
    const store = new NodeFsStore(dir);
    for (const sessionId of [".git", ".", "..", ".tool-stub", ".x"]) {
      assert.throws(() => new ToolStub({ store, sessionId }), isCode("INVALID_ARGUMENT"), sessionId);
    }
    // Reference-style ids, dots inside included, keep working.
    for (const sessionId of ["s0", "chat.42", "a..b", "x.git"]) {
      const ts = new ToolStub({ store, sessionId, config: { thresholdChars: 100 } });
      const [part] = await ts.externalize([{ toolId: "t", toolName: "x", output: big(sessionId) }], { messageId: "m" });
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
    const error = await store.save(["s", "tool-results", "tr_x", "output.txt"], "v").then(() => null, (e) => e);
    isCode("STORE_FAILED")(error);
    assert.match(error.message, /s\/tool-results\/tr_x\/output\.txt: ENOTDIR/);
    assert.ok(!error.message.includes(parent), error.message);

    const ts = new ToolStub({ store, sessionId: "s", config: { thresholdChars: 100 } });
    const [part] = await ts.externalize([{ toolId: "t", toolName: "x", output: big("x") }], { messageId: "m" });
    assert.match(part.externalizationError, /ENOTDIR/);
    assert.ok(!part.externalizationError.includes(parent), part.externalizationError);
  });

  it("say ENAMETOOLONG for a 256-byte id without a path", async () => {
    const dir = freshDir("long");
    const store = new NodeFsStore(dir);
    const id = `tr_${"a".repeat(253)}`;
    const error = await store.save(["s", "tool-results", id, "output.txt"], "v").then(() => null, (e) => e);
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

  it("are reclaimed by session-level calls when their writer is gone or they are an hour old, and never counted", async () => {
    const dir = freshDir("tmp");
    const ts = new ToolStub({ store: new NodeFsStore(dir), sessionId: "s", config: { thresholdChars: 100 } });
    const [part] = await ts.externalize([{ toolId: "t", toolName: "x", output: big("x") }], { messageId: "m" });
    const resultDir = path.join(dir, "s", "tool-results", part.outputRef.split("/").pop());
    const before = await ts.usage();
    const dead = leftover(deadPid());
    const oldLive = `.index.json.1.${"1".repeat(16)}.tmp`;
    const freshLive = `.metadata.json.1.${"2".repeat(16)}.tmp`;
    for (const name of [dead, oldLive, freshLive]) writeFileSync(path.join(resultDir, name), "x".repeat(1000));
    const hoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    utimesSync(path.join(resultDir, oldLive), hoursAgo, hoursAgo);
    assert.deepEqual(await ts.usage(), before, "temp files are not values");
    await ts.list();
    const left = readdirSync(resultDir).filter((name) => name.endsWith(".tmp"));
    assert.deepEqual(left, [freshLive], "pid 1 is alive and its file is fresh: a save may be writing it");
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
  const stores = { MemoryStore: () => new MemoryStore(), NodeFsStore: () => new NodeFsStore(freshDir("exact")) };

  for (const [name, makeStore] of Object.entries(stores)) {
    it(`an output with lone surrogates and one with U+FFFD in their place never merge (${name})`, async () => {
      for (const oneTurn of [false, true]) {
        const ts = new ToolStub({ store: makeStore(), sessionId: "s", config: { thresholdChars: 100 } });
        const parts = [lone, replaced].map((output) => ({ toolId: "same", toolName: "x", output }));
        const done = oneTurn
          ? await ts.externalize(parts, { messageId: "m" })
          : [...(await ts.externalize([parts[0]], { messageId: "m1" })), ...(await ts.externalize([parts[1]], { messageId: "m2" }))];
        const [a, b] = done;
        assert.ok(a.truncated && b.truncated);
        assert.equal(a.sha256, digestOf(lone), "the digest of the WTF-8 stored");
        assert.equal(b.sha256, createHash("sha256").update(replaced, "utf8").digest("hex"), "well-formed text: its UTF-8, as the reference");
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
    const { useInCoreSha256, useStagedSha256 } = await import("../../pkg/js/core-call.js");
    const externalized = async () => {
      const [part] = await new ToolStub({ sessionId: "h", config: { thresholdChars: 100 } }).externalize(
        [{ toolId: "t", toolName: "x", output: lone }],
        { messageId: "m" },
      );
      return part.sha256;
    };
    try {
      useSha256(() => "ab".repeat(32)); // a custom text hasher: used for well-formed text only
      assert.equal(await externalized(), digestOf(lone));
      useSha256(() => { throw new Error("not used"); });
      useStagedSha256(async (bytes) => createHash("sha256").update(bytes).digest("hex"));
      assert.equal(await externalized(), digestOf(lone));
    } finally {
      useSha256((text) => createHash("sha256").update(text, "utf8").digest("hex"));
      useInCoreSha256((utf8) => createHash("sha256").update(utf8).digest("hex"));
    }
  });

  it("verify and restore answer CORRUPT when the stored bytes change", async () => {
    const dir = freshDir("exact-corrupt");
    const ts = new ToolStub({ store: new NodeFsStore(dir), sessionId: "s", config: { thresholdChars: 100 } });
    const [part] = await ts.externalize([{ toolId: "t", toolName: "x", output: lone }], { messageId: "m" });
    const file = path.join(dir, "s", "tool-results", part.outputRef.split("/").pop(), "output.txt");
    // The lone surrogate's WTF-8 replaced by U+FFFD's UTF-8: same length, same text to the core.
    writeFileSync(file, Buffer.from(replaced, "utf8"));
    await assert.rejects(ts.verify(part.outputRef), isCode("CORRUPT"));
    await assert.rejects(ts.restore([part]), isCode("CORRUPT"));
  });
});
