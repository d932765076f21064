// A large output crosses into the grep module (or to the browser's search worker) in pieces
// (js/text-chunks.js): a piece boundary must never split a surrogate pair, and a search over a
// text sent in pieces must answer exactly as over the text sent whole.
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { ROOT, ToolStub, MemoryStore } from "./pkg.js";
import { CHUNK_UNITS, TextPieces, chunkRanges, textPieces } from "../../pkg/js/text-chunks.js";
import * as grep from "../../pkg/wasm/tool_stub_grep.js";

grep.initSync({ module: readFileSync(path.join(ROOT, "pkg/wasm/tool_stub_grep_bg.wasm")) });

/** A text of about `pieces` pieces with an emoji (a surrogate pair) across every piece boundary. */
function pairsAcrossBoundaries(pieces) {
  const filler = "é INFO ok 日本\n".repeat(Math.ceil(CHUNK_UNITS / 12));
  let text = "";
  for (let i = 0; i < pieces; i++)
    text += `${filler.slice(0, CHUNK_UNITS - 1 - (text.length % CHUNK_UNITS))}😀`;
  return `${text} ERROR at the end \uD800 lone`;
}

describe("text pieces", () => {
  it("split only at code point boundaries and cover the text", () => {
    const text = pairsAcrossBoundaries(3);
    assert.equal(
      text.charCodeAt(CHUNK_UNITS - 1),
      0xd83d,
      "the test puts a high surrogate at the first boundary",
    );
    const ranges = [...chunkRanges(text)];
    assert.ok(ranges.length >= 3);
    let at = 0;
    for (const [start, end] of ranges) {
      assert.equal(start, at);
      assert.ok(end - start <= CHUNK_UNITS && end > start);
      assert.notEqual(
        text.charCodeAt(end - 1) & 0xfc00,
        0xd800,
        `piece ${start}-${end} ends inside a pair`,
      );
      at = end;
    }
    assert.equal(at, text.length);
    const encoder = new TextEncoder();
    const pieces = ranges.map(([start, end]) => encoder.encode(text.slice(start, end)));
    assert.deepEqual(
      Buffer.concat(pieces),
      Buffer.from(encoder.encode(text)),
      "the pieces' UTF-8 is the text's",
    );
  });

  it("a store's pieces (TextPieces) are sent as the text's UTF-8, a pair split between two moving to the second", () => {
    const text = pairsAcrossBoundaries(2);
    // Cut as IndexedDbStore cuts (every chunkChars units, pairs or not): the first cut splits a pair.
    const size = CHUNK_UNITS;
    const stored = [];
    for (let at = 0; at < text.length; at += size) stored.push(text.slice(at, at + size));
    stored.splice(1, 0, "");
    assert.equal(
      stored[0].charCodeAt(stored[0].length - 1) & 0xfc00,
      0xd800,
      "the test splits a pair between two pieces",
    );
    const content = new TextPieces(stored);
    assert.equal(content.length, text.length);
    const sent = [...textPieces(content)];
    assert.equal(sent.join(""), text);
    for (const piece of sent.slice(0, -1))
      assert.notEqual(
        piece.charCodeAt(piece.length - 1) & 0xfc00,
        0xd800,
        "a sent piece ends inside a pair",
      );
    assert.ok(sent.every((piece) => piece.length <= CHUNK_UNITS + 1));
    const encoder = new TextEncoder();
    assert.deepEqual(
      Buffer.concat(sent.map((piece) => encoder.encode(piece))),
      Buffer.from(encoder.encode(text)),
      "the pieces' UTF-8 is the text's",
    );
    assert.deepEqual(
      [...textPieces(new TextPieces(["a\uD83D", "\uDE00b", "\uD800"]))],
      ["a", "\uD83D\uDE00b", "\uD800"],
    );
    assert.equal(content.text(), text);
  });

  it("appendText and appendTextUtf8 build the text loadText would", () => {
    const text = pairsAcrossBoundaries(2);
    const request = JSON.stringify({
      query: "😀|ERROR|\\p{Han}+\\n",
      regex: true,
      limit: 50,
      contextChars: 3,
    });
    grep.loadText(text);
    const whole = grep.grepLoaded(request);
    grep.clearText(text.length);
    for (const [start, end] of chunkRanges(text)) grep.appendText(text.slice(start, end));
    assert.equal(grep.grepLoaded(request), whole);
    grep.clearText(0);
    const encoder = new TextEncoder();
    for (const [start, end] of chunkRanges(text))
      grep.appendTextUtf8(encoder.encode(text.slice(start, end)));
    assert.equal(grep.grepLoaded(request), whole);
    assert.ok(JSON.parse(whole).totalMatches > 3);
  });

  it("appendTextUtf8 refuses bytes that are not UTF-8 (a piece cut inside a character)", () => {
    grep.clearText(0);
    const bytes = new TextEncoder().encode("é");
    assert.throws(
      () => grep.appendTextUtf8(bytes.subarray(0, 1)),
      (error) => error.code === "INVALID_ARGUMENT" && /not UTF-8/.test(error.message),
    );
  });

  it("ToolStub.search over a text sent in pieces answers as over the text sent whole", async () => {
    const text = pairsAcrossBoundaries(2);
    const ts = new ToolStub({
      store: new MemoryStore(),
      sessionId: "pieces",
      config: { thresholdChars: 10 },
    });
    const [part] = await ts.externalize([{ toolId: "t", toolName: "t", output: text }], {
      messageId: "m",
    });
    const options = { query: "😀", ignoreCase: true, limit: 5, contextChars: 4 };
    const found = await ts.search(part.outputRef, options);
    assert.deepEqual(
      found.matches,
      JSON.parse(grep.grepContent(text, JSON.stringify(options))).matches,
    );
    assert.equal(found.totalMatches, 2);
    assert.equal(found.matches[1].offset, [...text.slice(0, 2 * CHUNK_UNITS)].length - 1);
  });
});
