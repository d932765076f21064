// webpack 5: an app importing `tool-stub/browser` as the README says (no init call), built with
// webpack's Node API in production mode, served from its dist folder and run in headless Chromium
// with IndexedDbStore: webpack emits the wasm that `new URL(..., import.meta.url)` names as assets.
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import * as http from "node:http";
import { mkdtempSync, mkdirSync, symlinkSync, writeFileSync, readFileSync, existsSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { ROOT } from "./pkg.js";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm" };

const APP = `
import { ToolStub, IndexedDbStore } from "tool-stub/browser";
try {
  const ts = new ToolStub({ store: new IndexedDbStore({ dbName: "webpack-app" }), sessionId: "app" });
  const output = JSON.stringify({ rows: Array.from({ length: 3000 }, (_, i) => ({ i, note: i === 2024 ? "NEEDLE" : "ok" })) });
  const [part] = await ts.externalize([{ toolId: "c1", toolName: "fetch", output }], { messageId: "m" });
  const hits = await ts.search(part.outputRef, { query: "needle", ignoreCase: true });
  const read = await ts.read(part.outputRef, { offset: hits.matches[0].offset, limit: 6 });
  window.result = { truncated: part.truncated, found: read.content };
} catch (error) {
  window.result = { error: String(error?.code ?? "") + ": " + String(error?.message ?? error) };
}
`;

function serve(dir) {
  const server = http.createServer((req, res) => {
    const file = path.join(dir, path.normalize(new URL(req.url, "http://x").pathname));
    if (!file.startsWith(dir) || !existsSync(file)) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream" }).end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

describe("webpack 5", { skip: existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM}: skipped, not passed` }, () => {
  it("a webpack build of an app importing tool-stub/browser runs in Chromium with IndexedDbStore", async () => {
    const project = mkdtempSync(path.join(tmpdir(), "tool-stub-webpack-"));
    let browser;
    let site;
    try {
      mkdirSync(path.join(project, "node_modules"));
      symlinkSync(path.join(ROOT, "pkg"), path.join(project, "node_modules/tool-stub"), "dir");
      writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
      writeFileSync(path.join(project, "app.js"), APP);
      const BUILD = `
        import webpack from ${JSON.stringify(path.join(ROOT, "node_modules/webpack/lib/index.js"))};
        webpack({ mode: "production", context: process.cwd(), entry: "./app.js", output: { path: process.cwd() + "/dist", filename: "app.js" } }, (error, stats) => {
          if (error || stats.hasErrors()) { console.error(String(error ?? stats.toString("errors-only"))); process.exit(1); }
        });
      `;
      writeFileSync(path.join(project, "build.mjs"), BUILD);
      const build = spawnSync(process.execPath, ["build.mjs"], { cwd: project, encoding: "utf8" });
      assert.equal(build.status, 0, build.stderr + build.stdout);
      writeFileSync(path.join(project, "dist/index.html"), `<!doctype html><script src="app.js"></script>`);
      site = await serve(path.join(project, "dist"));
      const { chromium } = await import("playwright-core");
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${site.address().port}/index.html`);
      await page.waitForFunction(() => window.result !== undefined, null, { timeout: 60_000 });
      assert.deepEqual(await page.evaluate(() => window.result), { truncated: true, found: "NEEDLE" });
    } finally {
      await browser?.close();
      site?.close();
      rmSync(project, { recursive: true, force: true });
    }
  });
});
