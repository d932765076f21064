// Conformance checks of sessions sharing one store (part of `tool-stub/testing`): read grants
// between ToolStubs. They need the ToolStub class of the build under test, passed by the runner:
// `run(makeStore, ToolStub)`. Browser-safe: no Node imports.

import { assert } from "./conformance-assert.js";

/** @typedef {import("./index.js").ToolStub} ToolStub */
/** @typedef {() => import("./stores/store.js").Store | Promise<import("./stores/store.js").Store>} MakeStore */

const FILLER = "ok line\n".repeat(4_000);
/** A result large enough to be stored (the default threshold is 20,000 chars), ending in `marker`. */
const bigOutput = (/** @type {string} */ marker) => `${FILLER}${marker} ✓ 🎉\n`;

/**
 * Stores `output` in `toolStub`'s session; its ref.
 * @param {ToolStub} toolStub
 * @param {string} output
 * @param {string} toolId
 * @returns {Promise<string>}
 */
async function stored(toolStub, output, toolId) {
  const [part] = await toolStub.externalize(
    [{ toolId, toolName: "fetch", output, mimeType: "text/plain" }],
    { messageId: `m_${toolId}` },
  );
  assert.ok(part.outputRef, `the ${output.length}-char output of ${toolId} was stored`);
  return String(part.outputRef);
}

/**
 * The store's keys under `session`.
 * @param {import("./stores/store.js").Store} store
 * @param {string} session
 */
async function keysOf(store, session) {
  return (await store.loadRange([session])).map((entry) => entry.key.join("/")).sort();
}

/** @type {{ name: string, run(makeStore: MakeStore, ToolStub: typeof import("./index.js").ToolStub): Promise<void> }[]} */
export const sessionCases = [
  {
    name: "a granted session's results are read, searched, restored and resolved in place (sessions)",
    async run(makeStore, ToolStub) {
      const store = await makeStore();
      const parent = new ToolStub({ store, sessionId: "parent" });
      const child = new ToolStub({
        store,
        sessionId: "child",
        sessionUri: "mem://team/child",
        readableSessions: [parent.readGrant()],
      });
      const parentOutput = bigOutput("PARENT-BRIEF");
      const childOutput = bigOutput("CHILD-FINDING");
      const parentRef = await stored(parent, parentOutput, "brief");
      const childRef = await stored(child, childOutput, "finding");
      const reader = new ToolStub({
        store,
        sessionId: "parent",
        readableSessions: [child.readGrant()],
      });
      const before = await keysOf(store, "parent");

      const read = await reader.read(childRef, { offset: 0, limit: -1 });
      assert.equal(read.content, childOutput, "the parent reads the child's result exactly");
      const found = await reader.search(childRef, { query: "CHILD-FINDING" });
      assert.equal(found.totalMatches, 1, "the parent searches it");
      const [restored] = await reader.restore([
        {
          toolId: "finding",
          toolName: "fetch",
          output: "stub",
          outputRef: childRef,
          truncated: true,
        },
      ]);
      assert.equal(restored.output, childOutput, "the parent restores it");
      const args = await reader.resolveRefs({ content: childRef, keep: "x" });
      assert.deepEqual(args, { content: childOutput, keep: "x" }, "the parent resolves it");
      assert.equal(
        (await child.read(parentRef, { offset: 0, limit: -1 })).content,
        parentOutput,
        "the child reads the parent's result through its grant",
      );
      assert.deepEqual(await keysOf(store, "parent"), before, "nothing was copied into the parent");
      await assert.rejectsWithCode(
        () => reader.delete(childRef),
        "FORBIDDEN",
        "a grant is read-only",
      );
      assert.equal((await child.read(childRef)).content.length > 0, true, "still there");
    },
  },
  {
    name: "refs of sessions not granted are refused by read, search, searchAll, resolveRefs and restore (sessions)",
    async run(makeStore, ToolStub) {
      const store = await makeStore();
      const other = new ToolStub({ store, sessionId: "other" });
      const otherRef = await stored(other, bigOutput("SECRET-OF-OTHER"), "secret");
      const stranger = new ToolStub({
        store,
        sessionId: "stranger",
        readableSessions: ["someone-else"],
      });
      await assert.rejectsWithCode(() => stranger.read(otherRef), "FORBIDDEN", "read");
      await assert.rejectsWithCode(
        () => stranger.search(otherRef, { query: "SECRET" }),
        "FORBIDDEN",
        "search",
      );
      await assert.rejectsWithCode(() => stranger.verify(otherRef), "FORBIDDEN", "verify");
      await assert.rejectsWithCode(
        () => stranger.resolveRefs({ files: [{ text: otherRef }] }),
        "FORBIDDEN",
        "resolveRefs",
      );
      await assert.rejectsWithCode(
        () => stranger.resolveRefs({ text: { ref: otherRef, lines: { start: 1 } } }),
        "FORBIDDEN",
        "resolveRefs of a ref form",
      );
      await assert.rejectsWithCode(
        () =>
          stranger.restore([
            {
              toolId: "secret",
              toolName: "fetch",
              output: "stub",
              outputRef: otherRef,
              truncated: true,
            },
          ]),
        "FORBIDDEN",
        "restore",
      );
      const all = await stranger.searchAll({ query: "SECRET-OF-OTHER" });
      assert.equal(all.results.length, 0, "searchAll finds nothing of a session not granted");
      assert.deepEqual(await keysOf(store, "stranger"), [], "the stranger stored nothing");
    },
  },
];
