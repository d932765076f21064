// Test runners and compiler/linter diagnostics, in each tool's documented console format: go test
// -v, jest, vitest, pytest, Maven Surefire (JUnit), cargo test, mocha; gcc, clang, rustc, tsc,
// eslint (stylish), go vet, mypy, cargo build. Facts: failing tests, pass/fail totals, the first
// diagnostic's file:line and message, error and warning counts.

import { countRe, esc, factsFor, rng, seedOf, join } from "../lib.mjs";

const FAMILY = "build";

function entry(file, format, toolName, content, facts, kind = "build_output") {
  return { file, format, family: FAMILY, toolName, mimeType: undefined, kind, content, facts };
}

const WORDS = [
  "refund",
  "invoice",
  "ledger",
  "tax",
  "cart",
  "quota",
  "export",
  "webhook",
  "session",
  "coupon",
];

/** Test names with `failing` of them failing (never among the first five). */
function planTests(r, n, failing, name) {
  const tests = [];
  const fails = new Set();
  const from = Math.min(5, n - failing);
  while (fails.size < failing) fails.add(r.int(from, n - 1));
  for (let i = 0; i < n; i++)
    tests.push({ name: name(r, i), fail: fails.has(i), ms: r.int(0, 900) });
  return tests;
}

function goTest(file, seed, pkgs, failing) {
  const r = rng(seedOf(file) + seed);
  const out = [];
  let passed = 0;
  const failed = [];
  for (const [p, pkg] of pkgs.entries()) {
    const tests = planTests(
      r,
      30,
      p === 0 ? failing : 0,
      (rr, i) =>
        `Test${WORDS[i % WORDS.length][0].toUpperCase()}${WORDS[i % WORDS.length].slice(1)}${rr.pick(["Rejects", "Handles", "Applies", "Rounds"])}${rr.pick(["Negative", "Empty", "Overflow", "Duplicate"])}${i}`,
    );
    for (const t of tests) {
      out.push(`=== RUN   ${t.name}`);
      if (t.fail) {
        out.push(
          `    ${t.name.toLowerCase().slice(4, 10)}_test.go:${r.int(20, 300)}: got ${r.int(1, 99)}, want ${r.int(100, 200)}`,
          `--- FAIL: ${t.name} (0.${String(t.ms).padStart(2, "0").slice(0, 2)}s)`,
        );
        failed.push(t.name);
      } else {
        out.push(`--- PASS: ${t.name} (0.${String(t.ms).padStart(2, "0").slice(0, 2)}s)`);
        passed++;
      }
    }
    if (p === 0 && failing)
      out.push("FAIL", `FAIL\tgithub.com/acme/${pkg}\t${r.int(1, 9)}.${r.int(100, 999)}s`);
    else out.push("PASS", `ok  \tgithub.com/acme/${pkg}\t${r.int(0, 3)}.${r.int(100, 999)}s`);
  }
  if (failing) out.push("FAIL");
  const F = factsFor(file);
  F.has("failing", `failing test ${failed[0]}`, [failed[0]], `^--- FAIL: ${failed[0]} `);
  F.re(
    "failed",
    `${failing} tests failed`,
    countRe(failing, ["failed", "FAIL", "failing", "failures"]),
    "^--- FAIL: ",
    { evidenceCount: failing },
  );
  F.re(
    "passed",
    `${passed} tests passed`,
    countRe(passed, ["passed", "PASS", "passing"]),
    "^--- PASS: ",
    { evidenceCount: passed },
  );
  F.has(
    "pkg",
    `package github.com/acme/${pkgs[0]} failed`,
    [`acme/${pkgs[0]}`],
    `^FAIL\\tgithub\\.com/acme/${esc(pkgs[0])}\\t`,
  );
  return entry(file, "go-test-v", "go", join(out), F.list);
}

function jestLike(file, seed, suites, failing, vitest) {
  const r = rng(seedOf(file) + seed);
  const out = [];
  const failed = [];
  let passed = 0;
  let failedSuites = 0;
  const names = [];
  for (let s = 0; s < suites; s++) {
    const path = `src/${r.pick(["billing", "cart", "auth", "search"])}/${r.word(6)}.test.ts`;
    const tests = planTests(
      r,
      r.int(6, 14),
      s === 1 ? failing : 0,
      (rr, i) =>
        `${rr.pick(["computes", "rejects", "formats", "retries"])} ${rr.pick(WORDS)} ${rr.pick(["totals", "payloads", "dates", "headers"])} ${i}`,
    );
    const bad = tests.some((t) => t.fail);
    if (bad) failedSuites++;
    names.push(path);
    if (vitest)
      out.push(
        ` ${bad ? "❯" : "✓"} ${path} (${tests.length} tests${bad ? ` | ${tests.filter((t) => t.fail).length} failed` : ""}) ${r.int(5, 900)}ms`,
      );
    else
      out.push(
        `${bad ? "FAIL" : "PASS"} ${path}${bad ? "" : ` (${r.int(1, 9)}.${r.int(100, 999)} s)`}`,
      );
    for (const t of tests) {
      if (t.fail) failed.push({ suite: path, name: t.name });
      else passed++;
      if (vitest) {
        out.push(`   ${t.fail ? "×" : "✓"} ${t.name} ${t.ms}ms`);
      } else out.push(`  ${t.fail ? "✕" : "✓"} ${t.name} (${t.ms} ms)`);
    }
  }
  out.push("");
  for (const f of failed) {
    out.push(
      vitest ? ` FAIL  ${f.suite} > ${f.name}` : `  ● ${f.name}`,
      "",
      "    expect(received).toEqual(expected) // deep equality",
      "",
      `    Expected: ${r.int(100, 999)}`,
      `    Received: ${r.int(1, 99)}`,
      "",
      `      at Object.<anonymous> (${f.suite}:${r.int(10, 200)}:${r.int(5, 30)})`,
      "",
    );
  }
  const total = passed + failed.length;
  if (vitest)
    out.push(
      ` Test Files  ${failedSuites} failed | ${suites - failedSuites} passed (${suites})`,
      `      Tests  ${failed.length} failed | ${passed} passed (${total})`,
      `   Start at  10:11:12`,
      `   Duration  ${r.int(2, 40)}.${r.int(10, 99)}s`,
    );
  else
    out.push(
      `Test Suites: ${failedSuites} failed, ${suites - failedSuites} passed, ${suites} total`,
      `Tests:       ${failed.length} failed, ${passed} passed, ${total} total`,
      "Snapshots:   0 total",
      `Time:        ${r.int(2, 40)}.${r.int(100, 999)} s`,
      "Ran all test suites.",
    );
  const F = factsFor(file);
  F.has("failing", `failing test: ${failed[0].name}`, [failed[0].name], esc(failed[0].name));
  F.re(
    "failed",
    `${failed.length} tests failed`,
    countRe(failed.length, ["failed", "failing", "failures"]),
    vitest ? "^   × " : "^  ✕ ",
    { evidenceCount: failed.length },
  );
  F.re(
    "passed",
    `${passed} tests passed`,
    countRe(passed, ["passed", "passing"]),
    vitest ? `\\| ${passed} passed` : `, ${passed} passed`,
  );
  F.re(
    "total",
    `${total} tests in total`,
    countRe(total, ["total", "tests"]),
    vitest ? `\\(${total}\\)$` : `${total} total$`,
  );
  F.has("suite", `the failing suite ${failed[0].suite}`, [failed[0].suite], esc(failed[0].suite));
  return entry(file, vitest ? "vitest" : "jest", "npm", join(out), F.list);
}

function pytest(file, seed, n, failing, verbose) {
  const r = rng(seedOf(file) + seed);
  const files = [
    "tests/test_billing.py",
    "tests/test_ledger.py",
    "tests/api/test_orders.py",
    "tests/api/test_refunds.py",
  ];
  const tests = planTests(
    r,
    n,
    failing,
    (rr, i) =>
      `test_${rr.pick(WORDS)}_${rr.pick(["rejects_negative_qty", "rounds_half_even", "handles_missing_vat", "retries_on_timeout"])}_${i}`,
  );
  for (const t of tests) t.file = r.pick(files);
  const out = [
    "============================= test session starts ==============================",
    "platform linux -- Python 3.12.7, pytest-8.3.3, pluggy-1.5.0",
    "rootdir: /srv/app",
    "configfile: pyproject.toml",
    "plugins: cov-5.0.0, asyncio-0.24.0",
    `collected ${n} items`,
    "",
  ];
  for (const [i, t] of tests.entries()) {
    if (!verbose) break;
    const status = t.fail ? "FAILED" : "PASSED";
    out.push(
      `${`${t.file}::${t.name} ${status}`.padEnd(72)} [${String(Math.round((100 * (i + 1)) / n)).padStart(3)}%]`,
    );
  }
  for (const f of verbose ? [] : files) {
    const mine = tests.filter((t) => t.file === f);
    let line = `${f} `;
    for (const t of mine) line += t.fail ? "F" : ".";
    out.push(
      `${line.padEnd(72)} [${String(Math.round((100 * (files.indexOf(f) + 1)) / files.length)).padStart(3)}%]`,
    );
  }
  out.push("", "=================================== FAILURES ===================================");
  const failed = tests.filter((t) => t.fail);
  for (const t of failed)
    out.push(
      `${"_".repeat(20)} ${t.name} ${"_".repeat(20)}`,
      "",
      `    def ${t.name}():`,
      `>       assert compute_total(order) == Decimal("${r.int(10, 99)}.00")`,
      `E       AssertionError: assert Decimal('${r.int(10, 99)}.50') == Decimal('${r.int(10, 99)}.00')`,
      "",
      `${t.file}:${r.int(10, 300)}: AssertionError`,
    );
  out.push("=========================== short test summary info ============================");
  for (const t of failed)
    out.push(`FAILED ${t.file}::${t.name} - AssertionError: assert Decimal(...)`);
  const passed = n - failed.length;
  out.push(
    `========================= ${failed.length} failed, ${passed} passed in ${r.int(2, 90)}.${pad(r.int(0, 99))}s =========================`,
  );
  const F = factsFor(file);
  F.has(
    "failing",
    `failing test ${failed[0].name}`,
    [failed[0].name],
    `^FAILED .*::${failed[0].name} `,
  );
  F.re(
    "failed",
    `${failed.length} failed`,
    countRe(failed.length, ["failed", "failing", "failures"]),
    "^FAILED ",
    { evidenceCount: failed.length },
  );
  F.re("passed", `${passed} passed`, countRe(passed, ["passed", "passing"]), `${passed} passed in`);
  F.re(
    "collected",
    `${n} tests collected`,
    countRe(n, ["collected", "items", "tests"]),
    `^collected ${n} items$`,
  );
  return entry(file, "pytest", "pytest", join(out), F.list);
}

const pad = (n) => String(n).padStart(2, "0");

function surefire(file, seed, classes, failing) {
  const r = rng(seedOf(file) + seed);
  const out = [
    "[INFO] Scanning for projects...",
    "[INFO] ",
    "[INFO] --------------------< com.acme:invoice-service >---------------------",
    "[INFO] Building invoice-service 1.8.0-SNAPSHOT",
    "[INFO] --- surefire:3.5.1:test (default-test) @ invoice-service ---",
    "[INFO] ",
    "[INFO] -------------------------------------------------------",
    "[INFO]  T E S T S",
    "[INFO] -------------------------------------------------------",
  ];
  let total = 0;
  const failedTests = [];
  for (let c = 0; c < classes; c++) {
    const cls = `com.acme.invoices.${r.pick(["Invoice", "Tax", "Refund", "Ledger"])}${r.pick(["Service", "Mapper", "Calculator"])}${c}Test`;
    const n = r.int(5, 25);
    const f = c === 2 ? failing : 0;
    total += n;
    out.push(`[INFO] Running ${cls}`);
    if (f) {
      out.push(
        `[ERROR] Tests run: ${n}, Failures: ${f}, Errors: 0, Skipped: 0, Time elapsed: ${r.int(0, 9)}.${r.int(100, 999)} s <<< FAILURE! -- in ${cls}`,
      );
      for (let k = 0; k < f; k++) {
        const m = `${r.pick(["applies", "rounds", "rejects"])}${r.pick(["ReverseCharge", "HalfEven", "NegativeTotal"])}${k}`;
        failedTests.push(`${cls.split(".").pop()}.${m}`);
        out.push(
          `[ERROR] ${cls}.${m} -- Time elapsed: 0.0${r.int(10, 99)} s <<< FAILURE!`,
          "org.opentest4j.AssertionFailedError: expected: <1200> but was: <1150>",
          `\tat ${cls}.${m}(${cls.split(".").pop()}.java:${r.int(20, 200)})`,
          "",
        );
      }
    } else
      out.push(
        `[INFO] Tests run: ${n}, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: ${r.int(0, 9)}.${r.int(100, 999)} s -- in ${cls}`,
      );
  }
  out.push("[INFO] ", "[INFO] Results:", "[INFO] ", "[ERROR] Failures: ");
  for (const t of failedTests)
    out.push(`[ERROR]   ${t}:${r.int(20, 200)} expected: <1200> but was: <1150>`);
  out.push(
    "[INFO] ",
    `[ERROR] Tests run: ${total}, Failures: ${failing}, Errors: 0, Skipped: 0`,
    "[INFO] ",
    "[INFO] ------------------------------------------------------------------------",
    "[INFO] BUILD FAILURE",
    "[INFO] ------------------------------------------------------------------------",
    `[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.5.1:test (default-test) on project invoice-service: There are test failures.`,
  );
  const F = factsFor(file);
  F.has(
    "failing",
    `failing test ${failedTests[0]}`,
    [failedTests[0].split(".").pop()],
    esc(failedTests[0]),
  );
  F.re(
    "total",
    `${total} tests run`,
    countRe(total, ["tests run", "tests", "run"]),
    `^\\[ERROR\\] Tests run: ${total}, `,
  );
  F.re(
    "failures",
    `${failing} failures`,
    countRe(failing, ["failures", "failed", "failing"]),
    ` <<< FAILURE!$`,
    { evidenceCount: failing },
  );
  F.has("build", "BUILD FAILURE", ["BUILD FAILURE"], "BUILD FAILURE");
  return entry(file, "maven-surefire", "mvn", join(out), F.list);
}

function cargoTest(file, seed, n, failing) {
  const r = rng(seedOf(file) + seed);
  const tests = planTests(
    r,
    n,
    failing,
    (rr, i) =>
      `${rr.pick(["ledger", "quota", "export"])}::tests::${rr.pick(WORDS)}_${rr.pick(["rejects_overflow", "rounds_down", "keeps_order"])}_${i}`,
  );
  const out = [
    "   Compiling ledger v0.9.3 (/srv/ledger)",
    `    Finished \`test\` profile [unoptimized + debuginfo] target(s) in ${r.int(5, 60)}.${r.int(10, 99)}s`,
    "     Running unittests src/lib.rs (target/debug/deps/ledger-3f9a2c1d0e4b5a6c)",
    "",
    `running ${n} tests`,
  ];
  for (const t of tests) out.push(`test ${t.name} ... ${t.fail ? "FAILED" : "ok"}`);
  const failed = tests.filter((t) => t.fail);
  out.push("", "failures:", "");
  for (const t of failed)
    out.push(
      `---- ${t.name} stdout ----`,
      `thread '${t.name}' panicked at src/${t.name.split("::")[0]}.rs:${r.int(20, 400)}:${r.int(5, 30)}:`,
      "assertion `left == right` failed",
      `  left: ${r.int(1, 99)}`,
      ` right: ${r.int(100, 200)}`,
      "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
      "",
    );
  out.push("", "failures:");
  for (const t of failed) out.push(`    ${t.name}`);
  out.push(
    "",
    `test result: FAILED. ${n - failed.length} passed; ${failed.length} failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.${r.int(10, 99)}s`,
    "",
    "error: test failed, to rerun pass `--lib`",
  );
  const F = factsFor(file);
  F.has(
    "failing",
    `failing test ${failed[0].name}`,
    [failed[0].name.split("::").pop()],
    `^test ${esc(failed[0].name)} \\.\\.\\. FAILED$`,
  );
  F.re(
    "failed",
    `${failed.length} failed`,
    countRe(failed.length, ["failed", "failing", "failures"]),
    " \\.\\.\\. FAILED$",
    { evidenceCount: failed.length },
  );
  F.re(
    "passed",
    `${n - failed.length} passed`,
    countRe(n - failed.length, ["passed", "ok", "passing"]),
    " \\.\\.\\. ok$",
    { evidenceCount: n - failed.length },
  );
  F.has("panic", "assertion `left == right` failed", ["left == right"], "left == right");
  return entry(file, "cargo-test", "cargo", join(out), F.list);
}

function mocha(file, seed, n, failing) {
  const r = rng(seedOf(file) + seed);
  const tests = planTests(
    r,
    n,
    failing,
    (rr, i) =>
      `${rr.pick(["should", "must"])} ${rr.pick(["sign", "verify", "reject", "parse"])} ${rr.pick(WORDS)} ${rr.pick(["payloads", "headers", "tokens"])} #${i}`,
  );
  const out = ["", "  WebhookVerifier"];
  let k = 0;
  const failed = [];
  for (const t of tests) {
    if (t.fail) {
      k++;
      failed.push(t);
      out.push(`    ${k}) ${t.name}`);
    } else out.push(`    ✔ ${t.name}${t.ms > 75 ? ` (${t.ms}ms)` : ""}`);
  }
  out.push("", "", `  ${n - failing} passing (${r.int(1, 9)}s)`, `  ${failing} failing`, "");
  for (const [i, t] of failed.entries())
    out.push(
      `  ${i + 1}) WebhookVerifier`,
      `       ${t.name}:`,
      "",
      "      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:",
      "",
      "'sha256=ab12' !== 'sha256=cd34'",
      "",
      `      at Context.<anonymous> (test/webhook.test.js:${r.int(10, 300)}:${r.int(5, 20)})`,
      "      at process.processImmediate (node:internal/timers:483:21)",
      "",
    );
  const F = factsFor(file);
  F.has("failing", `failing test ${failed[0].name}`, [failed[0].name], esc(failed[0].name));
  F.re(
    "failing-n",
    `${failing} failing`,
    countRe(failing, ["failing", "failed", "failures"]),
    `^  ${failing} failing$`,
  );
  F.re(
    "passing",
    `${n - failing} passing`,
    countRe(n - failing, ["passing", "passed"]),
    `^  ${n - failing} passing`,
  );
  F.has("assert", "ERR_ASSERTION", ["ERR_ASSERTION", "AssertionError"], "ERR_ASSERTION");
  return entry(file, "mocha", "npm", join(out), F.list);
}

// --- diagnostics --------------------------------------------------------------------------------

function gccLike(file, seed, n, clang) {
  const r = rng(seedOf(file) + seed);
  const out = [];
  let errors = 0;
  let warnings = 0;
  let first = null;
  for (let i = 0; i < n; i++) {
    const f = `src/${r.pick(["ringbuf", "telemetry", "sink", "config"])}.c`;
    const line = r.int(10, 900);
    const col = r.int(1, 40);
    const err = i > 3 && r.chance(0.3);
    if (err) errors++;
    else warnings++;
    const msg = err
      ? r.pick([
          "use of undeclared identifier 'evict_lru'",
          "incompatible pointer types passing 'char *' to parameter of type 'int *'",
          "too few arguments to function call, expected 3, have 2",
        ])
      : r.pick([
          "unused variable 'tmp' [-Wunused-variable]",
          "comparison of integers of different signs: 'int' and 'size_t' [-Wsign-compare]",
          "implicit conversion loses integer precision [-Wshorten-64-to-32]",
        ]);
    if (err && !first) first = { f, line, col, msg };
    if (clang)
      out.push(
        `${f}:${line}:${col}: ${err ? "error" : "warning"}: ${msg}`,
        `  ${r.int(100, 999)} |     ${r.word(5)} = ${r.word(7)}(${r.word(4)}, ${r.word(3)});`,
        `      |     ${" ".repeat(r.int(0, 8))}^~~~~~`,
      );
    else
      out.push(
        `${f}: In function '${r.word(6)}_${r.word(4)}':`,
        `${f}:${line}:${col}: ${err ? "error" : "warning"}: ${msg}`,
        `  ${line} |     ${r.word(5)} = ${r.word(7)}(${r.word(4)});`,
        `      |     ^~~~~`,
      );
  }
  out.push(
    clang
      ? `${warnings} warnings and ${errors} errors generated.`
      : `make: *** [Makefile:42: build/${r.word(5)}.o] Error 1`,
  );
  const F = factsFor(file);
  const firstLine =
    out.findIndex((l) => l.startsWith(`${first.f}:${first.line}:${first.col}: error`)) + 1;
  F.has(
    "first",
    `the first error at ${first.f}:${first.line}`,
    [`${first.f}:${first.line}`],
    `^${esc(first.f)}:${first.line}:${first.col}: error`,
  );
  F.has("msg", `the first error: ${first.msg}`, [first.msg.split("'")[0].trim()], esc(first.msg));
  F.re("errors", `${errors} errors`, countRe(errors, ["errors", "error"]), ": error: ", {
    evidenceCount: errors,
  });
  F.re(
    "warnings",
    `${warnings} warnings`,
    countRe(warnings, ["warnings", "warning"]),
    ": warning: ",
    { evidenceCount: warnings },
  );
  F.line(
    "first-line",
    `the first error is on line ${firstLine} of the output`,
    firstLine,
    ": error: ",
  );
  return entry(file, clang ? "clang" : "gcc", "make", join(out), F.list);
}

function rustc(file, seed, n) {
  const r = rng(seedOf(file) + seed);
  const out = ["   Compiling ledger v0.9.3 (/srv/ledger)"];
  let errors = 0;
  let warnings = 0;
  let first = null;
  for (let i = 0; i < n; i++) {
    const err = i > 2 && r.chance(0.35);
    const loc = `src/${r.pick(["ledger", "quota", "export", "store"])}.rs:${r.int(10, 800)}:${r.int(1, 40)}`;
    if (err) {
      errors++;
      const code = r.pick(["E0308", "E0425", "E0599"]);
      const msg = {
        E0308: "mismatched types",
        E0425: "cannot find value `evict_lru` in this scope",
        E0599: "no method named `flush_all` found for struct `Ledger` in the current scope",
      }[code];
      if (!first) first = { loc, code, msg };
      out.push(
        `error[${code}]: ${msg}`,
        `  --> ${loc}`,
        "   |",
        `${String(r.int(10, 800)).padEnd(3)}|     let total: u64 = entries.iter().sum::<i64>();`,
        "   |                      ^^^^^^^^^^^^^^^^^^^^^^^^^ expected `u64`, found `i64`",
        "",
      );
    } else {
      warnings++;
      out.push(
        `warning: unused variable: \`${r.word(5)}\``,
        `  --> ${loc}`,
        "   |",
        "   = note: `#[warn(unused_variables)]` on by default",
        "",
      );
    }
  }
  out.push(
    `warning: \`ledger\` (lib) generated ${warnings} warnings`,
    `error: could not compile \`ledger\` (lib) due to ${errors} previous errors; ${warnings} warnings emitted`,
  );
  const F = factsFor(file);
  F.has(
    "first-loc",
    `the first error at ${first.loc}`,
    [first.loc.split(":").slice(0, 2).join(":")],
    `^  --> ${esc(first.loc)}$`,
  );
  F.has(
    "first-code",
    `the first error is ${first.code}`,
    [first.code],
    `^error\\[${first.code}\\]`,
  );
  F.re("errors", `${errors} errors`, countRe(errors, ["errors", "error"]), "^error\\[E\\d+\\]", {
    evidenceCount: errors,
  });
  F.re(
    "warnings",
    `${warnings} warnings`,
    countRe(warnings, ["warnings", "warning"]),
    "^warning: unused",
    { evidenceCount: warnings },
  );
  return entry(file, "rustc-cargo-build", "cargo", join(out), F.list);
}

function tsc(file, seed, n) {
  const r = rng(seedOf(file) + seed);
  const out = [];
  const files = new Set();
  let first = null;
  for (let i = 0; i < n; i++) {
    const f = `src/${r.pick(["billing", "cart", "auth"])}/${r.word(6)}.ts`;
    files.add(f);
    const code = r.pick(["TS2322", "TS2339", "TS2345", "TS7006"]);
    const msg = {
      TS2322: "Type 'string' is not assignable to type 'number'.",
      TS2339: "Property 'amountCents' does not exist on type 'Invoice'.",
      TS2345: "Argument of type 'undefined' is not assignable to parameter of type 'string'.",
      TS7006: "Parameter 'row' implicitly has an 'any' type.",
    }[code];
    const loc = `${f}(${r.int(5, 400)},${r.int(1, 40)})`;
    if (!first) first = { loc, code, f };
    out.push(`${loc}: error ${code}: ${msg}`);
  }
  out.push("", `Found ${n} errors in ${files.size} files.`);
  const F = factsFor(file);
  F.has("first", `the first error in ${first.f}`, [first.f], `^${esc(first.loc)}`);
  F.re("errors", `${n} errors`, countRe(n, ["errors", "error"]), ": error TS\\d+: ", {
    evidenceCount: n,
  });
  F.has("code", `the first error is ${first.code}`, [first.code], esc(first.code));
  F.re(
    "files",
    `in ${files.size} files`,
    countRe(files.size, ["files"]),
    `in ${files.size} files\\.$`,
  );
  return entry(file, "tsc", "npx", join(out), F.list);
}

function eslint(file, seed, nFiles) {
  const r = rng(seedOf(file) + seed);
  const out = [];
  let errors = 0;
  let warnings = 0;
  let firstFile = null;
  const rules = {};
  for (let i = 0; i < nFiles; i++) {
    const f = `/home/ci/work/storefront/src/${r.pick(["components", "pages", "lib"])}/${r.word(7)}.tsx`;
    if (!firstFile) firstFile = f;
    out.push(f);
    for (let k = 0; k < r.int(1, 6); k++) {
      const err = r.chance(0.4);
      if (err) errors++;
      else warnings++;
      const rule = err
        ? r.pick([
            "no-unused-vars",
            "react-hooks/rules-of-hooks",
            "@typescript-eslint/no-floating-promises",
          ])
        : r.pick([
            "react-hooks/exhaustive-deps",
            "no-console",
            "@typescript-eslint/no-explicit-any",
          ]);
      rules[rule] = (rules[rule] ?? 0) + 1;
      out.push(
        `  ${r.int(1, 300)}:${r.int(1, 60)}  ${err ? "error  " : "warning"}  ${r.pick(["'setOpen' is assigned a value but never used", "React Hook useEffect has a missing dependency: 'load'", "Unexpected console statement", "Promises must be awaited"])}  ${rule}`,
      );
    }
    out.push("");
  }
  out.push(
    `✖ ${errors + warnings} problems (${errors} errors, ${warnings} warnings)`,
    `  ${r.int(0, 5)} errors and ${r.int(0, 9)} warnings potentially fixable with the \`--fix\` option.`,
  );
  const F = factsFor(file);
  F.re(
    "problems",
    `${errors + warnings} problems`,
    countRe(errors + warnings, ["problems"]),
    `^✖ ${errors + warnings} problems`,
  );
  F.re("errors", `${errors} errors`, countRe(errors, ["errors", "error"]), "^  \\d+:\\d+  error ", {
    evidenceCount: errors,
  });
  F.re(
    "warnings",
    `${warnings} warnings`,
    countRe(warnings, ["warnings", "warning"]),
    "^  \\d+:\\d+  warning ",
    { evidenceCount: warnings },
  );
  F.has(
    "first-file",
    "the first file with problems",
    [firstFile.split("/").slice(-2).join("/")],
    `^${esc(firstFile)}$`,
  );
  F.has("rule", "rule no-unused-vars", ["no-unused-vars"], "no-unused-vars");
  return entry(file, "eslint-stylish", "npx", join(out), F.list);
}

function goVet(file, seed, n) {
  const r = rng(seedOf(file) + seed);
  const out = [];
  let first = null;
  // `go vet ./...` reports each package's findings together, under its `# import/path` line.
  const perPackage = { ledger: [], accounts: [], httpapi: [] };
  for (let i = 0; i < n; i++) perPackage[r.pick(Object.keys(perPackage))].push(i);
  const order = Object.entries(perPackage).flatMap(([pkg, ids]) =>
    ids.map((_, k) => [pkg, k === 0]),
  );
  for (const [pkg, opens] of order) {
    if (opens) out.push(`# github.com/acme/${pkg}`);
    const loc = `./${pkg}/${r.word(6)}.go:${r.int(10, 600)}:${r.int(2, 30)}`;
    const msg = r.pick([
      "fmt.Sprintf format %d has arg name of wrong type string",
      "result of fmt.Errorf call not used",
      "unreachable code",
      "struct field tag `json:name` not compatible with reflect.StructTag.Get: bad syntax for struct tag value",
      "loop variable v captured by func literal",
    ]);
    if (!first) first = { loc, msg };
    out.push(`${loc}: ${msg}`);
  }
  const F = factsFor(file);
  F.has(
    "first",
    `the first finding at ${first.loc}`,
    [first.loc.split(":").slice(0, 2).join(":").slice(2)],
    `^${esc(first.loc)}: `,
  );
  F.re(
    "count",
    `${n} findings`,
    countRe(n, ["findings", "problems", "issues", "diagnostics", "errors", "lines", "locations"]),
    "^\\./\\w+/\\w+\\.go:\\d+:\\d+: ",
    { evidenceCount: n },
  );
  F.has("msg", "the first finding's message", [first.msg.slice(0, 30)], esc(first.msg));
  return entry(file, "go-vet", "go", join(out), F.list);
}

function mypy(file, seed, n) {
  const r = rng(seedOf(file) + seed);
  const out = [];
  const files = new Set();
  let first = null;
  for (let i = 0; i < n; i++) {
    const f = `app/${r.pick(["billing", "orders", "api"])}/${r.word(6)}.py`;
    files.add(f);
    const code = r.pick(["arg-type", "union-attr", "return-value", "attr-defined"]);
    const msg = {
      "arg-type": 'Argument 1 to "charge" has incompatible type "str | None"; expected "str"',
      "union-attr": 'Item "None" of "Order | None" has no attribute "total"',
      "return-value": 'Incompatible return value type (got "int", expected "Decimal")',
      "attr-defined": 'Module "app.models" has no attribute "Refund"',
    }[code];
    const loc = `${f}:${r.int(5, 400)}`;
    if (!first) first = { loc, code };
    out.push(`${loc}: error: ${msg}  [${code}]`);
    if (r.chance(0.2))
      out.push(
        `${loc}: note: See https://mypy.readthedocs.io/en/stable/_refs.html#code-${code} for more info`,
      );
  }
  out.push(`Found ${n} errors in ${files.size} files (checked 212 source files)`);
  const F = factsFor(file);
  F.has("first", `the first error at ${first.loc}`, [first.loc], `^${esc(first.loc)}: error`);
  F.re("errors", `${n} errors`, countRe(n, ["errors", "error"]), ": error: ", { evidenceCount: n });
  F.has("code", `the first error code ${first.code}`, [first.code], esc(`[${first.code}]`));
  F.re("files", `in ${files.size} files`, countRe(files.size, ["files"]), `in ${files.size} files`);
  return entry(file, "mypy", "mypy", join(out), F.list);
}

export function build() {
  return [
    goTest("go-test-ledger.txt", 1, ["ledger", "ledger/store", "ledger/httpapi", "accounts"], 3),
    goTest("go-test-quota.txt", 2, ["quota", "quota/limits"], 1),
    jestLike("jest-storefront.txt", 3, 14, 3, false),
    jestLike("jest-small.txt", 4, 6, 1, false),
    jestLike("vitest-run.txt", 5, 12, 2, true),
    pytest("pytest-billing.txt", 6, 320, 4),
    pytest("pytest-verbose.txt", 7, 90, 1, true),
    surefire("mvn-test.txt", 8, 18, 2),
    cargoTest("cargo-test.txt", 9, 260, 3),
    cargoTest("cargo-test-small.txt", 10, 50, 1),
    mocha("mocha-webhooks.txt", 11, 120, 2),
    gccLike("gcc-build.txt", 12, 60, false),
    gccLike("clang-build.txt", 13, 50, true),
    rustc("cargo-build-errors.txt", 14, 40),
    tsc("tsc-errors.txt", 15, 90),
    eslint("eslint-report.txt", 16, 70),
    goVet("go-vet.txt", 17, 60),
    mypy("mypy-report.txt", 18, 80),
  ];
}
