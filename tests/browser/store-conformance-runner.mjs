// Runs tests/browser/store-conformance.html in headless Chromium against the
// real IndexedDB and reports like a test runner: one line per check, then
// "N passed, N failed". Exits non-zero on any failure or if no check ran.
//
// Usage: node tests/browser/store-conformance-runner.mjs
// Env: CHROMIUM_PATH (default /usr/bin/chromium)

import * as http from "node:http";
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium } from "./harness.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const PAGE = "/tests/browser/store-conformance.html";
const TIMEOUT_MS = 120_000;
const TYPES = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".json": "application/json",
  ".wasm": "application/wasm",
};

// Minimal static server for the repo root, bound to loopback only.
function startServer() {
  const server = http.createServer(async (req, res) => {
    try {
      const urlPath = decodeURIComponent(new URL(req.url, "http://x").pathname);
      const file = path.resolve(ROOT, `.${urlPath}`);
      if (!file.startsWith(ROOT + path.sep))
        throw Object.assign(new Error("outside root"), { code: "ENOENT" });
      const body = await fs.readFile(file);
      res.writeHead(200, {
        "content-type": TYPES[path.extname(file)] ?? "application/octet-stream",
        "cache-control": "no-store",
      });
      res.end(body);
    } catch (err) {
      res.writeHead(err.code === "ENOENT" || err.code === "EISDIR" ? 404 : 500);
      res.end(String(err.message));
    }
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

async function main() {
  const server = await startServer();
  const browser = await launchChromium();
  const problems = [];
  let results = [];
  try {
    const page = await browser.newPage();
    // Any of these means the page cannot be trusted (e.g. a module failed to
    // load and the suite never started): stop waiting at once.
    let abort;
    const aborted = new Promise((_, reject) => {
      abort = reject;
    });
    aborted.catch(() => {});
    const problem = (msg) => {
      problems.push(msg);
      abort(new Error(msg));
    };
    page.on("pageerror", (err) => problem(`page error: ${err.message}`));
    page.on("console", (msg) => {
      if (msg.type() === "error") problem(`console error: ${msg.text()}`);
    });
    page.on("response", (r) => {
      if (r.status() >= 400) problem(`HTTP ${r.status()} for ${r.url()}`);
    });
    page.on("requestfailed", (r) => problem(`request failed: ${r.url()}`));
    const { port } = server.address();
    await page.goto(`http://127.0.0.1:${port}${PAGE}`);
    await Promise.race([
      page.waitForFunction(() => window.__storeConformance?.done === true, null, {
        timeout: TIMEOUT_MS,
      }),
      aborted,
    ]);
    const state = await page.evaluate(() => window.__storeConformance);
    results = state.results;
    if (state.error) problems.push(`suite error: ${state.error}`);
  } catch (err) {
    if (!problems.includes(err.message)) problems.push(`runner: ${err.message}`);
  } finally {
    await browser.close();
    server.close();
  }

  for (const r of results)
    console.log(
      `${r.ok ? "ok" : "not ok"} - ${r.name} (${r.ms} ms)${r.ok ? "" : `\n    ${r.error}`}`,
    );
  for (const p of problems) console.log(`# ${p}`);
  const failed = results.filter((r) => !r.ok).length;
  console.log(`${results.length - failed} passed, ${failed} failed`);
  process.exitCode = failed > 0 || results.length === 0 || problems.length > 0 ? 1 : 0;
}

await main();
