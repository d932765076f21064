// A trap in the core restarts it (a fresh instance); what other calls had in the core then (a
// planned turn, staged outputs) must not be lost or, worse, mixed up with a newer call's.
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { createHash, webcrypto } from "node:crypto";
import { runtime } from "../../pkg/js/node-runtime.js";
import { KEPT_MEMORY_BYTES } from "../../pkg/js/runtime.js";
import { memoryBytes, sha256Hex as coreSha256Hex } from "../../pkg/wasm/tool_stub.js";
import { ToolStub, MemoryStore, ToolStubError } from "./pkg.js";

const big = (tag, n = 30_000) => `${tag}\n${"x".repeat(n)}`;

/** A trap in the core, as a bug would cause one: the glue hands the core a number as a string. */
function forceTrap() {
  assert.throws(
    () => runtime.run(coreSha256Hex, 42),
    (error) =>
      error instanceof ToolStubError &&
      error.code === "INTERNAL" &&
      /module reset/.test(error.message),
  );
}

/** A MemoryStore whose output saves wait until `open()`; `reached` resolves when one waits. */
function gatedStore() {
  const store = new MemoryStore();
  let open;
  const gate = new Promise((resolve) => (open = resolve));
  let reach;
  const reached = new Promise((resolve) => (reach = resolve));
  const save = store.save.bind(store);
  store.save = async (key, value) => {
    if (key.at(-1) === "output.txt") {
      reach();
      await gate;
    }
    return save(key, value);
  };
  return { store, open, reached };
}

async function assertStoredExactly(ts, part, output) {
  assert.equal(part.truncated, true, "the output went out");
  assert.ok(part.outputRef.includes(`/sessions/${ts.sessionId}/`), part.outputRef);
  assert.equal((await ts.read(part.outputRef, { limit: -1 })).content, output);
}

describe("a trap in the core while another call's turn is planned", () => {
  it("does not lose that turn: it finishes after its outputs are stored", async () => {
    const { store, open, reached } = gatedStore();
    const ts = new ToolStub({ store, sessionId: "planned-before-trap" });
    const pending = ts.externalize([{ toolId: "a", toolName: "t", output: big("A") }], {
      messageId: "m",
    });
    await reached;
    forceTrap();
    open();
    const [part] = await pending;
    await assertStoredExactly(ts, part, big("A"));
  });

  it("never finishes it with a plan of a call made after the restart", async () => {
    // After the restart the new instance numbers its plans from the start again: the next call's
    // plan gets the number the first call holds.
    const first = gatedStore();
    const second = gatedStore();
    const a = new ToolStub({ store: first.store, sessionId: "first" });
    const b = new ToolStub({ store: second.store, sessionId: "second" });
    const pendingA = a.externalize([{ toolId: "a", toolName: "ta", output: big("A") }], {
      messageId: "ma",
    });
    await first.reached;
    forceTrap();
    const pendingB = b.externalize(
      [
        { toolId: "b1", toolName: "tb", output: big("B1") },
        { toolId: "b2", toolName: "tb", output: big("B2", 40_000) },
      ],
      { messageId: "mb" },
    );
    await second.reached;
    first.open();
    const partsA = await pendingA;
    assert.equal(partsA.length, 1);
    assert.equal(partsA[0].toolName, "ta");
    await assertStoredExactly(a, partsA[0], big("A"));
    second.open();
    const partsB = await pendingB;
    await assertStoredExactly(b, partsB[0], big("B1"));
    await assertStoredExactly(b, partsB[1], big("B2", 40_000));
  });

  it("while a browser host hashes staged outputs, plans from the outputs themselves", async () => {
    let release;
    const hashing = new Promise((resolve) => (release = resolve));
    let started;
    const hashStarted = new Promise((resolve) => (started = resolve));
    try {
      // The browser entry's hashers: none of text, an asynchronous one of the staged bytes.
      runtime.useSha256(() => {
        throw new Error("the text hasher is not the one used");
      });
      runtime.useStagedSha256(async (utf8) => {
        const digest = webcrypto.subtle.digest("SHA-256", utf8);
        started();
        await hashing;
        return Buffer.from(new Uint8Array(await digest)).toString("hex");
      });
      const ts = new ToolStub({ sessionId: "staged-before-trap" });
      const pending = ts.externalize([{ toolId: "s", toolName: "t", output: big("S") }], {
        messageId: "m",
      });
      await hashStarted;
      forceTrap();
      release();
      const [part] = await pending;
      await assertStoredExactly(ts, part, big("S"));
      assert.equal(part.sha256, createHash("sha256").update(big("S")).digest("hex"));
    } finally {
      runtime.useSha256((text) => createHash("sha256").update(text, "utf8").digest("hex"));
      runtime.useInCoreSha256((utf8) => createHash("sha256").update(utf8).digest("hex"));
    }
  });
});

describe("memory after a large call", () => {
  // A 300 MB id crosses into the core (which then refuses it): its memory grows past the limit.
  const hugeId = () => "x".repeat(KEPT_MEMORY_BYTES + 40_000_000);

  it("is given back: the core starts afresh once nothing is kept in it", async () => {
    const ts = new ToolStub({ sessionId: "memory" });
    const before = runtime.coreInstance();
    await assert.rejects(ts.read(hugeId()), (error) => error.code === "INVALID_ARGUMENT");
    assert.equal(runtime.coreInstance(), before + 1, "the core was started afresh");
    assert.ok(memoryBytes() < KEPT_MEMORY_BYTES / 4, `${memoryBytes()} bytes kept`);
    const [part] = await ts.externalize([{ toolId: "c", toolName: "t", output: big("after") }], {
      messageId: "m",
    });
    await assertStoredExactly(ts, part, big("after"));
  });

  it("is kept while a turn is planned, and given back when it finishes", async () => {
    const { store, open, reached } = gatedStore();
    const ts = new ToolStub({ store, sessionId: "memory-held" });
    const pending = ts.externalize([{ toolId: "a", toolName: "t", output: big("A") }], {
      messageId: "m",
    });
    await reached;
    const before = runtime.coreInstance();
    await assert.rejects(
      new ToolStub({ sessionId: "other" }).read(hugeId()),
      (error) => error.code === "INVALID_ARGUMENT",
    );
    assert.equal(runtime.coreInstance(), before, "no restart under a planned turn");
    assert.ok(memoryBytes() > KEPT_MEMORY_BYTES);
    open();
    const [part] = await pending;
    assert.equal(runtime.coreInstance(), before + 1, "the restart came once the turn finished");
    assert.ok(memoryBytes() < KEPT_MEMORY_BYTES / 4);
    await assertStoredExactly(ts, part, big("A"));
  });
});
