// The package in the JS runtimes at hand, each loading it as a user would (a project whose
// node_modules holds the built package): Node ESM import, CommonJS require, the browser entry
// imported in Node (refused, saying what to do), the browser entry's init({ bytes }) for hosts
// whose bundler did not emit the wasm, and Deno and Bun through their npm-distributed binaries
// (dev dependencies; a missing one fails the check rather than skipping it).
import { describe, it, after } from "node:test";
import * as assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, symlinkSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { ROOT } from "./pkg.js";

const project = mkdtempSync(path.join(tmpdir(), "tool-stub-runtimes-"));
mkdirSync(path.join(project, "node_modules"));
symlinkSync(path.join(ROOT, "pkg"), path.join(project, "node_modules/tool-stub"), "dir");
writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "app", private: true }));
after(() => rmSync(project, { recursive: true, force: true }));

/** Runs `file` (written into the project) with node (or `command`); its stdout's last line as JSON. */
function run(file, source, command = [process.execPath]) {
  writeFileSync(path.join(project, file), source);
  const [bin, ...args] = command;
  const result = spawnSync(bin, [...args, file], {
    cwd: project,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
  });
  return {
    ...result,
    json: result.status === 0 ? JSON.parse(result.stdout.trim().split("\n").at(-1)) : undefined,
  };
}

// Externalizes one large output and reads a slice back: the round trip every runtime must do.
const ROUND_TRIP = `
  const ts = new ToolStub({ sessionId: "rt", store: new MemoryStore() });
  const output = "x".repeat(30000) + "NEEDLE";
  const [part] = await ts.externalize([{ toolId: "a", toolName: "t", output }], { messageId: "m" });
  const read = await ts.read(part.outputRef, { offset: 30000, limit: 6 });
  const hits = await ts.search(part.outputRef, { query: "needle", ignoreCase: true });
  console.log(JSON.stringify({ truncated: part.truncated, content: read.content, at: hits.matches[0].offset }));
`;
const EXPECTED = { truncated: true, content: "NEEDLE", at: 30000 };

describe("runtimes", () => {
  it("Node ESM: import from 'tool-stub'", () => {
    const result = run(
      "esm.mjs",
      `import { ToolStub, MemoryStore } from "tool-stub";\n${ROUND_TRIP}`,
    );
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(result.json, EXPECTED);
  });

  it("Node CommonJS: require('tool-stub')", () => {
    const result = run(
      "cjs.cjs",
      `const { ToolStub, MemoryStore } = require("tool-stub");\n(async () => {${ROUND_TRIP}})();`,
    );
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(result.json, EXPECTED);
  });

  for (const [runtime, command] of [
    ["Deno", [path.join(ROOT, "node_modules/.bin/deno"), "run", "--allow-read", "--allow-env"]],
    ["Bun", [path.join(ROOT, "node_modules/.bin/bun"), "run"]],
  ]) {
    it(`${runtime} (npm binary): import from 'tool-stub'`, () => {
      const result = run(
        `${runtime.toLowerCase()}.mjs`,
        `import { ToolStub, MemoryStore } from "tool-stub";\n${ROUND_TRIP}`,
        command,
      );
      assert.equal(
        result.error,
        undefined,
        `${runtime} did not start: ${result.error?.message} (npm ci installs it)`,
      );
      assert.equal(result.status, 0, result.stderr);
      assert.deepEqual(result.json, EXPECTED);
    });
  }

  it("Node: import('tool-stub/browser') fails saying to use the Node entry, not 'fetch failed' alone", () => {
    const result = run(
      "browser-in-node.mjs",
      `
      try { await import("tool-stub/browser"); console.log(JSON.stringify({ loaded: true })); }
      catch (e) { console.log(JSON.stringify({ code: e.code, message: e.message })); }
    `,
    );
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.json.code, "NOT_READY");
    assert.match(result.json.message, /In Node .* import "tool-stub" or "tool-stub\/node" instead/);
  });

  it("browser entry, no top-level await: a ToolStub made at import waits for the wasm; synchronous calls say to await init()", () => {
    // A non-Node host (as a page is) whose fetch of the wasm takes a while.
    const result = run(
      "lazy.mjs",
      `
      import { readFileSync } from "node:fs";
      import { fileURLToPath } from "node:url";
      globalThis.Deno = {};
      globalThis.fetch = async (url) => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return new Response(readFileSync(fileURLToPath(url)), { headers: { "content-type": "application/wasm" } });
      };
      const { init, synopsis, ToolStub, MemoryStore } = await import("tool-stub/browser");
      let early;
      try { synopsis("x"); } catch (e) { early = { code: e.code, message: e.message }; }
      const bad = new ToolStub({ sessionId: "bad", config: { bogus: 1 } });
      ${ROUND_TRIP.replace("console.log(JSON.stringify({", "const roundTrip = JSON.parse(JSON.stringify({")}
      const badCalls = [];
      for (let i = 0; i < 2; i++) await bad.list().catch((e) => badCalls.push(e.code));
      await init();
      const kind = synopsis('{"a": 1}', { mimeType: "application/json" }).kind;
      console.log(JSON.stringify({ early, badCalls, kind, roundTrip }));
    `,
    );
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.json.early.code, "NOT_READY");
    assert.match(
      result.json.early.message,
      /still loading: await init\(\) before calling synopsis/,
    );
    assert.deepEqual(
      result.json.badCalls,
      ["INVALID_ARGUMENT", "INVALID_ARGUMENT"],
      "a bad config made before the wasm loaded fails every call",
    );
    assert.equal(result.json.kind, "json");
    assert.deepEqual(result.json.roundTrip, EXPECTED);
  });

  it("browser entry whose wasm fetch fails: NOT_READY says to call init, and init({ bytes }) makes it work", () => {
    // A non-Node host (as a bundled page is) whose fetch of the wasm fails, like esbuild's 404.
    const result = run(
      "bundled.mjs",
      `
      import { readFileSync } from "node:fs";
      globalThis.Deno = {};
      globalThis.fetch = async () => { throw new TypeError("fetch failed"); };
      const { init, ToolStub, MemoryStore } = await import("tool-stub/browser");
      let before;
      try { await new ToolStub({ sessionId: "rt" }).list(); } catch (e) { before = { code: e.code, message: e.message }; }
      const wasm = (name) => readFileSync(new URL("./node_modules/tool-stub/wasm/" + name, import.meta.url));
      await init({ bytes: wasm("tool_stub_bg.wasm"), grepBytes: wasm("tool_stub_grep_bg.wasm") });
      ${ROUND_TRIP.replace("console.log(JSON.stringify({", "console.log(JSON.stringify({ before,")}
    `,
    );
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.json.before.code, "NOT_READY");
    assert.match(
      result.json.before.message,
      /fetch failed.*call await init\(\{ url \}\).*init\(\{ bytes \}\)/,
    );
    const { before, ...roundTrip } = result.json;
    assert.deepEqual(roundTrip, EXPECTED);
  });
});
