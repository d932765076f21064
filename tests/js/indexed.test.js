// Reads through the output index (js/output-index.js + a store's loadSlice) and the JS literal
// search (js/literal-search.js) against the slow paths they replace: the results must be
// identical, in every store, for outputs with astral characters, lone surrogates and line breaks.
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { ToolStub, MemoryStore, NodeFsStore } from "./pkg.js";
import { IndexedDbStore } from "../../pkg/js/stores/indexeddb.js";
import * as core from "../../pkg/wasm/tool_stub.js";
import { tempDir } from "./temp.js";

/** Deterministic pseudo-random numbers (a seeded LCG), so failures reproduce. */
function random(seed) {
  let state = seed >>> 0;
  return (n) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % n;
  };
}

const PIECES = ["a", "b", "ab", "\n", "é", "日本", "😀", "\uD800", "\uDC00", "needle", "x\ny", " "];

function randomText(next, length) {
  let text = "";
  while (text.length < length) text += PIECES[next(PIECES.length)];
  return text;
}

/** The same store without its ranged read: ToolStub loads whole outputs from it. */
function withoutSlices(store) {
  const plain = {};
  for (const method of ["load", "save", "remove", "loadRange", "removeRange"])
    plain[method] = store[method].bind(store);
  return plain;
}

const STORES = {
  MemoryStore: () => new MemoryStore(),
  NodeFsStore: () => new NodeFsStore(tempDir("tool-stub-indexed-")),
  IndexedDbStore: () =>
    new IndexedDbStore({ indexedDB: new IDBFactory(), IDBKeyRange, chunkChars: 50_000 }),
};

// Over two checkpoints (65,536 code points apart) of mixed text.
const BIG = `${randomText(random(7), 200_000) + "😀".repeat(70_000)}tail\uDBFF`;
const WELL_FORMED = BIG.toWellFormed();

describe("reads through the output index", () => {
  for (const [name, makeStore] of Object.entries(STORES)) {
    it(`${name}: same windows as a whole-output read`, async () => {
      const store = makeStore();
      const indexed = new ToolStub({ store, sessionId: "ix" });
      const plain = new ToolStub({ store: withoutSlices(store), sessionId: "ix" });
      for (const output of [BIG, WELL_FORMED]) {
        const [part] = await indexed.externalize([{ toolId: "t", toolName: "bash", output }], {
          messageId: "m",
        });
        const total = (await plain.read(part.outputRef, { limit: 0 })).totalChars;
        const next = random(11);
        const offsets = [
          0,
          1,
          65_535,
          65_536,
          65_537,
          131_072,
          total - 2_000,
          total - 1,
          total,
          total + 5,
        ];
        for (let i = 0; i < 12; i++) offsets.push(next(total + 10));
        for (const offset of offsets) {
          for (const limit of [0, 1, 2_000, 70_000, -1]) {
            const options = { offset, limit, includeMetadata: false };
            assert.deepEqual(
              await indexed.read(part.outputRef, options),
              await plain.read(part.outputRef, options),
              `offset ${offset}, limit ${limit}`,
            );
          }
        }
      }
    });
  }
});

describe("the output index", () => {
  it("is stored beside each output as the core computes it, vouching only for outputs without U+FFFD", async () => {
    const next = random(5);
    const plainPieces = ["a", "\n", "é", "日本", "x\ny", " ", "\n\n", "😀"];
    const texts = [
      "\n".repeat(65_537),
      "a".repeat(65_536),
      `${"é\n".repeat(70_000)}end`,
      "lone \uD800 surrogate",
      "a real \uFFFD",
    ];
    for (let i = 0; i < 12; i++) {
      let text = "";
      const length = 10 + (next(3) === 0 ? next(200) : next(300_000));
      while (text.length < length) text += plainPieces[next(plainPieces.length)];
      texts.push(text);
    }
    const store = new MemoryStore();
    const stub = new ToolStub({ store, sessionId: "ix", config: { thresholdChars: 5 } });
    for (const [i, text] of texts.entries()) {
      const [part] = await stub.externalize([{ toolId: `t${i}`, toolName: "x", output: text }], {
        messageId: "m",
      });
      const id = part.outputRef.split("/tool-results/")[1];
      const vouched = text.isWellFormed() && !text.includes("\uFFFD");
      assert.equal(
        await store.load(["ix", "tool-results", id, "index.json"]),
        core.outputIndex(text, vouched),
        `text ${i}`,
      );
    }
  });
});

describe("literal search in JS", () => {
  it("matches the core's search on random inputs", async () => {
    const store = new MemoryStore();
    const fast = new ToolStub({ store, sessionId: "ls", config: { thresholdChars: 5 } });
    // Forcing a grep option that changes nothing (contextLines: null is not one) is not possible,
    // so the core's answer comes from a store whose results have no index.
    const coreOnly = new ToolStub({
      store: withoutIndex(store),
      sessionId: "ls",
      config: { thresholdChars: 5 },
    });
    const next = random(3);
    let used = 0;
    for (let round = 0; round < 60; round++) {
      const text = randomText(next, 50 + next(3_000));
      const output = round % 3 === 0 ? text : text.toWellFormed();
      const [part] = await fast.externalize([{ toolId: `t${round}`, toolName: "bash", output }], {
        messageId: `m${round}`,
      });
      if (!part.outputRef) continue;
      for (const query of [
        "a",
        "ab",
        "b\na",
        "😀",
        "日本",
        "needle",
        "😀a",
        "é\n",
        "zzz",
        "aa",
        "\n",
      ]) {
        for (const options of [
          {},
          { limit: 1 + next(5), contextChars: next(8) },
          { contextChars: -3 },
          { limit: 1000, contextChars: 0 },
        ]) {
          const request = { query, ...options };
          const got = await fast.search(part.outputRef, request);
          const want = await coreOnly.search(part.outputRef, request);
          assert.deepEqual(got, want, `round ${round} ${JSON.stringify(request)}`);
          used++;
        }
      }
    }
    assert.ok(used > 1_000);
  });

  it("is what searching a big indexed output uses, with the core's line and column", async () => {
    const store = new MemoryStore();
    const fast = new ToolStub({ store, sessionId: "lb" });
    const coreOnly = new ToolStub({ store: withoutIndex(store), sessionId: "lb" });
    const [part] = await fast.externalize(
      [{ toolId: "t", toolName: "bash", output: `${WELL_FORMED}\nneedle` }],
      { messageId: "m" },
    );
    for (const query of ["needle", "😀😀", "\n"]) {
      const request = { query, limit: 50, contextChars: 5 };
      assert.deepEqual(
        await fast.search(part.outputRef, request),
        await coreOnly.search(part.outputRef, request),
      );
    }
  });
});

/** The store with every index.json hidden, so ToolStub takes the core's paths. */
function withoutIndex(store) {
  const plain = withoutSlices(store);
  plain.load = async (key) => (key.at(-1) === "index.json" ? undefined : store.load(key));
  return plain;
}
