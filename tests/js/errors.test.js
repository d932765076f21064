// Errors at the JS boundary: every bad input is a ToolStubError with a clear message; the core's
// errors cross as Error objects; the store wrappers keep what they do not change.
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { coreInstance, isWellFormed, wellFormed } from "../../pkg/js/core-call.js";
import { withStoreTimeout } from "../../pkg/js/stores/timeout.js";
import { ToolStub, MemoryStore, ToolStubError } from "./pkg.js";

/** Runs `body` as on Node 18, whose strings have no isWellFormed/toWellFormed. */
async function withoutWellFormedMethods(body) {
  const { isWellFormed: is, toWellFormed: to } = String.prototype;
  delete String.prototype.isWellFormed;
  delete String.prototype.toWellFormed;
  try {
    return await body();
  } finally {
    Object.assign(String.prototype, { isWellFormed: is, toWellFormed: to });
  }
}

describe("well-formedness without String.prototype.isWellFormed (Node 18)", () => {
  it("keeps surrogate pairs and replaces only lone surrogates", () =>
    withoutWellFormedMethods(() => {
      assert.equal("".isWellFormed, undefined);
      assert.equal(isWellFormed("a\u{1F600}b"), true);
      assert.equal(isWellFormed("a\uD800b"), false);
      assert.equal(isWellFormed("\uDC00"), false);
      assert.equal(wellFormed("\u{1F600}\uD800x\uDC00"), "\u{1F600}\uFFFDx\uFFFD");
      assert.equal(wellFormed("\u{1F600}"), "\u{1F600}");
    }));

  it("reads and restores an output holding lone surrogates exactly", () =>
    withoutWellFormedMethods(async () => {
      const output = "lone \uD800 and pair \u{1F600}\n" + "y".repeat(30_000);
      const ts = new ToolStub({ store: new MemoryStore(), sessionId: "node18" });
      const [part] = await ts.externalize([{ toolId: "c", toolName: "t", output }], { messageId: "m" });
      assert.equal((await ts.read(part.outputRef, { limit: -1 })).content, output);
      assert.equal((await ts.read(part.outputRef, { offset: 3, limit: 5 })).content, "e \uD800 a");
      const [restored] = await ts.restore([part]);
      assert.equal(restored.output, output);
    }));
});

/** A MemoryStore whose `method` answers `junk` for keys ending in `file` (any key when omitted). */
function junkStore(method, junk, file) {
  const store = new MemoryStore();
  const real = store[method].bind(store);
  store.junkOn = false;
  store[method] = async (key, ...rest) => {
    if (store.junkOn && (file === undefined || key.at(-1) === file)) return typeof junk === "function" ? junk(await real(key, ...rest)) : junk;
    return real(key, ...rest);
  };
  return store;
}

const STORE_FAILED_NAMING = (fragment) => (error) => {
  assert.ok(error instanceof ToolStubError, `expected a ToolStubError, got ${error}`);
  assert.equal(error.code, "STORE_FAILED", error.message);
  assert.ok(error.message.includes(fragment), `"${error.message}" names ${fragment}`);
  return true;
};

describe("a store answering the wrong type", () => {
  const output = "stored output\n" + "z".repeat(30_000);

  async function stored(store) {
    const ts = new ToolStub({ store, sessionId: "junk" });
    const [part] = await ts.externalize([{ toolId: "c", toolName: "t", output }], { messageId: "m" });
    store.junkOn = true;
    return { ts, id: part.outputRef.split("/").pop() };
  }

  /** Runs `body` and checks that the core was not restarted (no trap) meanwhile. */
  async function withoutTrap(body) {
    const before = coreInstance();
    await body();
    assert.equal(coreInstance(), before, "the core trapped and was restarted");
  }

  for (const [what, junk] of [["a number", 42], ["a Buffer", Buffer.from("abc")], ["an object", { text: "abc" }]]) {
    it(`load answering ${what} is STORE_FAILED naming the key`, async () => {
      const { ts, id } = await stored(junkStore("load", junk, "output.txt"));
      await withoutTrap(() => assert.rejects(ts.verify(id), STORE_FAILED_NAMING(`junk/tool-results/${id}/output.txt`)));
      await withoutTrap(() => assert.rejects(ts.search(id, { query: "z" }), STORE_FAILED_NAMING("output.txt")));
    });
  }

  it("load answering a number for a record is STORE_FAILED, and externalize keeps the raw output", async () => {
    const store = junkStore("load", 7, "metadata.json");
    const { ts, id } = await stored(store);
    await withoutTrap(() => assert.rejects(ts.read(id), STORE_FAILED_NAMING("metadata.json")));
    await withoutTrap(async () => {
      const [part] = await ts.externalize([{ toolId: "d", toolName: "t", output: output + "!" }], { messageId: "m2" });
      assert.equal(part.output, output + "!");
      assert.match(part.externalizationError, /metadata.json"\) answered a number/);
    });
  });

  it("loadSlice answering a number is STORE_FAILED naming the key", async () => {
    const { ts, id } = await stored(junkStore("loadSlice", 1234));
    await withoutTrap(() => assert.rejects(ts.read(id, { offset: 10, limit: 20 }), STORE_FAILED_NAMING(`${id}/output.txt`)));
  });

  for (const [what, junk] of [
    ["a string", () => "entries"],
    ["entries whose value is a Buffer", (entries) => entries.map((e) => ({ ...e, value: Buffer.from(e.value) }))],
    ["entries whose value is a number", (entries) => entries.map((e) => ({ ...e, value: 5 }))],
    ["entries without a key", (entries) => entries.map((e) => ({ value: e.value }))],
    ["a null entry", (entries) => [...entries, null]],
  ]) {
    it(`loadRange answering ${what} is STORE_FAILED`, async () => {
      const { ts } = await stored(junkStore("loadRange", junk));
      for (const call of [() => ts.list(), () => ts.usage(), () => ts.searchAll({ query: "z" })]) {
        await withoutTrap(() => assert.rejects(call(), STORE_FAILED_NAMING("store.loadRange(")));
      }
    });
  }
});

describe("the store timeout wrapper (storeTimeoutMs)", () => {
  class ClosableStore extends MemoryStore {
    #open = true;
    closed() {
      return !this.#open;
    }
    async close() {
      this.#open = false;
    }
  }

  it("forwards what it does not time: sliceUnit, close, the store's own methods", async () => {
    const store = new ClosableStore();
    const wrapped = withStoreTimeout(store, 1000);
    assert.equal(wrapped.sliceUnit, "utf16");
    await wrapped.save(["s", "k"], "abcdef");
    assert.equal(await wrapped.loadSlice(["s", "k"], 1, 3), "bc");
    await wrapped.close();
    assert.equal(store.closed(), true);
    assert.equal(wrapped.closed(), true);
  });

  it("times a ranged read out like the others", async () => {
    const store = new MemoryStore();
    store.loadSlice = () => new Promise(() => {});
    const wrapped = withStoreTimeout(store, 20);
    await assert.rejects(wrapped.loadSlice(["s", "k"], 0, 1), (error) => error.code === "STORE_FAILED" && error.cause.name === "TimeoutError");
  });

  it("keeps ranged reads: a window of a large output never loads the whole output", async () => {
    const store = new MemoryStore();
    const ts = new ToolStub({ store, sessionId: "timed", config: { storeTimeoutMs: 5000 } });
    const output = "q".repeat(2_000_000) + "THE END";
    const [part] = await ts.externalize([{ toolId: "c", toolName: "t", output }], { messageId: "m" });
    const load = store.load.bind(store);
    store.load = async (key) => {
      assert.notEqual(key.at(-1), "output.txt", "the whole output was loaded for a window");
      return load(key);
    };
    const { content } = await ts.read(part.outputRef, { offset: output.length - 7, limit: 2000 });
    assert.equal(content, "THE END");
  });
});
