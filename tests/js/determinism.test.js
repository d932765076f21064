// Native and wasm give the same bytes: the native core (the `determinism` example, run as a child
// process) generates outputs of every kind and answers for them; the wasm build must answer the same.
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { ROOT } from "./pkg.js";
import { makePreviewJson, planTurn } from "../../pkg/wasm/tool_stub.js";

const native = JSON.parse(
  execFileSync("cargo", ["run", "--quiet", "--profile", "test", "--example", "determinism", "--", "150"], {
    cwd: ROOT,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    stdio: ["ignore", "pipe", "inherit"],
  }),
);

describe("native and wasm give the same bytes", () => {
  it(`synopsis and stub of ${native.previews.length} generated outputs`, () => {
    assert.ok(native.previews.length >= 100);
    for (const { output, mimeType, previewChars, expected } of native.previews) {
      const actual = JSON.parse(makePreviewJson(output, JSON.stringify({ mimeType, previewChars })));
      assert.deepEqual(actual, expected, `mime ${mimeType}, preview ${previewChars}: ${output.slice(0, 80)}`);
    }
  });

  it(`plans of ${native.turns.length} generated turns`, () => {
    assert.ok(native.turns.some((turn) => turn.expected.writes?.length > 0));
    for (const { input, expected } of native.turns) {
      let actual;
      try {
        // The binding takes the outputs beside the turn and hands back only the ones it rewrote.
        const outputs = input.parts.map((part) => part.output ?? "");
        const parts = input.parts.map((part) => ({ ...part, output: "" }));
        const { plan, files } = JSON.parse(planTurn(JSON.stringify({ ...input, parts }), outputs, []));
        // The binding hands each write's file contents beside the plan: put them back to compare.
        plan.writes.forEach((write, i) => Object.assign(write, files[i]));
        actual = plan;
      } catch (thrown) {
        actual = { error: String(thrown) };
      }
      const wanted = expected.parts
        ? { ...expected, parts: expected.parts.map((part, i) => (expected.rewrittenParts.includes(i) ? part : { ...part, output: "" })) }
        : expected;
      assert.deepEqual(actual, wanted, `turn ${input.sessionId}`);
    }
  });
});
