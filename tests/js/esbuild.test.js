// esbuild, the bundler that does not emit the package's wasm nor its search worker (it leaves
// `new URL(..., import.meta.url)` as it is): an app bundled with `--loader:.wasm=binary` hands the
// wasm to `init({ bytes })` and runs in headless Chromium with IndexedDbStore, served from a folder
// that holds only what esbuild wrote and the page (no copied wasm). In esbuild's default format
// (iife: no top-level await, no module URL) searches run on the main thread; as ESM, with the
// search worker bundled as a second entry and named by `init({ searchWorkerUrl })`, in the worker.
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { writeFileSync, readdirSync } from "node:fs";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { ROOT } from "./pkg.js";
import { appSource, chromiumSkip, expectedResult, runBundledApp } from "./bundled-app.js";

const ESBUILD = path.join(ROOT, "node_modules/.bin/esbuild");

const app = (initOptions) =>
  appSource({
    dbName: "esbuild-app",
    imports: `import { init, ToolStub, IndexedDbStore, preloadGrep } from "tool-stub/browser";
import core from "tool-stub/wasm/tool_stub_bg.wasm";
import grep from "tool-stub/wasm/tool_stub_grep_bg.wasm";
import enhanced from "tool-stub/wasm/tool_stub_enhanced_bg.wasm";
import extras from "tool-stub/wasm/tool_stub_extras_bg.wasm";`,
    setup: `await init({ bytes: core, grepBytes: grep, enhancedBytes: enhanced, extrasBytes: extras${initOptions} });`,
  });

/** Runs esbuild in the project with `args`; fails the test on a build error. */
function esbuild(project, args) {
  const build = spawnSync(
    ESBUILD,
    [...args, "--bundle", "--loader:.wasm=binary", "--log-level=error"],
    { cwd: project, encoding: "utf8" },
  );
  assert.equal(build.status, 0, build.stderr);
}

describe("esbuild", { skip: chromiumSkip }, () => {
  it("default format (iife): bundles an app that loads the wasm with init({ bytes }) and runs it in Chromium with IndexedDbStore", async () => {
    const result = await runBundledApp("esbuild-iife", app(""), (project) => {
      const out = path.join(project, "public");
      esbuild(project, ["app.js", `--outfile=${path.join(out, "app.js")}`]);
      writeFileSync(path.join(out, "index.html"), `<!doctype html><script src="app.js"></script>`);
      assert.deepEqual(
        readdirSync(out).sort(),
        ["app.js", "index.html"],
        "no wasm file was emitted or copied",
      );
      return out;
    });
    assert.deepEqual(result, expectedResult("main"));
  });

  it("--format=esm with the search worker as a second entry (init({ searchWorkerUrl })): searches run in the worker", async () => {
    const result = await runBundledApp(
      "esbuild",
      app(`, searchWorkerUrl: "./search-worker.js"`),
      (project) => {
        const out = path.join(project, "public");
        esbuild(project, [
          "app=app.js",
          "search-worker=node_modules/tool-stub/js/search-worker.js",
          "--format=esm",
          `--outdir=${out}`,
        ]);
        writeFileSync(
          path.join(out, "index.html"),
          `<!doctype html><script type="module" src="app.js"></script>`,
        );
        assert.deepEqual(
          readdirSync(out).sort(),
          ["app.js", "index.html", "search-worker.js"],
          "no wasm file was emitted or copied",
        );
        return out;
      },
    );
    assert.deepEqual(result, expectedResult("worker"));
  });
});
