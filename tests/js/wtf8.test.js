import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { decode, encode, isWellFormed, utf16Length } from "../../js/stores/wtf8.js";

const bytes = (...b) => Uint8Array.from(b);

describe("wtf8", () => {
  it("encodes well-formed strings exactly as UTF-8", () => {
    for (const s of [
      "",
      "abc",
      "héllo",
      "日本語",
      "😀𝄞",
      "\uFEFFbom",
      "\0",
      "\uFFFF",
      "\u{10FFFF}",
    ]) {
      assert.deepEqual(encode(s), new Uint8Array(Buffer.from(s, "utf8")), JSON.stringify(s));
      assert.equal(decode(encode(s)), s);
    }
  });

  it("encodes lone surrogates as 3-byte sequences", () => {
    assert.deepEqual(encode("\uD800"), bytes(0xed, 0xa0, 0x80));
    assert.deepEqual(encode("\uDFFF"), bytes(0xed, 0xbf, 0xbf));
    assert.deepEqual(encode("\uD800x\uDC00"), bytes(0xed, 0xa0, 0x80, 0x78, 0xed, 0xb0, 0x80));
    // A reversed pair is two lone surrogates; a real pair stays 4 bytes.
    assert.deepEqual(encode("\uDC00\uD800"), bytes(0xed, 0xb0, 0x80, 0xed, 0xa0, 0x80));
    assert.deepEqual(encode("\uD83D\uDE00\uD800"), bytes(0xf0, 0x9f, 0x98, 0x80, 0xed, 0xa0, 0x80));
  });

  it("round-trips every lone surrogate in every position", () => {
    for (let cu = 0xd800; cu <= 0xdfff; cu += 0x3f) {
      const c = String.fromCharCode(cu);
      for (const s of [c, `a${c}`, `${c}b`, `é${c}😀${c}${c}`, `\uFEFF${c}`]) {
        assert.equal(decode(encode(s)), s, `U+${cu.toString(16)} in ${JSON.stringify(s)}`);
        assert.equal(utf16Length(encode(s)), s.length);
      }
    }
  });

  it("detects well-formedness", () => {
    assert.equal(isWellFormed("a😀b"), true);
    assert.equal(isWellFormed("a\uD83Db"), false);
    assert.equal(isWellFormed("\uDE00"), false);
  });

  it("rejects invalid bytes as CORRUPT", () => {
    const bad = [
      bytes(0xff),
      bytes(0x61, 0x80),
      bytes(0xc3), // truncated é
      bytes(0xed, 0xa0), // truncated surrogate
      bytes(0xed, 0xa0, 0x41),
      bytes(0xc0, 0x80), // overlong NUL
      bytes(0xff, 0xed, 0xa0, 0x80), // junk before a surrogate
      bytes(0xed, 0xa0, 0x80, 0xff), // junk after one
    ];
    for (const b of bad) {
      assert.throws(
        () => decode(b),
        { name: "ToolStubError", code: "CORRUPT" },
        `[${[...b].map((x) => x.toString(16))}]`,
      );
    }
  });

  it("counts UTF-16 length from bytes", () => {
    for (const s of ["", "abc", "é", "日本", "😀", "a😀b\uDC00"])
      assert.equal(utf16Length(encode(s)), s.length);
  });

  it("handles large values on both paths", () => {
    const big = "ab日😀".repeat(500_000);
    assert.equal(decode(encode(big)), big);
    const lone = `${big}\uD800${big}`;
    assert.equal(decode(encode(lone)), lone);
  });
});
