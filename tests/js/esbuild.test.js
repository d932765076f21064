// esbuild, the bundler that does not emit the package's wasm (it leaves `new URL(..., import.meta.url)`
// as it is): an app bundled with `--bundle --format=esm --loader:.wasm=binary` hands the wasm to
// `init({ bytes })` and runs in headless Chromium with IndexedDbStore, served from a folder that
// holds only the bundle and its page (no copied wasm).
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { writeFileSync, readdirSync } from "node:fs";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { ROOT } from "./pkg.js";
import { appSource, chromiumSkip, expectedResult, runBundledApp } from "./bundled-app.js";

const ESBUILD = path.join(ROOT, "node_modules/.bin/esbuild");

const APP = appSource({
  dbName: "esbuild-app",
  imports: `import { init, ToolStub, IndexedDbStore, preloadGrep } from "tool-stub/browser";
import core from "tool-stub/wasm/tool_stub_bg.wasm";
import grep from "tool-stub/wasm/tool_stub_grep_bg.wasm";`,
  setup: "await init({ bytes: core, grepBytes: grep });",
});

describe("esbuild", { skip: chromiumSkip }, () => {
  it("bundles an app that loads the wasm with init({ bytes }) and runs it in Chromium with IndexedDbStore", async () => {
    const result = await runBundledApp("esbuild", APP, (project) => {
      const out = path.join(project, "public");
      const build = spawnSync(ESBUILD, ["app.js", "--bundle", "--format=esm", "--loader:.wasm=binary", `--outfile=${path.join(out, "app.js")}`, "--log-level=error"], { cwd: project, encoding: "utf8" });
      assert.equal(build.status, 0, build.stderr);
      writeFileSync(path.join(out, "index.html"), `<!doctype html><script type="module" src="app.js"></script>`);
      assert.deepEqual(readdirSync(out).sort(), ["app.js", "index.html"], "no wasm file was emitted or copied");
      return out;
    });
    assert.deepEqual(result, expectedResult("main"));
  });
});
