// esbuild, the bundler that does not emit the package's wasm (it leaves `new URL(..., import.meta.url)`
// as it is): an app bundled with `--bundle --format=esm --loader:.wasm=binary` hands the wasm to
// `init({ bytes })` and runs in headless Chromium with IndexedDbStore, served from a folder that
// holds only the bundle and its page (no copied wasm).
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import * as http from "node:http";
import { mkdtempSync, mkdirSync, symlinkSync, writeFileSync, readFileSync, readdirSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { ROOT } from "./pkg.js";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ESBUILD = path.join(ROOT, "node_modules/.bin/esbuild");

const APP = `
import { init, ToolStub, IndexedDbStore } from "tool-stub/browser";
import core from "tool-stub/wasm/tool_stub_bg.wasm";
import grep from "tool-stub/wasm/tool_stub_grep_bg.wasm";
try {
  await init({ bytes: core, grepBytes: grep });
  const ts = new ToolStub({ store: new IndexedDbStore({ dbName: "esbuild-app" }), sessionId: "app" });
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
    const file = path.join(dir, path.basename(new URL(req.url, "http://x").pathname) || "index.html");
    if (!existsSync(file)) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": file.endsWith(".html") ? "text/html" : "text/javascript" }).end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

describe("esbuild", { skip: existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM}: skipped, not passed` }, () => {
  it("bundles an app that loads the wasm with init({ bytes }) and runs it in Chromium with IndexedDbStore", async () => {
    const project = mkdtempSync(path.join(tmpdir(), "tool-stub-esbuild-"));
    let browser;
    let site;
    try {
      mkdirSync(path.join(project, "node_modules"));
      symlinkSync(path.join(ROOT, "pkg"), path.join(project, "node_modules/tool-stub"), "dir");
      writeFileSync(path.join(project, "app.js"), APP);
      const out = path.join(project, "public");
      const build = spawnSync(ESBUILD, ["app.js", "--bundle", "--format=esm", "--loader:.wasm=binary", `--outfile=${path.join(out, "app.js")}`, "--log-level=error"], { cwd: project, encoding: "utf8" });
      assert.equal(build.status, 0, build.stderr);
      writeFileSync(path.join(out, "index.html"), `<!doctype html><script type="module" src="app.js"></script>`);
      assert.deepEqual(readdirSync(out).sort(), ["app.js", "index.html"], "no wasm file was emitted or copied");
      site = await serve(out);
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
