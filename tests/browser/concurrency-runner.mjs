// Two pages of the same origin externalize 200 outputs each (every 4th identical in both) into one
// IndexedDB database at once, in headless Chromium; nothing may be lost or duplicated.
// Prints one line per check and `N passed, N failed`.
import { checkList, launchChromium } from "./harness.mjs";
import { serve } from "../../www/serve.mjs";

const { check, report } = checkList();

const server = await serve(0);
const url = `http://127.0.0.1:${server.address().port}/tests/browser/concurrency.html`;
const browser = await launchChromium();
try {
  const context = await browser.newContext();
  const pages = [await context.newPage(), await context.newPage()];
  const errors = [];
  for (const page of pages) {
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(url);
    await page.waitForFunction(() => window.ready === true);
  }
  const counts = await Promise.all(
    pages.map((page, i) =>
      page.evaluate((name) => window.externalizeMany(name, 200), i === 0 ? "a" : "b"),
    ),
  );
  check(
    "both pages externalized 200 outputs each",
    counts[0] === 200 && counts[1] === 200,
    JSON.stringify(counts),
  );
  const ids = await pages[0].evaluate(() => window.listAndVerify());
  check(
    "one stored result per distinct output (50 shared + 150 + 150)",
    ids.length === 350,
    `${ids.length}`,
  );
  check("no duplicated ids", new Set(ids).size === ids.length);
  const again = await pages[1].evaluate(() => window.listAndVerify());
  check(
    "the other page sees the same results, all verified",
    JSON.stringify(again) === JSON.stringify(ids),
  );
  check("no page errors", errors.length === 0, errors.join("; "));
} catch (error) {
  check("run", false, String(error?.stack ?? error));
} finally {
  await browser.close();
  server.close();
}
report();
