// Errors at the JS boundary: every bad input is a ToolStubError with a clear message; the core's
// errors cross as Error objects; the store wrappers keep what they do not change.
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { runtime } from "../../pkg/js/node-runtime.js";
import { isWellFormed, wellFormed } from "../../pkg/js/arguments.js";
import { withStoreTimeout } from "../../pkg/js/stores/timeout.js";
import { withCheckedAnswers } from "../../pkg/js/stores/checked.js";
import { validateId as coreValidateId } from "../../pkg/wasm/tool_stub.js";
import { ToolStub, MemoryStore, ToolStubError, renderStub } from "./pkg.js";

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
      const output = `lone \uD800 and pair \u{1F600}\n${"y".repeat(30_000)}`;
      const ts = new ToolStub({ store: new MemoryStore(), sessionId: "node18" });
      const [part] = await ts.externalize([{ toolId: "c", toolName: "t", output }], {
        messageId: "m",
      });
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
    if (store.junkOn && (file === undefined || key.at(-1) === file))
      return typeof junk === "function" ? junk(await real(key, ...rest)) : junk;
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
  const output = `stored output\n${"z".repeat(30_000)}`;

  async function stored(store) {
    const ts = new ToolStub({ store, sessionId: "junk" });
    const [part] = await ts.externalize([{ toolId: "c", toolName: "t", output }], {
      messageId: "m",
    });
    store.junkOn = true;
    return { ts, id: part.outputRef.split("/").pop() };
  }

  /** Runs `body` and checks that the core was not restarted (no trap) meanwhile. */
  async function withoutTrap(body) {
    const before = runtime.coreInstance();
    await body();
    assert.equal(runtime.coreInstance(), before, "the core trapped and was restarted");
  }

  /**
   * A store whose key listing answers junk: a new ToolStub's list, usage and searchAll still
   * answer (they read the catalog, not a listing), and a rebuild is STORE_FAILED naming `call`.
   */
  async function listingOnlyOnRebuild(store, call) {
    const opened = () => new ToolStub({ store, sessionId: "junk" });
    await withoutTrap(async () => {
      assert.equal((await opened().list()).toolResults.length, 1);
      assert.equal((await opened().usage()).results, 1);
      assert.equal((await opened().searchAll({ query: "z" })).results.length, 1);
    });
    await withoutTrap(() => assert.rejects(opened().rebuildCatalog(), STORE_FAILED_NAMING(call)));
  }

  for (const [what, junk] of [
    ["a number", 42],
    ["a Buffer", Buffer.from("abc")],
    ["an object", { text: "abc" }],
  ]) {
    it(`load answering ${what} is STORE_FAILED naming the key`, async () => {
      const { ts, id } = await stored(junkStore("load", junk, "output.txt"));
      await withoutTrap(() =>
        assert.rejects(ts.verify(id), STORE_FAILED_NAMING(`junk/tool-results/${id}/output.txt`)),
      );
      await withoutTrap(() =>
        assert.rejects(ts.search(id, { query: "z" }), STORE_FAILED_NAMING("output.txt")),
      );
    });
  }

  it("load answering a number for a record is STORE_FAILED, and externalize keeps the raw output", async () => {
    const store = junkStore("load", 7, "metadata.json");
    const { ts, id } = await stored(store);
    await withoutTrap(() => assert.rejects(ts.read(id), STORE_FAILED_NAMING("metadata.json")));
    await withoutTrap(async () => {
      const [part] = await ts.externalize([{ toolId: "d", toolName: "t", output: `${output}!` }], {
        messageId: "m2",
      });
      assert.equal(part.output, `${output}!`);
      assert.match(part.externalizationError, /metadata.json"\) answered a number/);
    });
  });

  it("loadSlice answering a number is STORE_FAILED naming the key", async () => {
    const { ts, id } = await stored(junkStore("loadSlice", 1234));
    await withoutTrap(() =>
      assert.rejects(
        ts.read(id, { offset: 10, limit: 20 }),
        STORE_FAILED_NAMING(`${id}/output.txt`),
      ),
    );
  });

  for (const [what, junk] of [
    ["a string", () => "entries"],
    [
      "entries whose value is a Buffer",
      (entries) => entries.map((e) => ({ ...e, value: Buffer.from(e.value) })),
    ],
    ["entries whose value is a number", (entries) => entries.map((e) => ({ ...e, value: 5 }))],
    ["entries without a key", (entries) => entries.map((e) => ({ value: e.value }))],
    ["a null entry", (entries) => [...entries, null]],
  ]) {
    it(`loadRange answering ${what} is STORE_FAILED`, async () => {
      // Rebuilding a catalog lists the session's keys, with loadRange when the store has no
      // loadKeys; a new ToolStub's first calls read the catalog's pages without a listing.
      const store = junkStore("loadRange", junk);
      store.loadKeys = undefined;
      await stored(store);
      await listingOnlyOnRebuild(store, "store.loadRange(");
    });
  }

  // Only a browser search in the worker reads an output by its pieces, so the wrapper is checked here.
  for (const [what, junk] of [
    ["a string", "abc"],
    ["an array holding a number", ["a", 5]],
    ["a Buffer", Buffer.from("abc")],
  ]) {
    it(`loadPieces answering ${what} is STORE_FAILED naming the key`, async () => {
      const store = new MemoryStore();
      store.loadPieces = async () => junk;
      await assert.rejects(
        withCheckedAnswers(store).loadPieces(["s", "output.txt"]),
        STORE_FAILED_NAMING('store.loadPieces("s/output.txt")'),
      );
    });
  }
  it("loadPieces answering strings or undefined goes through as it is", async () => {
    const store = new MemoryStore();
    store.loadPieces = async (key) => (key[1] === "none" ? undefined : ["ab", "", "c"]);
    assert.deepEqual(await withCheckedAnswers(store).loadPieces(["s", "k"]), ["ab", "", "c"]);
    assert.equal(await withCheckedAnswers(store).loadPieces(["s", "none"]), undefined);
    assert.equal(
      withCheckedAnswers(new MemoryStore()).loadPieces,
      undefined,
      "a store without it stays without it",
    );
  });

  for (const [what, junk] of [
    ["a string", () => "keys"],
    ["a key that is not an array", (keys) => [...keys, "s/tool-results/x"]],
    ["a key holding a number", (keys) => keys.map((key) => [...key.slice(0, -1), 5])],
  ]) {
    it(`loadKeys answering ${what} is STORE_FAILED`, async () => {
      const store = junkStore("loadKeys", junk);
      await stored(store);
      await listingOnlyOnRebuild(store, "store.loadKeys(");
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
    await assert.rejects(
      wrapped.loadSlice(["s", "k"], 0, 1),
      (error) => error.code === "STORE_FAILED" && error.cause.name === "TimeoutError",
    );
  });

  it("times loadPieces out like the others", async () => {
    const store = new MemoryStore();
    store.loadPieces = () => new Promise(() => {});
    const wrapped = withStoreTimeout(store, 20);
    await assert.rejects(
      wrapped.loadPieces(["s", "k"]),
      (error) => error.code === "STORE_FAILED" && error.cause.name === "TimeoutError",
    );
  });

  it("keeps ranged reads: a window of a large output never loads the whole output", async () => {
    const store = new MemoryStore();
    const ts = new ToolStub({ store, sessionId: "timed", config: { storeTimeoutMs: 5000 } });
    const output = `${"q".repeat(2_000_000)}THE END`;
    const [part] = await ts.externalize([{ toolId: "c", toolName: "t", output }], {
      messageId: "m",
    });
    const load = store.load.bind(store);
    store.load = async (key) => {
      assert.notEqual(key.at(-1), "output.txt", "the whole output was loaded for a window");
      return load(key);
    };
    const { content } = await ts.read(part.outputRef, { offset: output.length - 7, limit: 2000 });
    assert.equal(content, "THE END");
  });
});

describe("bad input from a caller or a model is a ToolStubError with a clear message", () => {
  const big = (tag) => `${tag}\n${"w".repeat(30_000)}`;
  const invalidSaying =
    (...fragments) =>
    (error) => {
      assert.ok(
        error instanceof ToolStubError,
        `expected a ToolStubError, got ${error?.name}: ${error?.message}`,
      );
      assert.equal(error.code, "INVALID_ARGUMENT", error.message);
      for (const fragment of fragments)
        assert.ok(error.message.includes(fragment), `"${error.message}" should say "${fragment}"`);
      return true;
    };
  const externalize = (
    parts,
    options = { messageId: "m" },
    ts = new ToolStub({ sessionId: "bad" }),
  ) => ts.externalize(parts, options);
  const part = (extra = {}) => ({ toolId: "c", toolName: "t", output: big("x"), ...extra });
  const boom = () => {
    throw new Error("boom");
  };

  it("a part whose output getter throws", async () => {
    await assert.rejects(
      externalize([
        {
          toolId: "c",
          get output() {
            return boom();
          },
        },
      ]),
      invalidSaying("reading parts threw", "boom"),
    );
  });

  it("a part whose other getter throws", async () => {
    await assert.rejects(
      externalize([
        {
          toolId: "c",
          output: "x",
          get toolName() {
            return boom();
          },
        },
      ]),
      invalidSaying("reading parts threw", "boom"),
    );
  });

  it("parts that are a Proxy whose traps throw", async () => {
    await assert.rejects(
      externalize(new Proxy([part()], { get: boom })),
      invalidSaying("reading parts threw", "boom"),
    );
    await assert.rejects(
      externalize([new Proxy(part(), { ownKeys: boom })]),
      invalidSaying("reading parts threw", "boom"),
    );
  });

  it("options that are a Proxy whose traps throw", async () => {
    await assert.rejects(
      externalize([part()], new Proxy({ messageId: "m" }, { ownKeys: boom })),
      invalidSaying("reading options threw", "boom"),
    );
    const ts = new ToolStub({ sessionId: "bad" });
    await assert.rejects(
      ts.read(
        "tr_x_0123456789abcdef",
        new Proxy(
          {},
          {
            get: boom,
            ownKeys: () => ["offset"],
            getOwnPropertyDescriptor: () => ({ enumerable: true, configurable: true }),
          },
        ),
      ),
      invalidSaying("options", "boom"),
    );
  });

  it("a BigInt in a part", async () => {
    await assert.rejects(
      externalize([part({ toolInput: { n: 10n } })]),
      invalidSaying("parts[0].toolInput.n cannot be sent as JSON", "BigInt"),
    );
  });

  it("a cyclic part", async () => {
    const cyclic = part();
    cyclic.toolInput = { back: cyclic };
    await assert.rejects(
      externalize([cyclic]),
      invalidSaying("parts[0]", "cannot be sent as JSON", "circular"),
    );
  });

  it("a now() that throws or answers no string", async () => {
    const throwing = new ToolStub({ sessionId: "bad", now: () => boom() });
    await assert.rejects(
      externalize([part()], { messageId: "m" }, throwing),
      invalidSaying("reading options.now() threw", "boom"),
    );
    const numeric = new ToolStub({ sessionId: "bad", now: () => 42 });
    await assert.rejects(
      externalize([part()], { messageId: "m" }, numeric),
      invalidSaying("options.now() returned must be a string"),
    );
    assert.throws(
      () => new ToolStub({ sessionId: "bad", now: "yesterday" }),
      invalidSaying("now must be a function"),
    );
  });

  it("config and constructor options whose getters throw", () => {
    assert.throws(
      () =>
        new ToolStub({
          sessionId: "bad",
          config: {
            get thresholdChars() {
              return boom();
            },
          },
        }),
      invalidSaying("reading config threw", "boom"),
    );
    assert.throws(
      () =>
        new ToolStub({
          sessionId: "bad",
          config: {
            toolNames: {
              get read() {
                return boom();
              },
            },
          },
        }),
      invalidSaying("config", "boom"),
    );
    assert.throws(
      () =>
        new ToolStub({
          get sessionId() {
            return boom();
          },
        }),
      invalidSaying("reading options threw", "boom"),
    );
    assert.throws(
      () => new ToolStub({ sessionId: "bad", store: new Proxy({}, { get: boom }) }),
      invalidSaying("reading store threw", "boom"),
    );
  });

  it("a sparse parts array", async () => {
    // Holes, not undefined elements: each array is made without the element before the last.
    const holeAt1 = [part()];
    holeAt1[2] = part();
    await assert.rejects(
      externalize(holeAt1),
      invalidSaying("parts[1] must be a tool part object", "sparse"),
    );
    const holeAt0 = [];
    holeAt0[1] = part();
    await assert.rejects(
      new ToolStub({ sessionId: "bad" }).restore(holeAt0),
      invalidSaying("parts[0] must be a tool part object"),
    );
  });

  it("lone surrogates in a tool name, a message id or a query", async () => {
    await assert.rejects(
      externalize([part({ toolName: "t\uD800" })]),
      invalidSaying("parts[0].toolName holds a lone surrogate"),
    );
    await assert.rejects(
      externalize([part()], { messageId: "m\uDC00" }),
      invalidSaying("messageId holds a lone surrogate"),
    );
    const ts = new ToolStub({ sessionId: "bad" });
    const [stored] = await ts.externalize([part()], { messageId: "m" });
    await assert.rejects(
      ts.search(stored.outputRef, { query: "w\uD800", regex: true }),
      invalidSaying("options.query holds a lone surrogate"),
    );
    await assert.rejects(
      ts.searchAll({ query: "\uD800" }),
      invalidSaying("options.query holds a lone surrogate"),
    );
  });

  it("a synopsis holding a BigInt, for renderStub", () => {
    assert.throws(
      () => renderStub({ kind: "json", summary: [1n] }, {}),
      invalidSaying("synopsis.summary", "BigInt"),
    );
  });

  describe("through handleToolCall, as { error } and never INTERNAL", () => {
    const call = async (args, name = "read_tool_output") =>
      (await new ToolStub({ sessionId: "bad" }).handleToolCall(name, args)).error;
    const expectInvalid = (error, fragment) => {
      assert.ok(error, "an error was answered");
      assert.equal(error.code, "INVALID_ARGUMENT", error.message);
      assert.ok(error.message.includes(fragment), `"${error.message}" should say "${fragment}"`);
    };

    it("BigInt arguments", async () =>
      expectInvalid(
        await call({ tool_output_ref: "tr_x_0123456789abcdef", offset: 5n }),
        "arguments.offset cannot be sent as JSON",
      ));

    it("cyclic arguments", async () => {
      const args = { tool_output_ref: "tr_x_0123456789abcdef" };
      args.self = args;
      expectInvalid(await call(args), "cannot be sent as JSON");
    });

    it("100,000-deep JSON arguments", async () => {
      expectInvalid(
        await call(`{"a":${"[".repeat(100_000)}${"]".repeat(100_000)}}`),
        "nested too deeply",
      );
    });

    it("a lone surrogate in the arguments", async () =>
      expectInvalid(
        await call({ tool_output_ref: "tr_\uD800" }),
        "arguments.tool_output_ref holds a lone surrogate",
      ));

    it("a tool name that is not a string", async () =>
      expectInvalid(await call({}, { toString: boom }), "tool name must be a string"));
  });
});

describe("errors from the wasm core", () => {
  it("arrive as Error objects with a code and a stack", () => {
    assert.throws(
      () => coreValidateId("../x"),
      (error) =>
        error instanceof Error &&
        error.code === "INVALID_ARGUMENT" &&
        /tool_result_id/.test(error.message) &&
        typeof error.stack === "string",
    );
  });

  it("become ToolStubErrors whose stack goes through the core to the caller", async () => {
    const ts = new ToolStub({ sessionId: "stack" });
    await assert.rejects(ts.read("../x"), (error) => {
      assert.ok(error instanceof ToolStubError);
      assert.equal(error.code, "INVALID_ARGUMENT");
      assert.match(error.stack, /^ToolStubError: invalid tool_result_id/);
      assert.match(error.stack, /wasm/);
      return true;
    });
  });
});

describe("tool call errors for the model", () => {
  it("are held to maxResultChars however long the argument they quote", async () => {
    const ts = new ToolStub({ sessionId: "bounded", config: { maxResultChars: 2_000 } });
    const long = `{"a": [${"1,".repeat(20_000)}1]}`;
    const [part] = await ts.externalize([{ toolId: "j", toolName: "t", output: long }], {
      messageId: "m",
    });
    const pointer = `/${"a".repeat(200_001)}`;
    for (const [args, quotesIt] of [
      [{ ref: part.outputRef, json_pointer: pointer }, true],
      [{ ref: part.outputRef, [`k${"y".repeat(200_000)}`]: 1 }, true],
      [{ ref: `${part.outputRef}${"x".repeat(200_000)}` }, false],
    ]) {
      const result = await ts.handleToolCall("openviking_tool_result_read", args);
      assert.equal(typeof result.error?.code, "string", JSON.stringify(result).slice(0, 200));
      const chars = JSON.stringify(result).length;
      assert.ok(chars <= 2_000, `${chars} chars`);
      if (quotesIt) assert.match(result.error.message, /more chars not shown\)$/);
    }
  });
});
