// Errors at the JS boundary: every bad input is a ToolStubError with a clear message; the core's
// errors cross as Error objects; the store wrappers keep what they do not change.
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { isWellFormed, wellFormed } from "../../pkg/js/core-call.js";
import { ToolStub, MemoryStore } from "./pkg.js";

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
