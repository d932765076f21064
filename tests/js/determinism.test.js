// Native and wasm give the same bytes: the native core (the `determinism` example, run as a child
// process) generates outputs of every kind and answers for them; the wasm build must answer the same.
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { ROOT } from "./pkg.js";
import { dropTurn, finishTurn, makePreviewJson, planTurn } from "../../pkg/wasm/tool_stub.js";
// The main module asks enhanced mode's module for enhanced synopses through the runtime's host
// (the API passes it to every such call); the Node runtime says how to load that module.
import { runtime } from "../../pkg/js/node-runtime.js";

const enhancedHost = runtime.enhanced.host;

const native = JSON.parse(
  execFileSync(
    "cargo",
    ["run", "--quiet", "--profile", "test", "--example", "determinism", "--", "150"],
    {
      cwd: ROOT,
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
      stdio: ["ignore", "pipe", "inherit"],
    },
  ),
);

describe("native and wasm give the same bytes", () => {
  it(`synopsis and stub of ${native.previews.length} generated outputs`, () => {
    assert.ok(native.previews.length >= 100);
    assert.ok(native.previews.some((preview) => preview.synopsisMode === "enhanced"));
    for (const { output, mimeType, previewChars, synopsisMode, expected } of native.previews) {
      const actual = JSON.parse(
        makePreviewJson(
          output,
          JSON.stringify({ mimeType, previewChars, synopsisMode }),
          enhancedHost,
        ),
      );
      assert.deepEqual(
        actual,
        expected,
        `mime ${mimeType}, preview ${previewChars}, ${synopsisMode}: ${output.slice(0, 80)}`,
      );
    }
  });

  it(`plans of ${native.turns.length} generated turns`, () => {
    assert.ok(native.turns.some((turn) => turn.expected.writes?.length > 0));
    assert.ok(native.turns.some((turn) => turn.input.config.synopsisMode === "enhanced"));
    for (const { input, expected } of native.turns) {
      let actual;
      let turn;
      try {
        // The binding takes the outputs beside the turn, keeps the plan, and hands out what storing
        // needs: each write's keys, then its two files.
        const outputs = input.parts.map((part) => part.output ?? "");
        const parts = input.parts.map((part) => ({ ...part, output: "" }));
        const [planned, ...files] = planTurn(
          JSON.stringify({ ...input, parts }),
          outputs,
          [],
          undefined,
          enhancedHost,
        );
        const plan = JSON.parse(planned);
        turn = plan.turn;
        const writes = plan.writes.map((write, i) => ({
          ...write,
          indexJson: files[2 * i],
          metadataJson: files[2 * i + 1],
        }));
        const stored = JSON.stringify(writes.map(() => ({ status: "stored", metadataJson: "" })));
        actual = {
          writes,
          parts: JSON.parse(
            finishTurn(
              turn,
              stored,
              writes.map(() => ""),
              enhancedHost,
            ),
          ),
        };
      } catch (thrown) {
        dropTurn(turn);
        actual = { error: String(thrown) };
      }
      // From the native plan: what the binding hands out of each write, and the finished parts,
      // where an output the core left as it was comes back "" (the host keeps it).
      const pick = ({
        partIndex,
        sha256,
        outputKey,
        indexKey,
        metadataKey,
        indexJson,
        metadataJson,
      }) => ({ partIndex, sha256, outputKey, indexKey, metadataKey, indexJson, metadataJson });
      const changed = (i) =>
        expected.rewrittenParts.includes(i) ||
        expected.writes.some((write) => write.partIndex === i);
      const wanted = expected.parts
        ? {
            writes: expected.writes.map(pick),
            parts: expected.parts.map((part, i) => (changed(i) ? part : { ...part, output: "" })),
          }
        : expected;
      assert.deepEqual(actual, wanted, `turn ${input.sessionId}`);
    }
  });
});
