// The grep module in headless Chromium: the browser build runs regex/ignoreCase/wholeWord searches
// in a search worker (js/search-worker.js), which loads the grep module on the first such search,
// with Unicode semantics. A search over a 100 MB output (in MemoryStore, and in IndexedDbStore,
// whose pieces go to the worker unjoined) must never hold the main thread for more
// than 100 ms at a stretch (a long-task observer watches it) and find the match a test
// computes from the text. A second page, whose worker script the runner blocks, searches on the
// main thread (the fallback): its answers to many searches must equal the worker's, and its
// longest task is reported for comparison. Prints one line per check and `N passed, N failed`.
import { checkList, launchChromium } from "./harness.mjs";
import { serve } from "../../www/serve.mjs";

const { check, report } = checkList();
const LONG_TASK_LIMIT_MS = 100;

const server = await serve(0);
const url = `http://127.0.0.1:${server.address().port}/tests/browser/grep.html`;
const browser = await launchChromium();
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** A fresh page of grep.html; `blockWorker` makes the search worker's script fail to load. */
async function openPage(blockWorker) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  if (blockWorker) await context.route("**/search-worker.js", (route) => route.abort());
  await page.goto(url);
  await page.waitForFunction(() => window.ready === true);
  return { page, errors };
}

const ms = (n) => `${n.toFixed(0)} ms`;

try {
  const worker = await openPage(false);
  const found = await worker.page.evaluate(() => window.unicodeSearches());
  check(
    "ignoreCase folds Unicode case in the browser build",
    same(found.ignoreCase, ["ÉCOLE", "école"]),
    JSON.stringify(found.ignoreCase),
  );
  check(
    "wholeWord: an ideograph is a word char",
    same(found.wholeWord, ["本"]),
    JSON.stringify(found.wholeWord),
  );
  check(
    "\\p{Han} and Unicode \\w",
    same(found.han, ["日本語", "本", "中文"]) && same(found.word, ["café", "cafe"]),
    JSON.stringify([found.han, found.word]),
  );
  check("preloadGrep resolves", found.preload === "ok");

  // A case-sensitive wholeWord search: the grep module's engine with a literal prefilter, so the
  // engine's own time stays far below its 400 ms budget on a loaded machine and the answer is
  // whole; an ignoreCase one (a lazy DFA over every byte) is timed too, for the record.
  const WHOLE_WORD = { query: "ERROR", wholeWord: true };
  const IGNORE_CASE = { query: "error", ignoreCase: true, wholeWord: true };
  const expected = await worker.page.evaluate(() => window.prepareBig(100));
  const thread = await worker.page.evaluate(() => window.preloadGrepResult());
  check("searches run in the search worker", thread.thread === "worker", JSON.stringify(thread));
  // A long task can also be the machine's other load stopping the page's process (this shared
  // 2-core machine runs several suites at once): up to three attempts, each sending the 100 MB
  // anew; the main-thread search this replaced blocked for 0.7-2 s every time.
  const attempts = [];
  while (attempts.length < 3 && !attempts.some((a) => a.longest <= LONG_TASK_LIMIT_MS)) {
    attempts.push(await worker.page.evaluate((o) => window.searchBig(o, true), WHOLE_WORD));
  }
  const big = attempts.at(-1);
  check(
    "a wholeWord search over 100 MB (in the worker) finds the match on its last line",
    attempts.every((a) => same(a.matches, [expected]) && a.totalMatches === 1),
    JSON.stringify(big.matches.map(({ snippet, ...m }) => m)),
  );
  check(
    `no main-thread task over ${LONG_TASK_LIMIT_MS} ms during that search`,
    big.longest <= LONG_TASK_LIMIT_MS,
    attempts.map((a) => `longest ${ms(a.longest)}, search ${ms(a.totalMs)}`).join("; "),
  );
  const ignoreCase = await worker.page.evaluate((o) => window.searchBig(o, false), IGNORE_CASE);
  const literal = await worker.page.evaluate(() => window.searchBig({ query: "ERROR" }, true));
  check(
    "a literal search over 100 MB finds it too",
    same(literal.matches, [expected]),
    String(literal.totalMatches),
  );
  check(
    `no main-thread task over ${LONG_TASK_LIMIT_MS} ms during the literal search`,
    literal.longest <= LONG_TASK_LIMIT_MS,
    `longest ${ms(literal.longest)}, search ${ms(literal.totalMs)}`,
  );

  // The same output in IndexedDbStore: its 1 M-char pieces go to the worker as they are (joining
  // them into one string on the main thread was a 110-160 ms task). Same retry policy.
  await worker.page.evaluate(() => window.prepareBig(100, true));
  const idbAttempts = [];
  while (idbAttempts.length < 3 && !idbAttempts.some((a) => a.longest <= LONG_TASK_LIMIT_MS)) {
    idbAttempts.push(await worker.page.evaluate((o) => window.searchBig(o, true), WHOLE_WORD));
  }
  const fromIndexedDb = idbAttempts.at(-1);
  check(
    "the 100 MB search from IndexedDbStore finds the match too",
    idbAttempts.every((a) => same(a.matches, [expected]) && a.totalMatches === 1),
    JSON.stringify(fromIndexedDb.matches.map(({ snippet, ...m }) => m)),
  );
  check(
    `no main-thread task over ${LONG_TASK_LIMIT_MS} ms during the search from IndexedDbStore`,
    fromIndexedDb.longest <= LONG_TASK_LIMIT_MS,
    idbAttempts.map((a) => `longest ${ms(a.longest)}, search ${ms(a.totalMs)}`).join("; "),
  );

  const inWorker = await worker.page.evaluate(() => window.paritySearches());
  const inWorkerFromIndexedDb = await worker.page.evaluate(() => window.paritySearches(true));
  check("no page errors (worker)", worker.errors.length === 0, worker.errors.join("; "));

  // A search worker that throws outside a call (its state unknown) is ended and replaced.
  const [searchWorker] = worker.page.workers();
  const ended = new Promise((resolve) => searchWorker.once("close", () => resolve(true)));
  await searchWorker.evaluate(
    () =>
      void setTimeout(() => {
        throw new Error("a failure the runner causes");
      }),
  );
  const replaced = await Promise.race([
    ended,
    new Promise((resolve) => setTimeout(() => resolve(false), 10_000)),
  ]);
  const afterCrash = await worker.page.evaluate(async () => ({
    found: await window.unicodeSearches(),
    thread: await window.preloadGrepResult(),
  }));
  check(
    "a search worker that fails is ended, and the next search runs in a new one",
    replaced &&
      afterCrash.thread.thread === "worker" &&
      same(afterCrash.found.ignoreCase, ["ÉCOLE", "école"]) &&
      worker.page.workers().length === 1 &&
      worker.page.workers()[0] !== searchWorker,
    JSON.stringify({ replaced, thread: afterCrash.thread, workers: worker.page.workers().length }),
  );
  await worker.page.context().close();

  const fallback = await openPage(true);
  const fallbackThread = await fallback.page.evaluate(() => window.preloadGrepResult());
  check(
    "a worker whose script cannot load: searches run on the main thread, saying why",
    fallbackThread.thread === "main" && typeof fallbackThread.workerUnavailable === "string",
    JSON.stringify(fallbackThread),
  );
  const onMain = await fallback.page.evaluate(() => window.paritySearches());
  const differing = inWorker.filter((answer, i) => !same(answer, onMain[i]));
  check(
    `${inWorker.length} searches (every mode, kinds with hit coordinates, outputs from 1 KB to 3 MB, searchAll, a bad regex) answer the same in the worker and on the main thread`,
    inWorker.length === onMain.length &&
      differing.length === 0 &&
      inWorker.some((a) => a.error) &&
      inWorker.some((a) => a.matches?.some((m) => m.row !== undefined)) &&
      inWorker.some((a) => a.matches?.some((m) => m.jsonPointer !== undefined)),
    differing.length ? JSON.stringify(differing[0]).slice(0, 400) : "",
  );
  const differingFromIndexedDb = inWorkerFromIndexedDb.filter(
    (answer, i) => !same(answer, onMain[i]),
  );
  check(
    "the same searches of outputs in IndexedDbStore pieces (sent to the worker unjoined) answer as on the main thread",
    inWorkerFromIndexedDb.length === onMain.length && differingFromIndexedDb.length === 0,
    differingFromIndexedDb.length ? JSON.stringify(differingFromIndexedDb[0]).slice(0, 400) : "",
  );
  await fallback.page.evaluate(() => window.prepareBig(100));
  const mainBig = await fallback.page.evaluate((o) => window.searchBig(o, true), WHOLE_WORD);
  const mainIgnoreCase = await fallback.page.evaluate(
    (o) => window.searchBig(o, false),
    IGNORE_CASE,
  );
  check(
    "on the main thread, the 100 MB search finds the same match",
    same(mainBig.matches, [expected]),
  );
  const line = (what, run) =>
    `${what}: longest main-thread task ${ms(run.longest)}, search ${ms(run.totalMs)}`;
  console.log(
    `info - 100 MB, wholeWord "ERROR" (text sent over): ${line("worker", big)}; ${line("main thread", mainBig)}`,
  );
  console.log(
    `info - 100 MB, ignoreCase+wholeWord "error" (text already there): ${line("worker", ignoreCase)}; ${line("main thread", mainIgnoreCase)}`,
  );
  console.log(
    `info - 100 MB, literal "ERROR" (JS indexOf, worker page): ${line("main thread", literal)}`,
  );
  console.log(
    `info - 100 MB in IndexedDbStore, wholeWord "ERROR": ${line("worker", fromIndexedDb)}`,
  );
  check("no page errors (main thread)", fallback.errors.length === 0, fallback.errors.join("; "));
} catch (error) {
  check("run", false, String(error?.stack ?? error));
} finally {
  await browser.close();
  server.close();
}
report();
