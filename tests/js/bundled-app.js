// Shared by the bundler tests (esbuild, Vite, webpack): the app each one bundles, and a run of the
// bundle in headless Chromium. Each test only says how its bundler builds the app.
import * as http from "node:http";
import {
  mkdtempSync,
  mkdirSync,
  symlinkSync,
  writeFileSync,
  readFileSync,
  existsSync,
  rmSync,
} from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { ROOT } from "./pkg.js";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm" };

/** The `skip` option of a bundler test's describe: no Chromium is a skip, never a pass. */
export const chromiumSkip = existsSync(CHROMIUM)
  ? false
  : `no Chromium at ${CHROMIUM}: skipped, not passed`;

/**
 * What the app sets as `window.result` when every call works, its search having run in the search
 * worker (`"worker"`: the bundler emitted js/search-worker.js) or on the main thread (`"main"`).
 */
export const expectedResult = (thread) => ({
  truncated: true,
  found: "NEEDLE",
  thread,
  enhancedKind: "kind: log",
});

/**
 * The app: externalizes a JSON output into IndexedDbStore, searches it through the grep module
 * and reads the hit back, then externalizes a log with enhanced synopses (enhanced mode's module:
 * the bundle must load it too; `enhancedKind` is its stub's kind line); `imports` must import `preloadGrep` too (it says where searches ran). `imports` and `setup` let a bundler's app load the wasm its own way.
 */
export function appSource({
  dbName,
  imports = 'import { ToolStub, IndexedDbStore, preloadGrep } from "tool-stub/browser";',
  setup = "",
}) {
  // The body in an async function, not at the top level: an iife bundle (esbuild's default
  // format) cannot hold a top-level await.
  return `
${imports}
(async () => {
try {
  ${setup}
  const ts = new ToolStub({ store: new IndexedDbStore({ dbName: ${JSON.stringify(dbName)} }), sessionId: "app" });
  const output = JSON.stringify({ rows: Array.from({ length: 3000 }, (_, i) => ({ i, note: i === 2024 ? "NEEDLE" : "ok" })) });
  const [part] = await ts.externalize([{ toolId: "c1", toolName: "fetch", output }], { messageId: "m" });
  const hits = await ts.search(part.outputRef, { query: "needle", ignoreCase: true });
  const read = await ts.read(part.outputRef, { offset: hits.matches[0].offset, limit: 6 });
  const enhancedStub = new ToolStub({ store: new IndexedDbStore({ dbName: ${JSON.stringify(dbName)} }), sessionId: "app-enhanced", config: { synopsisMode: "enhanced" } });
  const log = Array.from({ length: 800 }, (_, i) => "2026-12-01T10:00:" + String(i % 60).padStart(2, "0") + "Z " + (i % 40 ? "INFO" : "ERROR") + " request " + i).join("\\n");
  const [logPart] = await enhancedStub.externalize([{ toolId: "c2", toolName: "tail", output: log }], { messageId: "m2" });
  window.result = { truncated: part.truncated, found: read.content, thread: (await preloadGrep()).thread, enhancedKind: logPart.output.split("\\n")[2] };
} catch (error) {
  window.result = { error: String(error?.code ?? "") + ": " + String(error?.message ?? error) };
}
})();
`;
}

function serve(dir) {
  const server = http.createServer((req, res) => {
    const file = path.join(dir, path.normalize(new URL(req.url, "http://x").pathname));
    if (!file.startsWith(dir) || !existsSync(file)) return res.writeHead(404).end();
    res
      .writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream" })
      .end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/**
 * Writes `app` into a fresh project that has the built package as `node_modules/tool-stub`, calls
 * `build(project)` (which returns the folder to serve, holding `index.html`), serves that folder on
 * 127.0.0.1 and returns the `window.result` the page sets in headless Chromium. Everything is
 * stopped and removed afterwards, on failure too.
 */
export async function runBundledApp(name, app, build) {
  const project = mkdtempSync(path.join(tmpdir(), `tool-stub-${name}-`));
  let browser;
  let site;
  try {
    mkdirSync(path.join(project, "node_modules"));
    symlinkSync(path.join(ROOT, "pkg"), path.join(project, "node_modules/tool-stub"), "dir");
    writeFileSync(
      path.join(project, "package.json"),
      JSON.stringify({ name: "app", private: true, type: "module" }),
    );
    writeFileSync(path.join(project, "app.js"), app);
    site = await serve(await build(project));
    const { chromium } = await import("playwright-core");
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${site.address().port}/index.html`);
    await page.waitForFunction(() => window.result !== undefined, null, { timeout: 60_000 });
    return await page.evaluate(() => window.result);
  } finally {
    await browser?.close();
    site?.close();
    rmSync(project, { recursive: true, force: true });
  }
}
