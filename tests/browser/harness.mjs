// Shared by the browser runners: headless Chromium launched the one way they all need, and the
// plain check list each runner prints (`ok - name`, then `N passed, N failed`).
import { rmSync } from "node:fs";
import { chromium } from "playwright-core";
import { tempDir } from "../js/temp.js";

/**
 * The system Chromium (CHROMIUM_PATH, else /usr/bin/chromium), headless, with no background work.
 * Its temp files (Playwright's profile folder, Chromium's scoped folders and shared memory files)
 * go in a folder of its own, removed when the browser closes and at exit: a run leaves nothing in
 * the temp dir, also when the browser is killed.
 */
export async function launchChromium() {
  const dir = tempDir("tool-stub-chromium-");
  const env = { ...process.env, TMPDIR: dir, TMP: dir, TEMP: dir };
  // Playwright makes the profile folder in the temp dir this process sees while it launches.
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  let browser;
  try {
    browser = await launch(env);
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
  const close = browser.close.bind(browser);
  browser.close = async (...args) => {
    try {
      await close(...args);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  return browser;
}

function launch(env) {
  return chromium.launch({
    env,
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

/**
 * Serves the repository on a free 127.0.0.1 port, launches Chromium and returns what
 * `use(browser, open)` returns, where `open(context, path)` opens the served `path` in a new page
 * of `context` (the browser or one of its contexts) and waits for its `window.ready`. The browser
 * and the server are stopped after, on failure too.
 */
export async function withServedChromium(use) {
  const { serve } = await import("../../www/serve.mjs");
  const server = await serve(0);
  const origin = `http://127.0.0.1:${server.address().port}`;
  const open = async (context, path) => {
    const page = await context.newPage();
    await page.goto(`${origin}${path}`);
    await page.waitForFunction(() => window.ready === true, null, { timeout: 60_000 });
    return page;
  };
  let browser;
  try {
    browser = await launchChromium();
    return await use(browser, open);
  } finally {
    await browser?.close();
    server.close();
  }
}

/**
 * For benchmark rows: what `withServedChromium(use)` returns, or the first `width` chars of why it
 * could not be measured (no Chromium here, say), which the row prints instead.
 */
export async function measureInChromium(use, width = 80) {
  try {
    return await withServedChromium(use);
  } catch (error) {
    return String(error?.message ?? error)
      .split("\n")[0]
      .slice(0, width);
  }
}

/**
 * `check(name, ok, detail)` prints one line per check; `report()` prints the closing
 * `N passed, N failed` and fails the process when any check failed or none ran.
 */
export function checkList() {
  const results = [];
  const check = (name, ok, detail = "") => {
    results.push(ok);
    console.log(`${ok ? "ok" : "not ok"} - ${name}${detail ? `: ${detail}` : ""}`);
  };
  const report = () => {
    const passed = results.filter(Boolean).length;
    console.log(`${passed} passed, ${results.length - passed} failed`);
    process.exitCode = results.length > 0 && passed === results.length ? 0 : 1;
  };
  return { check, report };
}
