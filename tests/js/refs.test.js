// Refs as values through the public API: `ToolStub.resolveRefs` puts the stored content in place of
// each ref of a readable session in a tool call's arguments (whole, or the part a ref form asks
// for), byte-identical to what was stored; read grants between sessions of one store.
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { ToolStub, MemoryStore, isCode } from "./pkg.js";

const lines = Array.from({ length: 3_000 }, (_, i) => `line ${i + 1}: état ✓ 🎉 value=${i * 7}`);
const TEXT = `${lines.join("\n")}\n`;
const TABLE = `id,name,note\r\n${Array.from({ length: 2_000 }, (_, i) => `${i + 1},"name ${i}","says ""hi""\nover two lines"`).join("\r\n")}\r\n`;
const DOC = JSON.stringify(
  {
    items: Array.from({ length: 600 }, (_, i) => ({
      id: i,
      tags: ["a", "b"],
      text: `élément ${i}`,
    })),
  },
  null,
  2,
);
// A lone surrogate, which the store keeps exactly: the resolved content must keep it too.
const LONE = `${"x".repeat(30_000)}\uD800 after the lone surrogate\n`;

async function storedRefs(toolStub) {
  const outputs = { text: TEXT, table: TABLE, doc: DOC, lone: LONE };
  const parts = Object.entries(outputs).map(([toolId, output]) => ({
    toolId,
    toolName: "fetch",
    output,
    mimeType: toolId === "doc" ? "application/json" : "text/plain",
  }));
  const out = await toolStub.externalize(parts, { messageId: "m1" });
  return Object.fromEntries(out.map((part, i) => [parts[i].toolId, part.outputRef]));
}

describe("resolveRefs", () => {
  it("puts the stored content in place of whole refs and ref forms, exactly", async () => {
    const ts = new ToolStub({ sessionId: "r1" });
    const refs = await storedRefs(ts);
    assert.ok(Object.values(refs).every(Boolean), "every output was stored");
    const args = {
      path: "out.txt",
      content: refs.text,
      parts: [
        { ref: refs.text, offset: 10, limit: 25 },
        { ref: refs.text, lines: { start: 2_999, count: 5 } },
        { ref: refs.table, rows: { start: 2, count: 1 } },
        { ref: refs.doc, pointer: "/items/3" },
        refs.lone,
      ],
      untouched: { ref: "main", n: 3 },
    };
    const frozen = structuredClone(args);
    const resolved = await ts.resolveRefs(args);
    assert.deepEqual(args, frozen, "the caller's arguments are not changed");
    assert.equal(resolved.path, "out.txt");
    assert.equal(resolved.content, TEXT, "whole: the stored output itself");
    assert.equal(
      resolved.parts[0],
      [...TEXT].slice(10, 35).join(""),
      "offset/limit in code points",
    );
    assert.equal(resolved.parts[1], `${lines[2_998]}\n${lines[2_999]}\n`, "lines, to the end");
    const records = TABLE.split("\r\n");
    assert.equal(
      resolved.parts[2],
      `${records[0]}\n${records[2]}`,
      "header and the row, as written",
    );
    const pointerAt = DOC.indexOf('{\n      "id": 3,');
    assert.equal(
      resolved.parts[3],
      DOC.slice(pointerAt, DOC.indexOf("}", pointerAt) + 1),
      "the JSON value exactly as stored",
    );
    assert.equal(resolved.parts[4], LONE, "a lone surrogate kept");
    assert.deepEqual(resolved.untouched, { ref: "main", n: 3 }, "a ref key that is no ref stays");
  });

  it("gives back the same object when there is no ref, and resolves nested arrays and a bare ref", async () => {
    const ts = new ToolStub({ sessionId: "r2" });
    const refs = await storedRefs(ts);
    const plain = { a: [1, "two", { three: null }], b: "tr_text_0123" };
    assert.equal(await ts.resolveRefs(plain), plain);
    assert.equal(await ts.resolveRefs(refs.doc), DOC, "the arguments themselves may be a ref");
    assert.deepEqual(await ts.resolveRefs([[refs.lone]]), [[LONE]]);
  });

  it("refuses foreign, unknown, corrupt, malformed and oversized refs with typed errors", async () => {
    const store = new MemoryStore();
    const ts = new ToolStub({ store, sessionId: "r3" });
    const refs = await storedRefs(ts);
    const prefix = refs.text.slice(0, refs.text.lastIndexOf("/") + 1);
    await assert.rejects(
      ts.resolveRefs({ x: "viking://user/default/sessions/elsewhere/tool-results/tr_a" }),
      isCode("FORBIDDEN", /arguments\.x/),
    );
    await assert.rejects(ts.resolveRefs({ x: `${prefix}tr_missing_0123` }), isCode("NOT_FOUND"));
    await assert.rejects(
      ts.resolveRefs({ x: { ref: refs.text, pointer: "/a", offset: 1 } }),
      isCode("INVALID_ARGUMENT", /arguments\.x/),
    );
    await assert.rejects(
      ts.resolveRefs({ x: { ref: refs.text, lines: { start: 10_000 } } }),
      isCode("INVALID_ARGUMENT", /past the end/),
    );
    await assert.rejects(
      ts.resolveRefs({ a: refs.text, b: refs.text }, { maxResolvedChars: TEXT.length + 10 }),
      isCode("TOO_LARGE", /maxResolvedChars/),
      "the cap is for the whole call",
    );
    assert.equal(
      (await ts.resolveRefs({ a: refs.lone }, { maxResolvedChars: [...LONE].length })).a,
      LONE,
    );
    await assert.rejects(
      ts.resolveRefs({ a: 1 }, { maxResolvedChars: -1 }),
      isCode("INVALID_ARGUMENT"),
    );
    await assert.rejects(ts.resolveRefs({ a: 1 }, { bogus: 1 }), isCode("INVALID_ARGUMENT"));
    // An output cut short behind the store's back is never passed on as if whole.
    const id = refs.text.slice(prefix.length);
    await store.save(["r3", "tool-results", id, "output.txt"], TEXT.slice(0, 100));
    await assert.rejects(ts.resolveRefs({ a: refs.text }), isCode("CORRUPT"));
    // The module stays usable after every refusal.
    assert.equal((await ts.resolveRefs({ a: refs.doc })).a, DOC);
  });
});

describe("read grants between sessions", () => {
  it("a grant made by readGrant() carries a custom session URI; ids stay the reader's own", async () => {
    const store = new MemoryStore();
    const worker = new ToolStub({ store, sessionId: "w", sessionUri: "mem://crew/w" });
    const [part] = await worker.externalize(
      [{ toolId: "t", toolName: "fetch", output: TEXT, mimeType: "text/plain" }],
      { messageId: "m" },
    );
    assert.match(part.outputRef, /^mem:\/\/crew\/w\/tool-results\//);
    const lead = new ToolStub({ store, sessionId: "lead", readableSessions: [worker.readGrant()] });
    assert.equal((await lead.read(part.outputRef, { offset: 0, limit: -1 })).content, TEXT);
    assert.equal((await lead.verify(part.outputRef)).totalChars, [...TEXT].length);
    const id = part.outputRef.slice(part.outputRef.lastIndexOf("/") + 1);
    await assert.rejects(lead.read(id), isCode("NOT_FOUND"), "a bare id is the lead's own session");
    assert.deepEqual(Object.keys(worker.readGrant()), ["sessionId", "sessionUri"]);
    assert.ok(Object.isFrozen(worker.readGrant()));
  });

  it("refuses grants that are not session ids or grants", async () => {
    for (const readableSessions of [["../x"], [{ sessionId: "a", extra: 1 }], [3], "s"]) {
      assert.throws(
        () => new ToolStub({ sessionId: "s", readableSessions }),
        isCode("INVALID_ARGUMENT"),
      );
    }
  });
});
