// End-to-end test of the demo page (www/index.html) against the real browser build: headless
// Chromium drives the page like a person would (labels, buttons, keyboard), with IndexedDB, the
// wasm module and the three bundled samples. One line per check, then "N passed, N failed".
// Exits non-zero on any failure, page error or console error, or if no check ran.
//
// Usage: bash scripts/build.sh && node tests/browser/demo-runner.mjs
// Env: CHROMIUM_PATH (default /usr/bin/chromium)
// Screenshots: test-output/browser/demo-1280x800.png, demo-1280-full.png, demo-turn-1280-full.png,
// demo-420x800.png, demo-420-full.png

import * as fs from "node:fs/promises";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium } from "./harness.mjs";
import { serve } from "../../www/serve.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const OUT_DIR = path.join(ROOT, "test-output/browser");
const STEP_TIMEOUT = 15_000;
const HOSTILE = "<img src=x onerror=alert(1)>";
const STUB_HEADER = "[OpenViking tool result externalized]";

const results = [];
const problems = [];

function log(ok, name, detail) {
  results.push({ ok, name });
  console.log(
    `${ok ? "ok" : "not ok"} - ${name}${ok || !detail ? "" : `\n    ${String(detail).split("\n").join("\n    ")}`}`,
  );
}

async function check(name, fn) {
  try {
    const detail = await fn();
    if (detail === false) throw new Error("condition was false");
    log(true, name);
  } catch (err) {
    log(false, name, err?.message ?? err);
  }
}

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

async function idle(page) {
  await page.waitForFunction(() => document.body.dataset.busy === "0", null, {
    timeout: STEP_TIMEOUT,
  });
}

async function setConfig(page, values) {
  for (const [key, value] of Object.entries(values)) {
    await page.getByLabel(key, { exact: true }).fill(String(value));
  }
}

/** The outcome cards as plain data. */
function cards(page) {
  return page.$$eval("#outcome .card", (nodes) =>
    nodes.map((c) => ({
      tool: c.querySelector(".card-title").textContent,
      kind: c.dataset.kind,
      reason: c.dataset.reason,
      badge: c.querySelector("[data-testid=reason]").textContent,
      output: c.querySelector("pre").textContent,
    })),
  );
}

async function externalizeSample(page, button, expectKind) {
  await page.getByRole("button", { name: button, exact: true }).click();
  await idle(page);
  const size = await page.locator("#output-size").textContent();
  assert(!size.startsWith("0 "), `sample not loaded (${size})`);
  await page.getByRole("button", { name: "Externalize", exact: true }).click();
  await idle(page);
  const list = await cards(page);
  assert(list.length === 1, `expected 1 result card, got ${list.length}`);
  const [card] = list;
  assert(card.kind === expectKind, `kind ${JSON.stringify(card.kind)}, expected ${expectKind}`);
  assert(card.reason === "single_threshold", `reason ${JSON.stringify(card.reason)}`);
  assert(
    card.output.startsWith(STUB_HEADER),
    `stub starts with ${JSON.stringify(card.output.slice(0, 60))}`,
  );
  assert(card.output.includes(`\nkind: ${expectKind}\n`), `stub has no "kind: ${expectKind}" line`);
  assert(
    /\nref: viking:\/\/user\/default\/sessions\/demo\/tool-results\/tr_/.test(card.output),
    "stub has no ref line",
  );
}

async function main() {
  await fs.mkdir(OUT_DIR, { recursive: true });
  const server = await serve(0);
  const url = `http://127.0.0.1:${server.address().port}/www/`;
  const dialogs = [];
  let browser;
  try {
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(STEP_TIMEOUT);
    page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
    page.on("console", (msg) => {
      if (msg.type() === "error") problems.push(`console error: ${msg.text()}`);
    });
    page.on("response", (r) => {
      if (r.status() >= 400) problems.push(`HTTP ${r.status()} for ${r.url()}`);
    });
    page.on("requestfailed", (r) => problems.push(`request failed: ${r.url()}`));
    // Enhanced mode's module is fetched only when enhanced synopses are asked for.
    const enhancedFetches = [];
    page.on("request", (r) => {
      if (r.url().includes("tool_stub_enhanced_bg.wasm")) enhancedFetches.push(r.url());
    });
    page.on("dialog", async (d) => {
      dialogs.push(`${d.type()}: ${d.message()}`);
      await d.dismiss().catch(() => {});
    });

    await check("page loads the browser build and lists an empty session", async () => {
      await page.goto(url);
      await page.waitForFunction(
        () => ["ready", "error"].includes(document.body.dataset.state),
        null,
        { timeout: 30_000 },
      );
      const state = await page.evaluate(() => document.body.dataset.state);
      assert(
        state === "ready",
        `page state ${state}: ${await page.locator("#global-error").textContent()}`,
      );
      assert(
        (await page.locator("#session-count").textContent()) === "0 stored results",
        "session not empty",
      );
    });

    await setConfig(page, { thresholdChars: 1000 });

    await check("orders.json sample goes out as kind json with its stub shown", () =>
      externalizeSample(page, "orders.json", "json"),
    );
    await check("sales.csv sample goes out as kind csv with its stub shown", () =>
      externalizeSample(page, "sales.csv", "csv"),
    );
    await check("worker.log sample goes out as kind text with its stub shown", () =>
      externalizeSample(page, "worker.log", "text"),
    );

    await check("original vs stub size and the chars-saved bar are shown", async () => {
      const stats = await page.locator("#outcome .stats").textContent();
      assert(/Original174,203 chars/.test(stats), `stats: ${stats}`);
      assert(/Saved1\d\d,\d\d\d chars/.test(stats), `stats: ${stats}`);
      const rows = await page.locator("#chart-list .chart-row").count();
      assert(rows === 1, `${rows} chart rows`);
      assert(
        /saved [\d,]+ \(\d/.test(await page.locator("#chart-list .chart-value").textContent()),
        "no saved value",
      );
    });

    await check("list shows the three stored results", async () => {
      const tools = await page.$$eval("#results-body .row-tool", (n) =>
        n.map((x) => x.textContent).sort(),
      );
      assert(
        JSON.stringify(tools) === JSON.stringify(["list_orders", "sales_report", "tail_log"]),
        `tools: ${tools}`,
      );
    });

    await check(
      "paged read: Next and Previous move the offset and change the content",
      async () => {
        await page.getByRole("button", { name: /list_orders/ }).click();
        await idle(page);
        await page.getByLabel("Limit", { exact: true }).first().fill("500");
        await page.getByRole("button", { name: "Read", exact: true }).click();
        await idle(page);
        const first = await page.locator("#read-content").textContent();
        assert(first.startsWith('{\n  "object": "list"'), `first window: ${first.slice(0, 40)}`);
        assert((await page.getByLabel("Offset").inputValue()) === "0", "offset not 0");
        assert(await page.locator("#read-prev").isDisabled(), "Previous enabled at offset 0");
        await page.getByRole("button", { name: "Next" }).click();
        await idle(page);
        const second = await page.locator("#read-content").textContent();
        assert(
          (await page.getByLabel("Offset").inputValue()) === "500",
          "offset after Next not 500",
        );
        assert(second !== first && second.length === 500, "content did not change");
        assert(
          (await page.locator("#read-status").textContent()).includes("500–1,000 of 140,151"),
          "status",
        );
        await page.getByRole("button", { name: "Previous" }).click();
        await idle(page);
        assert(
          (await page.getByLabel("Offset").inputValue()) === "0",
          "offset after Previous not 0",
        );
        assert(
          (await page.locator("#read-content").textContent()) === first,
          "content after Previous differs",
        );
      },
    );

    await check("search shows snippets with the hit highlighted in a <mark>", async () => {
      await page.getByLabel("Query").fill("Lyon");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      await idle(page);
      const hits = await page.locator("#search-results .search-hit").count();
      assert(hits === 10, `${hits} hits (limit 10)`);
      const marks = await page.$$eval("#search-results mark", (m) => m.map((x) => x.textContent));
      assert(
        marks.length >= hits && marks.every((t) => t === "Lyon"),
        `marks: ${marks.slice(0, 3)}`,
      );
    });

    await check("regex + ignore-case search and a numbered line read", async () => {
      await page.getByLabel("Query").fill("lyo.");
      await page.getByLabel("Regex", { exact: true }).check();
      await page.getByLabel("Ignore case").check();
      await page.getByRole("button", { name: "Search", exact: true }).click();
      await idle(page);
      const marks = await page.$$eval("#search-results mark", (m) => m.map((x) => x.textContent));
      assert(marks.length > 0 && marks.every((t) => t === "Lyon"), `marks: ${marks.slice(0, 3)}`);
      assert((await page.locator("#search-status").textContent()).includes("for “lyo.”"), "status");
      await page.getByLabel("Regex", { exact: true }).uncheck();
      await page.getByLabel("Ignore case").uncheck();
      await page.getByLabel("Mode", { exact: true }).selectOption("lines");
      await page.getByLabel("From", { exact: true }).fill("2");
      await page.getByRole("button", { name: "Read structured" }).click();
      await idle(page);
      const content = await page.locator("#structured-content").textContent();
      assert(content.startsWith("     2\t"), `structured read: ${content.slice(0, 40)}`);
      assert(
        (await page.locator("#structured-status").textContent()).startsWith("lines 2–"),
        "structured status",
      );
    });

    await check("a ToolStubError is shown as text (empty search query)", async () => {
      await page.getByLabel("Query").fill("");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      await idle(page);
      const text = await page.locator("#search-error").textContent();
      assert(await page.locator("#search-error").isVisible(), "error not visible");
      assert(text.startsWith("INVALID_ARGUMENT:"), `error text: ${text}`);
    });

    await page.screenshot({ path: path.join(OUT_DIR, "demo-1280x800.png") });
    await page.screenshot({ path: path.join(OUT_DIR, "demo-1280-full.png"), fullPage: true });

    await check("after a reload the list still has the three results", async () => {
      await page.reload();
      await page.waitForFunction(() => document.body.dataset.state === "ready", null, {
        timeout: 30_000,
      });
      const rows = await page.locator("#results-body tr").count();
      assert(rows === 3, `${rows} rows`);
      assert((await page.locator("#session-count").textContent()) === "3 stored results", "count");
      assert(
        (await page.getByLabel("thresholdChars", { exact: true }).inputValue()) === "1000",
        "config not kept",
      );
    });

    await check(
      "turn mode: one externalize call; reasons single_threshold, turn_budget and inline",
      async () => {
        await setConfig(page, { thresholdChars: 70000, assistantTurnInlineBudgetChars: 50000 });
        await page.getByRole("button", { name: "orders.json" }).click();
        await idle(page);
        await page.getByRole("button", { name: "Add to turn" }).click();
        await page.getByRole("button", { name: "sales.csv" }).click();
        await idle(page);
        await page.getByRole("button", { name: "Add to turn" }).click();
        await page.getByLabel("Tool name", { exact: true }).fill("get_status");
        await page.getByLabel("MIME type").selectOption("application/json");
        await page.getByLabel("Output", { exact: true }).fill('{"status": "ok", "queue": 3}');
        await page.getByRole("button", { name: "Add to turn" }).click();
        await idle(page);
        assert((await page.locator("#turn-list li").count()) === 3, "3 outputs queued");
        await page.getByRole("button", { name: /Externalize turn/ }).click();
        await idle(page);
        const list = await cards(page);
        const got = list.map((c) => `${c.tool}:${c.reason || "inline"}`).join(", ");
        assert(
          got === "list_orders:single_threshold, sales_report:turn_budget, get_status:inline",
          got,
        );
        assert(list[2].output === '{"status": "ok", "queue": 3}', "inline part not raw");
        assert(list[2].badge === "inline" && list[1].badge === "turn_budget", "badges");
        const groups = await page.locator("#outcome-summary").textContent();
        assert(/^3 outputs in message msg_\w+: 2 externalized, 1 kept inline/.test(groups), groups);
        assert((await page.locator("#chart-list .chart-row").count()) === 3, "chart rows");
        assert((await page.locator("#turn-list li").count()) === 0, "turn not cleared");
      },
    );
    await page.locator("#outcome-title").scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(OUT_DIR, "demo-turn-1280-full.png"), fullPage: true });

    await check("hostile output externalized with threshold 0 shows as text", async () => {
      await setConfig(page, { thresholdChars: 0, assistantTurnInlineBudgetChars: 100000 });
      await page.getByLabel("Tool name", { exact: true }).fill("<b>fetch</b>");
      await page.getByLabel("MIME type").selectOption("text/html");
      await page.getByLabel("Output", { exact: true }).fill(HOSTILE);
      await page.getByRole("button", { name: "Externalize", exact: true }).click();
      await idle(page);
      const [card] = await cards(page);
      assert(
        card.reason === "single_threshold" && card.output.startsWith(STUB_HEADER),
        `reason ${card.reason}`,
      );
      assert(card.tool === "<b>fetch</b>", `title ${card.tool}`);
      assert(
        (await page.locator("#read-content").textContent()) === HOSTILE,
        "read window does not show the raw text",
      );
      const rowTools = await page.$$eval("#results-body .row-tool", (n) =>
        n.map((x) => x.textContent),
      );
      assert(rowTools.includes("<b>fetch</b>"), "list does not show the tool name as text");
    });

    await check("hostile output kept inline (raw) shows as text", async () => {
      await setConfig(page, { thresholdChars: 20000 });
      await page.getByRole("button", { name: "Externalize", exact: true }).click();
      await idle(page);
      const [card] = await cards(page);
      assert(
        card.reason === "" && card.output === HOSTILE,
        `reason ${JSON.stringify(card.reason)} output ${card.output}`,
      );
      const visible = await page.getByText(HOSTILE, { exact: true }).first().isVisible();
      assert(visible, "hostile text not visible");
    });

    await check("no <img> or <b> element was created and no dialog fired", async () => {
      await page.waitForTimeout(300);
      const imgs = await page.locator("img").count();
      const bolds = await page.locator("main b").count();
      assert(imgs === 0, `${imgs} img elements`);
      assert(bolds === 0, `${bolds} b elements`);
      assert(dialogs.length === 0, `dialogs: ${dialogs.join("; ")}`);
    });

    await check(
      "keyboard: Tab reaches the controls in order, with a visible focus ring",
      async () => {
        // A fresh load, so that sequential focus navigation starts at the top of the document.
        await page.reload();
        await page.waitForFunction(() => document.body.dataset.state === "ready", null, {
          timeout: 30_000,
        });
        const order = [];
        for (let i = 0; i < 8; i++) {
          await page.keyboard.press("Tab");
          order.push(
            await page.evaluate(() => {
              const a = document.activeElement;
              const s = getComputedStyle(a);
              return {
                id: a.id || a.textContent.trim().slice(0, 20),
                outline: s.outlineStyle !== "none" && parseFloat(s.outlineWidth) > 0,
              };
            }),
          );
        }
        const ids = order.map((o) => o.id);
        const want = [
          "Skip to content",
          "clear-session",
          "orders.json",
          "sales.csv",
          "worker.log",
          "tool-name",
          "mime-type",
          "tool-output",
        ];
        assert(JSON.stringify(ids) === JSON.stringify(want), `tab order: ${ids.join(", ")}`);
        assert(
          order.every((o) => o.outline),
          `no focus outline on: ${order.filter((o) => !o.outline).map((o) => o.id)}`,
        );
        // Enter on a focused sample button loads it.
        await page.getByRole("button", { name: "worker.log" }).focus();
        await page.keyboard.press("Enter");
        await idle(page);
        assert(
          (await page.getByLabel("Tool name", { exact: true }).inputValue()) === "tail_log",
          "Enter did not load the sample",
        );
      },
    );

    await check("file input loads a local file as the output", async () => {
      await page.locator("#file-input").setInputFiles({
        name: "notes.md",
        mimeType: "text/markdown",
        buffer: Buffer.from("# Notes\n\n- one\n- two\n"),
      });
      await idle(page);
      assert(
        (await page.getByLabel("Output", { exact: true }).inputValue()) ===
          "# Notes\n\n- one\n- two\n",
        "file not loaded",
      );
      assert((await page.getByLabel("MIME type").inputValue()) === "text/markdown", "mime not set");
    });

    await check("reference mode never fetched enhanced mode's module", () =>
      assert(enhancedFetches.length === 0, `fetched: ${enhancedFetches.join(", ")}`),
    );

    // A log the session holds no record of (a stored record's synopsis would be reused).
    const appLog = Array.from(
      { length: 600 },
      (_, i) =>
        `2026-12-01T10:${String(Math.floor(i / 60)).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}Z ${i % 50 === 7 ? "ERROR" : "INFO"} api request ${i} served`,
    ).join("\n");

    await check(
      "before loadEnhancedMode(), synopsis() with synopsisMode enhanced throws NOT_READY naming it",
      async () => {
        const answer = await page.evaluate(async (log) => {
          const api = await import("/pkg/js/browser.js");
          try {
            api.synopsis(log, { synopsisMode: "enhanced" });
            return "no error";
          } catch (error) {
            return { code: error.code, message: error.message, reference: api.synopsis(log).kind };
          }
        }, appLog);
        assert(
          answer.code === "NOT_READY" && /await loadEnhancedMode\(\)/.test(answer.message),
          JSON.stringify(answer),
        );
        assert(answer.reference === "text", `reference mode still works: ${answer.reference}`);
        assert(enhancedFetches.length === 0, "the synchronous call fetched the module");
      },
    );

    await check(
      "enhanced synopses toggle: a log goes out as kind log, fetching enhanced mode's module once",
      async () => {
        await setConfig(page, { thresholdChars: 1000 });
        await page.getByLabel("enhanced synopses").check();
        await page.getByLabel("Tool name", { exact: true }).fill("tail_api");
        await page.getByLabel("MIME type").selectOption("text/plain");
        await page.getByLabel("Output", { exact: true }).fill(appLog);
        await page.getByRole("button", { name: "Externalize", exact: true }).click();
        await idle(page);
        const [card] = await cards(page);
        assert(
          card.kind === "log" && card.output.includes("\nkind: log\n"),
          `kind ${card.kind}: ${card.output.slice(0, 200)}`,
        );
        assert(/ERROR 12/.test(card.output), `no level counts: ${card.output}`);
        assert(enhancedFetches.length === 1, `fetched ${enhancedFetches.length} times`);
      },
    );

    await check(
      "after await loadEnhancedMode(), synopsis() with synopsisMode enhanced works",
      async () => {
        const kind = await page.evaluate(async (log) => {
          const api = await import("/pkg/js/browser.js");
          await api.loadEnhancedMode();
          return api.synopsis(log, { synopsisMode: "enhanced" }).kind;
        }, appLog);
        assert(kind === "log", `kind ${kind}`);
        await page.getByLabel("enhanced synopses").uncheck();
      },
    );

    // Re-run the orders sample at a low threshold so both screenshots show a stub.
    await setConfig(page, { thresholdChars: 1000 });
    await page.getByRole("button", { name: "orders.json" }).click();
    await idle(page);
    await page.getByRole("button", { name: "Externalize", exact: true }).click();
    await idle(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(OUT_DIR, "demo-1280x800.png") });
    await page.screenshot({ path: path.join(OUT_DIR, "demo-1280-full.png"), fullPage: true });

    await check("context governor: a replayed conversation with a gauge per step", async () => {
      await page.getByRole("button", { name: "Replay the conversation" }).click();
      await page.waitForFunction(() => document.body.dataset.busy === "0", null, {
        timeout: 120_000,
      });
      const error = await page.locator("#context-error").textContent();
      assert(error === "", `error shown: ${error}`);
      const steps = await page.$$eval("#context-steps tbody tr", (rows) =>
        rows.map((r) => ({ without: Number(r.dataset.without), with: Number(r.dataset.with) })),
      );
      assert(steps.length === 30, `${steps.length} steps shown`);
      const last = steps.at(-1);
      assert(last.without > 32_000, `without the governor ${last.without} tokens at the end`);
      assert(
        steps.every((s) => s.with <= 32_000),
        `with the governor over the window: ${steps.map((s) => s.with).join(", ")}`,
      );
      const saved = await page.locator("#context-saved").textContent();
      assert(/saved \(\d+%\)/.test(saved), `tokens saved: ${JSON.stringify(saved)}`);
    });

    await check("context governor: a cleared result opens into read and search", async () => {
      const items = page.locator("#context-cleared li");
      assert((await items.count()) >= 3, `${await items.count()} cleared results listed`);
      const first = items.first();
      const text = await first.locator(".cleared-text").textContent();
      assert(/ref: viking:\/\//.test(text), `no ref in ${JSON.stringify(text.slice(0, 80))}`);
      await first.getByRole("button", { name: "Read", exact: true }).click();
      await idle(page);
      await page.waitForFunction(
        () => !document.querySelector("#context-cleared li .cleared-content").hidden,
      );
      const content = await first.locator(".cleared-content").textContent();
      assert(/chars stored\)$/.test(content), `read shows ${JSON.stringify(content.slice(-60))}`);
      const word = content.match(/[A-Za-z]{5,}/)?.[0];
      assert(word, "a word to search for");
      await first.getByRole("searchbox").fill(word);
      await first.getByRole("button", { name: "Search", exact: true }).click();
      await page.waitForFunction(
        (w) =>
          document
            .querySelector("#context-cleared li .cleared-content")
            .textContent.includes(`: `) &&
          document.querySelector("#context-cleared li .cleared-content").textContent.includes(w) &&
          !document
            .querySelector("#context-cleared li .cleared-content")
            .textContent.endsWith("chars stored)"),
        word,
      );
      const found = await first.locator(".cleared-content").textContent();
      assert(/^@\d+: /.test(found), `search shows ${JSON.stringify(found.slice(0, 80))}`);
    });

    await check("narrow window (420x800): no horizontal overflow", async () => {
      await page.setViewportSize({ width: 420, height: 800 });
      await page.waitForTimeout(100);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      assert(overflow <= 0, `page is ${overflow}px wider than the window`);
      await page.screenshot({ path: path.join(OUT_DIR, "demo-420x800.png") });
      await page.screenshot({ path: path.join(OUT_DIR, "demo-420-full.png"), fullPage: true });
    });

    await context.close();
  } catch (err) {
    problems.push(`runner: ${err.message}`);
  } finally {
    await browser?.close();
    server.close();
  }

  const pageChecks = results.length;
  log(
    problems.length === 0,
    "no page errors, console errors or failed requests",
    problems.join("\n"),
  );
  const failed = results.filter((r) => !r.ok).length;
  if (pageChecks === 0) console.log("# no page check ran");
  console.log(`${results.length - failed} passed, ${failed} failed`);
  process.exitCode = failed > 0 || pageChecks === 0 ? 1 : 0;
}

await main();
