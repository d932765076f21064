// The grep module in headless Chromium: the browser build fetches and instantiates it on the
// first regex/ignoreCase/wholeWord search, with Unicode semantics. Also reports (not a check yet)
// the longest main-thread task of a search over a 100 MB output: issue 16 wants <= 100 ms, which
// needs the search chunked or in a worker. Prints one line per check and `N passed, N failed`.
import { checkList, launchChromium } from "./harness.mjs";
import { serve } from "../../www/serve.mjs";

const { check, report } = checkList();

const server = await serve(0);
const url = `http://127.0.0.1:${server.address().port}/tests/browser/grep.html`;
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(url);
  await page.waitForFunction(() => window.ready === true);
  const found = await page.evaluate(() => window.unicodeSearches());
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  check("ignoreCase folds Unicode case in the browser build", same(found.ignoreCase, ["ÉCOLE", "école"]), JSON.stringify(found.ignoreCase));
  check("wholeWord: an ideograph is a word char", same(found.wholeWord, ["本"]), JSON.stringify(found.wholeWord));
  check("\\p{Han} and Unicode \\w", same(found.han, ["日本語", "本", "中文"]) && same(found.word, ["café", "cafe"]), JSON.stringify([found.han, found.word]));
  check("preloadGrep resolves", found.preload === "ok");
  const big = await page.evaluate(() => window.longestTaskDuringSearch(100));
  check("a search over 100 MB finds the match at its end", big.totalMatches === 1, JSON.stringify(big));
  console.log(`info - longest main-thread task during that search: ${big.longest.toFixed(0)} ms (issue 16 target <= 100 ms: ${big.longest <= 100 ? "met" : "not met yet"})`);
  check("no page errors", errors.length === 0, errors.join("; "));
} catch (error) {
  check("run", false, String(error?.stack ?? error));
} finally {
  await browser.close();
  server.close();
}
report();
