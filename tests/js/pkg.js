// The JS tests run against the built package (pkg/, made by scripts/build.sh), never the sources.
export * from "../../pkg/js/node.js";

import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import * as assert from "node:assert/strict";
import { ToolStubError } from "../../pkg/js/node.js";
import { fileURLToPath } from "node:url";
import * as path from "node:path";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const PARITY_DIR =
  process.env.TOOL_STUB_PARITY_DIR ?? path.resolve(ROOT, "../shared/parity");
export const HAS_PARITY = existsSync(path.join(PARITY_DIR, "cases.jsonl"));
export const SKIP_PARITY = HAS_PARITY
  ? false
  : "../shared/parity is absent: parity checks skipped, not passed";

/**
 * An `assert.throws`/`assert.rejects` validator: a ToolStubError with this code and a message
 * that says something (matching `pattern` when given).
 */
export const isCode = (code, pattern) => (error) => {
  assert.ok(error instanceof ToolStubError, `expected ToolStubError(${code}), got ${error}`);
  assert.equal(error.code, code, error.message);
  assert.ok(error.message.length > 10, `a clear message, got ${JSON.stringify(error.message)}`);
  if (pattern) assert.match(error.message, pattern);
  return true;
};

/** Asserts that a promise (or an async function's call) rejects as `isCode(code, pattern)`. */
export async function rejectsWith(promiseOrFn, code, pattern) {
  const run = typeof promiseOrFn === "function" ? promiseOrFn : () => promiseOrFn;
  await assert.rejects(async () => run(), isCode(code, pattern));
}

/**
 * Runs `script` (an ES module, run from the repository root, that prints one JSON value) in a
 * fresh Node and returns what it printed: for properties of a process, such as which lazily
 * loaded wasm modules it has loaded.
 */
export function inFreshNode(script) {
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: ROOT,
    encoding: "utf8",
  });
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout);
}
