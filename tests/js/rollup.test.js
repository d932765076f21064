// Rollup: an app importing `tool-stub/browser`, built with Rollup's JS API and the two plugins the
// README names (@rollup/plugin-node-resolve to find the package, @web/rollup-plugin-import-meta-assets
// to emit the wasm that `new URL(..., import.meta.url)` names: Rollup alone leaves those URLs as
// they are), served from its dist folder and run in headless Chromium with IndexedDbStore. The
// search worker is bundled as a second input (`tool-stub/search-worker`) and named with
// `init({ searchWorkerUrl })`, so searches run in it.
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { writeFileSync, readdirSync } from "node:fs";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { ROOT } from "./pkg.js";
import { appSource, chromiumSkip, expectedResult, runBundledApp } from "./bundled-app.js";

const modulePath = (name) => JSON.stringify(path.join(ROOT, "node_modules", name));

const BUILD = `
  import { rollup } from ${modulePath("rollup/dist/es/rollup.js")};
  import { nodeResolve } from ${modulePath("@rollup/plugin-node-resolve/dist/es/index.js")};
  import { importMetaAssets } from ${modulePath("@web/rollup-plugin-import-meta-assets/index.mjs")};
  const bundle = await rollup({
    input: { app: "app.js", "search-worker": "tool-stub/search-worker" },
    plugins: [nodeResolve({ browser: true }), importMetaAssets()],
    onwarn: () => {},
  });
  await bundle.write({ dir: "dist", format: "es", entryFileNames: "[name].js" });
  await bundle.close();
`;

describe("Rollup", { skip: chromiumSkip }, () => {
  it("a Rollup build (node-resolve, import-meta-assets) of an app importing tool-stub/browser runs in Chromium with IndexedDbStore, searching in the worker", async () => {
    const app = appSource({
      dbName: "rollup-app",
      imports: 'import { init, ToolStub, IndexedDbStore, preloadGrep } from "tool-stub/browser";',
      setup: 'await init({ searchWorkerUrl: "./search-worker.js" });',
    });
    const result = await runBundledApp("rollup", app, (project) => {
      writeFileSync(path.join(project, "build.mjs"), BUILD);
      const build = spawnSync(process.execPath, ["build.mjs"], { cwd: project, encoding: "utf8" });
      assert.equal(build.status, 0, build.stderr + build.stdout);
      const dist = path.join(project, "dist");
      const assets = readdirSync(path.join(dist, "assets"));
      assert.ok(
        assets.some((f) => /^tool_stub_bg-.*\.wasm$/.test(f)) &&
          assets.some((f) => /^tool_stub_grep_bg-.*\.wasm$/.test(f)) &&
          assets.some((f) => /^tool_stub_enhanced_bg-.*\.wasm$/.test(f)) &&
          assets.some((f) => /^tool_stub_extras_bg-.*\.wasm$/.test(f)),
        `the wasm was emitted: ${assets}`,
      );
      writeFileSync(
        path.join(dist, "index.html"),
        `<!doctype html><script type="module" src="app.js"></script>`,
      );
      return dist;
    });
    assert.deepEqual(result, expectedResult("worker"));
  });
});
