// Retrieval beyond the reference, against the built package: line windows, grep search,
// session-wide search, JSON pointer and CSV row reads, restore; and the reference's read/search
// unchanged with default options.
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { ToolStub, MemoryStore, sha256Hex, rejectsWith } from "./pkg.js";

let clock = 0;
const now = () => new Date(Date.UTC(2024, 0, 1, 0, 0, clock++)).toISOString();

/** Stores each output as its own externalized result; returns the tool stub and the refs. */
async function stored(outputs, extra = {}) {
  const store = new MemoryStore();
  const ts = new ToolStub({ sessionId: "r1", store, config: { thresholdChars: 5 }, now });
  const refs = [];
  for (const [i, output] of outputs.entries()) {
    const [part] = await ts.externalize(
      [{ toolId: `call_${i}`, toolName: extra.toolNames?.[i] ?? "bash", output }],
      {
        messageId: `m${i}`,
      },
    );
    assert.ok(part.outputRef, "externalized");
    refs.push(part.outputRef);
  }
  return { ts, store, refs };
}

/** The reference's search, by code points: the expected answer for default options. */
function referenceSearch(text, query, limit = 20, context = 300) {
  const chars = [...text];
  const q = [...query];
  const matches = [];
  for (let i = 0; i + q.length <= chars.length && matches.length < limit; ) {
    if (q.every((c, k) => chars[i + k] === c)) {
      matches.push({
        offset: i,
        snippet: chars.slice(Math.max(0, i - context), i + q.length + context).join(""),
      });
      i += q.length;
    } else i += 1;
  }
  return matches;
}

describe("reference read and search with default options", () => {
  it("give the reference's results byte for byte", async () => {
    const text = `${"first 😀 line\nsecond ERROR here\n".repeat(200)}tail ERROR`;
    const { ts, refs } = await stored([text]);
    const found = await ts.search(refs[0], { query: "ERROR", limit: 7, contextChars: 11 });
    assert.deepEqual(
      found.matches.map((m) => ({ offset: m.offset, snippet: m.snippet })),
      referenceSearch(text, "ERROR", 7, 11),
    );
    assert.equal(found.totalMatches, 201);
    assert.ok(found.matches.every((m) => m.offsetUnit === "unicode_code_point"));
    const window = await ts.read(refs[0], { offset: 5, limit: 30, includeMetadata: false });
    assert.deepEqual(Object.keys(window), [
      "toolResultId",
      "content",
      "offset",
      "limit",
      "offsetUnit",
      "totalChars",
      "hasMore",
    ]);
    assert.equal(window.content, [...text].slice(5, 35).join(""));
  });
});

describe("line windows", () => {
  it("read lines with offsets, numbering and a continuation", async () => {
    const text = Array.from({ length: 50 }, (_, i) => `line ${i + 1} 😀`).join("\n");
    const { ts, refs } = await stored([text]);
    const w = await ts.read(refs[0], { line: 10, lines: 3, includeMetadata: false });
    assert.equal(w.content, "line 10 😀\nline 11 😀\nline 12 😀");
    assert.deepEqual(
      [w.mode, w.startLine, w.endLine, w.totalLines, w.hasMore],
      ["lines", 10, 12, 50, true],
    );
    assert.equal([...text].slice(w.startOffset, w.endOffset).join(""), w.content);
    assert.deepEqual(w.next, { line: 13, column: 1, offset: w.endOffset + 1 });
    const numbered = await ts.read(refs[0], { line: 49, numbered: true });
    assert.equal(numbered.content, "    49\tline 49 😀\n    50\tline 50 😀");
    assert.equal(numbered.hasMore, false);
  });

  it("cut a 10 MB single line within maxChars and continue from the given column", async () => {
    const line = "abcdefghij".repeat(1_000_000);
    const { ts, refs } = await stored([line]);
    const w = await ts.read(refs[0], { line: 1, maxChars: 5000, includeMetadata: false });
    assert.ok([...w.content].length <= 5000);
    assert.ok(w.cut && w.hasMore);
    assert.match(
      w.content,
      /\[\.\.\. line 1 cut: \d+ more chars; continue with line=1 column=\d+ \(char offset \d+\)\]$/,
    );
    const again = await ts.read(refs[0], {
      line: w.next.line,
      column: w.next.column,
      maxChars: 5000,
    });
    const byOffset = await ts.read(refs[0], { offset: w.next.offset, limit: 100 });
    assert.equal(again.startOffset, w.next.offset);
    assert.ok(again.content.startsWith(byOffset.content));
  });

  it("reject mixed or bad options", async () => {
    const { ts, refs } = await stored(["a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk"]);
    await rejectsWith(
      ts.read(refs[0], { line: 1, offset: 3 }),
      "INVALID_ARGUMENT",
      /offset\/limit/,
    );
    await rejectsWith(
      ts.read(refs[0], { line: 1, jsonPointer: "" }),
      "INVALID_ARGUMENT",
      /mix modes/,
    );
    await rejectsWith(ts.read(refs[0], { line: 0 }), "INVALID_ARGUMENT", /line must be >= 1/);
    await rejectsWith(ts.read(refs[0], { maxChars: 500 }), "INVALID_ARGUMENT");
    await rejectsWith(ts.read("tr_missing_x", { line: 1 }), "NOT_FOUND");
  });
});

describe("grep search", () => {
  it("finds the target in the last line of a 50 MB output", async () => {
    const filler = `${"x".repeat(99)}\n`;
    const text = `${filler.repeat(500_000)}the needle 😀 is here`;
    const { ts, refs } = await stored([text]);
    const found = await ts.search(refs[0], { query: "needle" });
    assert.equal(found.totalMatches, 1);
    assert.deepEqual([found.matches[0].line, found.matches[0].column], [500_001, 5]);
    assert.equal(found.matches[0].offset, 50_000_004);
    const w = await ts.read(refs[0], { line: found.matches[0].line, includeMetadata: false });
    assert.equal(w.content, "the needle 😀 is here");
    assert.equal(w.totalLines, 500_001);
    const all = await ts.searchAll({ query: "needle" });
    assert.equal(all.results[0].ref, refs[0]);
  });

  it("regex, ignoreCase, wholeWord, contextLines and totals beyond the limit", async () => {
    const text = "Error: one\nerror-two\nterrors\nok\nERROR three";
    const { ts, refs } = await stored([text]);
    const regex = await ts.search(refs[0], {
      query: "^error\\b",
      regex: true,
      ignoreCase: true,
      limit: 2,
      contextLines: 0,
    });
    assert.deepEqual(
      regex.matches.map((m) => [m.line, m.column, m.snippet]),
      [
        [1, 1, "Error: one"],
        [2, 1, "error-two"],
      ],
    );
    assert.equal(regex.totalMatches, 3);
    const words = await ts.search(refs[0], {
      query: "error",
      wholeWord: true,
      ignoreCase: true,
      contextLines: 1,
    });
    assert.equal(words.totalMatches, 3);
    assert.equal(words.matches[2].snippet, "ok\nERROR three");
  });

  it("counts astral-plane chars once in offsets and columns", async () => {
    const { ts, refs } = await stored(["😀😀😀 target\n𝒳 target"]);
    const found = await ts.search(refs[0], { query: "target" });
    assert.deepEqual(
      found.matches.map((m) => [m.offset, m.line, m.column]),
      [
        [4, 1, 5],
        [13, 2, 3],
      ],
    );
  });

  it("stays fast on a hostile regex and reports bad ones", async () => {
    const { ts, refs } = await stored(["a".repeat(100_000)]);
    const found = await ts.search(refs[0], { query: "(a+)+$", regex: true, contextChars: 3 });
    assert.deepEqual(
      [found.totalMatches, found.matches[0].offset, found.matches[0].length],
      [1, 0, 100_000],
    );
    await rejectsWith(
      ts.search(refs[0], { query: "(a", regex: true }),
      "INVALID_ARGUMENT",
      /invalid regex.*unclosed group/s,
    );
    await rejectsWith(
      ts.search(refs[0], { query: "a", contextChars: 1, contextLines: 1 }),
      "INVALID_ARGUMENT",
    );
  });
});

describe("searchAll", () => {
  it("ranks by match count, then newest first, and filters by tool", async () => {
    const { ts, refs } = await stored(
      ["one hit here", "hit and hit again", "no match at all", "a hit too"],
      {
        toolNames: ["bash", "bash", "bash", "grep"],
      },
    );
    const all = await ts.searchAll({ query: "hit", perResult: 1 });
    assert.deepEqual(
      all.results.map((r) => r.ref),
      [refs[1], refs[3], refs[0]],
    );
    assert.deepEqual(
      all.results.map((r) => r.totalMatches),
      [2, 1, 1],
    );
    assert.equal(all.results[0].matches.length, 1);
    assert.deepEqual([all.totalResults, all.totalMatches], [3, 4]);
    const grepOnly = await ts.searchAll({ query: "HIT", ignoreCase: true, toolName: "grep" });
    assert.deepEqual(
      grepOnly.results.map((r) => r.toolName),
      ["grep"],
    );
    const top = await ts.searchAll({ query: "hit", limit: 1 });
    assert.deepEqual([top.results.length, top.totalResults], [1, 3]);
    await rejectsWith(ts.searchAll({ query: "[", regex: true }), "INVALID_ARGUMENT");
  });
});

describe("structured reads", () => {
  it("read a JSON subtree by pointer, bounded, with what was cut", async () => {
    const doc = { items: Array.from({ length: 2000 }, (_, i) => ({ id: i, "a/b": `v${i}` })) };
    const { ts, refs } = await stored([JSON.stringify(doc)]);
    const item = await ts.read(refs[0], { jsonPointer: "/items/3", includeMetadata: false });
    assert.deepEqual(JSON.parse(item.content), doc.items[3]);
    assert.deepEqual([item.type, item.size, item.truncated], ["object", 2, false]);
    const leaf = await ts.read(refs[0], { jsonPointer: "/items/3/a~1b" });
    assert.equal(leaf.content, '"v3"');
    const big = await ts.read(refs[0], { jsonPointer: "/items", maxChars: 1000 });
    assert.ok([...big.content].length <= 1000 && big.truncated);
    assert.match(big.content, /more items cut \(array of 2000 items\)/);
    assert.ok(big.cuts.some((cut) => cut.pointer === "/items" && cut.size === 2000));
    await rejectsWith(
      ts.read(refs[0], { jsonPointer: "/items/5000" }),
      "INVALID_ARGUMENT",
      /"\/items" is an array of 2000 items/,
    );
  });

  it("read CSV rows with the header and quoted fields intact", async () => {
    const csv = 'id,note\n1,"a, ""b""\nc"\n2,plain\n3,x\n';
    const { ts, refs } = await stored([csv]);
    const rows = await ts.read(refs[0], { rows: { start: 1, count: 2 } });
    assert.equal(rows.content, 'id,note\n1,"a, ""b""\nc"\n2,plain');
    assert.deepEqual([rows.startRow, rows.endRow, rows.totalRows, rows.hasMore], [1, 2, 3, true]);
    await rejectsWith(ts.read(refs[0], { rows: { start: 0 } }), "INVALID_ARGUMENT");
  });
});

describe("restore", () => {
  it("puts externalized outputs back and checks their SHA-256", async () => {
    const store = new MemoryStore();
    const ts = new ToolStub({ sessionId: "r2", store, config: { thresholdChars: 50 } });
    const parts = [
      { toolId: "a", toolName: "bash", output: "long output 😀 ".repeat(20) },
      { toolId: "b", toolName: "bash", output: "short" },
    ];
    const out = await ts.externalize(parts, { messageId: "m1" });
    assert.ok(out[0].truncated && out[0].output !== parts[0].output);
    const restored = await ts.restore(out);
    assert.deepEqual(
      restored.map((p) => p.output),
      parts.map((p) => p.output),
    );
    assert.equal(restored[0].truncated, false);

    const key = ["r2", "tool-results", out[0].outputRef.split("/").pop(), "output.txt"];
    // Same length (the read's length check passes): the SHA-256 tells.
    await store.save(key, "tampered".padEnd(parts[0].output.length, "!"));
    await rejectsWith(ts.restore(out), "CORRUPT", /SHA-256/);
    await store.save(key, "tampered");
    await rejectsWith(ts.restore(out), "CORRUPT", /cut short/);
  });

  it("gives a read-back part the window it read", async () => {
    const ts = new ToolStub({
      sessionId: "r3",
      config: { thresholdChars: 50, minPreviewChars: 10, previewChars: 10 },
    });
    const original = "0123456789".repeat(30);
    const [stored] = await ts.externalize([{ toolId: "a", toolName: "bash", output: original }], {
      messageId: "m1",
    });
    const window = (await ts.read(stored.outputRef, { offset: 5, limit: 100 })).content;
    const [readBack] = await ts.externalize(
      [
        {
          toolId: "r",
          toolName: "openviking_tool_result_read",
          toolInput: { ref: stored.outputRef, offset: 5, limit: 100 },
          output: window,
        },
      ],
      { messageId: "m2" },
    );
    assert.equal(readBack.externalizedReason, "source_read");
    assert.equal(readBack.sha256, sha256Hex(window));
    const [back] = await ts.restore([readBack]);
    assert.equal(back.output, window);
    await rejectsWith(ts.restore([{ ...readBack, sha256: sha256Hex("other") }]), "CORRUPT");
  });
});

describe("verify", () => {
  it("answers NOT_FOUND when the record goes while the output is checked", async () => {
    const store = new MemoryStore();
    const ts = new ToolStub({ sessionId: "v1", store, config: { thresholdChars: 5 }, now });
    const [part] = await ts.externalize(
      [{ toolId: "call_v", toolName: "bash", output: "an output to verify" }],
      { messageId: "m" },
    );
    // Another ToolStub deletes the result right after this one loaded its output.
    const load = store.load.bind(store);
    let recordLoads = 0;
    store.load = async (key) => {
      if (key.at(-1) === "metadata.json" && ++recordLoads === 2) await ts.delete(part.outputRef);
      return load(key);
    };
    await rejectsWith(ts.verify(part.outputRef), "NOT_FOUND", /no tool result/);
  });
});
