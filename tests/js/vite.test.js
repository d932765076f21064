// Vite: an app importing `tool-stub/browser` as the README says (no init call), built with
// `vite build`, served from its dist folder and run in headless Chromium with IndexedDbStore: Vite
// emits the wasm that `new URL(..., import.meta.url)` names.
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { ROOT } from "./pkg.js";
import { appSource, chromiumSkip, expectedResult, runBundledApp } from "./bundled-app.js";

describe("Vite", { skip: chromiumSkip }, () => {
  it("vite build of an app importing tool-stub/browser runs in Chromium with IndexedDbStore", async () => {
    const result = await runBundledApp("vite", appSource({ dbName: "vite-app" }), (project) => {
      writeFileSync(
        path.join(project, "index.html"),
        `<!doctype html><script type="module" src="/app.js"></script>`,
      );
      writeFileSync(
        path.join(project, "vite.config.js"),
        `export default { build: { target: "es2022" }, logLevel: "error" };`,
      );
      const build = spawnSync(
        process.execPath,
        [path.join(ROOT, "node_modules/vite/bin/vite.js"), "build"],
        { cwd: project, encoding: "utf8" },
      );
      assert.equal(build.status, 0, build.stderr + build.stdout);
      return path.join(project, "dist");
    });
    assert.deepEqual(result, expectedResult("worker"));
  });
});
