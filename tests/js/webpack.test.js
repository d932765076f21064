// webpack 5: an app importing `tool-stub/browser` as the README says (no init call), built with
// webpack's Node API in production mode, served from its dist folder and run in headless Chromium
// with IndexedDbStore: webpack emits the wasm that `new URL(..., import.meta.url)` names as assets.
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { ROOT } from "./pkg.js";
import { appSource, chromiumSkip, expectedResult, runBundledApp } from "./bundled-app.js";

const BUILD = `
  import webpack from ${JSON.stringify(path.join(ROOT, "node_modules/webpack/lib/index.js"))};
  webpack({ mode: "production", context: process.cwd(), entry: "./app.js", output: { path: process.cwd() + "/dist", filename: "app.js" } }, (error, stats) => {
    if (error || stats.hasErrors()) { console.error(String(error ?? stats.toString("errors-only"))); process.exit(1); }
  });
`;

describe("webpack 5", { skip: chromiumSkip }, () => {
  it("a webpack build of an app importing tool-stub/browser runs in Chromium with IndexedDbStore", async () => {
    const result = await runBundledApp(
      "webpack",
      appSource({ dbName: "webpack-app" }),
      (project) => {
        writeFileSync(path.join(project, "build.mjs"), BUILD);
        const build = spawnSync(process.execPath, ["build.mjs"], {
          cwd: project,
          encoding: "utf8",
        });
        assert.equal(build.status, 0, build.stderr + build.stdout);
        writeFileSync(
          path.join(project, "dist/index.html"),
          `<!doctype html><script src="app.js"></script>`,
        );
        return path.join(project, "dist");
      },
    );
    assert.deepEqual(result, expectedResult("worker"));
  });
});
