// Near-misses: outputs that carry another format's surface signals without being that format
// (documents quoting build output or logs in fenced blocks, code that prints tables or log lines,
// search hits shaped like diagnostics, a diff of source files, metrics whose `# HELP` lines look
// like headings, CSV rows inside a log, prose with colons). Each names the kind it must get and,
// in `mustNotMatch`, what its stub must not claim. Facts are optional here.

import { FIRST_NAMES, SERVICES, countRe, esc, factsFor, pad2, rng, seedOf, join } from "../lib.mjs";

const FAMILY = "near-miss";

function miss(file, format, toolName, mimeType, kind, content, mustNotMatch, facts = []) {
  return {
    file,
    format,
    family: FAMILY,
    toolName,
    mimeType,
    kind,
    content,
    facts,
    mustNotMatch,
    nearMiss: true,
  };
}

/** Claims of build output: an error count, failing tests. */
const BUILD_CLAIMS = [
  "\\berrors?\\b[^\\n\\d]{0,4}\\d+",
  "(?<![\\d.])[1-9]\\d* errors?\\b",
  "failing tests?",
  "(?<![\\d.])[1-9]\\d* failed\\b",
];
/** Claims of a log: level counts, a first ERROR line. */
const LOG_CLAIMS = ["\\bERROR\\b[^\\n\\d]{0,4}\\d+", "first error", "\\blevels?\\b"];

function prose(r, n) {
  const a = [
    "The exporter",
    "Our worker",
    "This guide",
    "The scheduler",
    "Each request",
    "The team",
  ];
  const b = ["keeps", "retries", "drops", "explains", "batches", "signs"];
  const c = [
    "the pending jobs",
    "every webhook",
    "stale cache entries",
    "the audit trail",
    "failed uploads",
    "slow queries",
  ];
  return Array.from(
    { length: n },
    () =>
      `${r.pick(a)} ${r.pick(b)} ${r.pick(c)} ${r.pick(["before it ships", "after a restart", "in small batches", "when asked"])}.`,
  ).join(" ");
}

/** A Markdown guide whose fenced blocks quote `quote(r)` lines (build output, logs, traces). */
function markdownQuoting(file, seed, title, sections, lang, quote, _mime) {
  const r = rng(seedOf(file) + seed);
  const lines = [`# ${title}`, "", prose(r, 3), ""];
  for (const s of sections) {
    lines.push(
      `## ${s}`,
      "",
      prose(r, 4),
      "",
      `\`\`\`${lang}`,
      ...quote(r),
      "```",
      "",
      prose(r, 3),
      "",
    );
  }
  const F = factsFor(file);
  F.has("title", `the title ${title}`, [title], `^# ${esc(title)}$`);
  F.has("section", `a section ${sections[1]}`, [sections[1]], `^## ${esc(sections[1])}$`);
  return { lines: join(lines), facts: F.list };
}

export function nearMisses() {
  const out = [];
  const add = (...a) => out.push(miss(...a));

  // 1-6: Markdown that quotes build output, test failures, logs and traces in fenced blocks.
  {
    const { lines, facts } = markdownQuoting(
      "go-vet-tutorial.md",
      1,
      "Catching bugs with go vet",
      ["Printf checks", "Unused results", "Struct tags", "Loop variables", "Running vet in CI"],
      "text",
      (r) =>
        Array.from(
          { length: 6 },
          () =>
            `hello.go:${r.int(3, 40)}:${r.int(2, 20)}: "Println" uses ${r.pick(["a format directive", "a trailing newline", "%d with a string"])}`,
        ),
      "text/markdown",
    );
    add(
      "go-vet-tutorial.md",
      "markdown-quoting-diagnostics",
      "read_file",
      "text/markdown",
      "markdown",
      lines,
      BUILD_CLAIMS,
      facts,
    );
  }
  {
    const { lines, facts } = markdownQuoting(
      "pytest-troubleshooting.md",
      2,
      "Troubleshooting flaky tests",
      ["Reading the summary", "Isolating a failure", "Fixtures that leak", "Timeouts", "Reruns"],
      "console",
      (r) => [
        `FAILED tests/test_${r.word(5)}.py::test_${r.word(6)} - AssertionError`,
        `FAILED tests/test_${r.word(5)}.py::test_${r.word(6)} - TimeoutError`,
        `=== ${r.int(1, 9)} failed, ${r.int(100, 400)} passed in ${r.int(2, 90)}.12s ===`,
      ],
      "text/markdown",
    );
    add(
      "pytest-troubleshooting.md",
      "markdown-quoting-test-output",
      "read_file",
      "text/markdown",
      "markdown",
      lines,
      BUILD_CLAIMS,
      facts,
    );
  }
  {
    const { lines, facts } = markdownQuoting(
      "typescript-migration.md",
      3,
      "Migrating to strict mode",
      ["Turning on strict", "Null checks", "Implicit any", "Fixing the build"],
      "text",
      (r) =>
        Array.from(
          { length: 5 },
          () =>
            `src/${r.word(6)}.ts(${r.int(2, 300)},${r.int(1, 30)}): error TS${r.pick(["2322", "2532", "7006"])}: ${r.pick(["Object is possibly 'undefined'.", "Parameter 'x' implicitly has an 'any' type."])}`,
        ),
      undefined,
    );
    add(
      "typescript-migration.md",
      "markdown-quoting-diagnostics",
      "read_file",
      undefined,
      "markdown",
      lines,
      BUILD_CLAIMS,
      facts,
    );
  }
  {
    const { lines, facts } = markdownQuoting(
      "incident-2026-11-28.md",
      4,
      "Incident report: checkout latency",
      ["Summary", "Timeline", "Root cause", "What went well", "Action items"],
      "log",
      (r) =>
        Array.from(
          { length: 8 },
          () =>
            `2026-11-28T09:${pad2(r.int(0, 59))}:${pad2(r.int(0, 59))}Z ${r.pick(["ERROR", "WARN", "INFO", "ERROR"])} checkout-api: ${r.pick(["upstream timed out", "pool exhausted", "retrying charge", "request completed"])}`,
        ),
      "text/markdown",
    );
    add(
      "incident-2026-11-28.md",
      "markdown-quoting-logs",
      "read_file",
      "text/markdown",
      "markdown",
      lines,
      LOG_CLAIMS,
      facts,
    );
  }
  {
    const { lines, facts } = markdownQuoting(
      "bug-report.md",
      5,
      "Export job crashes on large tenants",
      ["Steps to reproduce", "Expected behaviour", "Actual behaviour", "Environment"],
      "python",
      (r) => [
        "Traceback (most recent call last):",
        `  File "/srv/worker/export.py", line ${r.int(10, 200)}, in run`,
        "    upload(chunk)",
        "botocore.exceptions.ClientError: An error occurred (AccessDenied)",
      ],
      undefined,
    );
    add(
      "bug-report.md",
      "markdown-quoting-traceback",
      "read_file",
      undefined,
      "markdown",
      lines,
      [...LOG_CLAIMS, "root cause\\b[^\\n]{0,20}ClientError"],
      facts,
    );
  }
  {
    const { lines, facts } = markdownQuoting(
      "ci-failures-faq.md",
      6,
      "CI failures FAQ",
      [
        "Lint errors",
        "Compiler errors",
        "Test failures",
        "Flaky infrastructure",
        "Asking for help",
      ],
      "text",
      (r) => [
        `src/${r.word(5)}.c:${r.int(10, 99)}:${r.int(1, 9)}: error: use of undeclared identifier '${r.word(6)}'`,
        `src/${r.word(5)}.c:${r.int(10, 99)}:${r.int(1, 9)}: warning: unused variable '${r.word(3)}'`,
        `make: *** [Makefile:42: all] Error 1`,
      ],
      "text/markdown; charset=utf-8",
    );
    add(
      "ci-failures-faq.md",
      "markdown-quoting-diagnostics",
      "read_file",
      "text/markdown; charset=utf-8",
      "markdown",
      lines,
      BUILD_CLAIMS,
      facts,
    );
  }

  // 7-8: Prometheus exposition: `# HELP`/`# TYPE` are comments, not Markdown headings.
  for (const [i, mime] of [
    [7, undefined],
    [8, "text/plain"],
  ]) {
    const r = rng(seedOf(`metrics-${i}`));
    const lines = [];
    for (const name of [
      "queue_depth",
      "queue_jobs_total",
      "queue_oldest_job_age_seconds",
      "worker_busy",
      "worker_restarts_total",
      "http_inflight_requests",
    ]) {
      lines.push(
        `# HELP ${name} ${r.pick(["Jobs waiting per queue.", "Jobs handled per queue and outcome.", "Age of the oldest waiting job.", "Busy workers."])}`,
        `# TYPE ${name} ${name.endsWith("_total") ? "counter" : "gauge"}`,
      );
      for (const q of ["emails", "exports", "webhooks", "billing", "search", "reports"])
        for (const s of ["a", "b", "c"])
          lines.push(`${name}{queue="${q}",shard="${s}"} ${r.int(0, 90000)}`);
    }
    const file = `queue-metrics-${i}.txt`;
    const F = factsFor(file);
    F.has(
      "metric",
      "a metric queue_oldest_job_age_seconds",
      ["queue_oldest_job_age_seconds"],
      "^# TYPE queue_oldest_job_age_seconds gauge",
    );
    add(
      file,
      "prometheus-exposition",
      "curl",
      mime,
      "metrics",
      join(lines),
      ["markdown", "\\boutline\\b", "\\bheadings?\\b"],
      F.list,
    );
  }

  // 9-10: search hits shaped like diagnostics (file:line:col:text), not build errors.
  {
    const r = rng(seedOf("rg-vimgrep"));
    const lines = [];
    for (let i = 0; i < 160; i++)
      lines.push(
        `src/${r.pick(SERVICES)}/${r.word(6)}.ts:${r.int(1, 500)}:${r.int(1, 40)}:    const retry = ${r.pick(["withRetry", "retryPolicy", "maxRetries"])}(${r.word(5)});`,
      );
    const F = factsFor("rg-vimgrep.txt");
    F.count(
      "hits",
      "160 hits",
      160,
      ["hits", "matches", "lines", "results"],
      "^src/\\S+\\.ts:\\d+:\\d+:",
    );
    add(
      "rg-vimgrep.txt",
      "ripgrep-vimgrep",
      "rg",
      undefined,
      "search_hits",
      join(lines),
      BUILD_CLAIMS,
      F.list,
    );
  }
  {
    const r = rng(seedOf("grep-rn"));
    const lines = [];
    for (let i = 0; i < 150; i++)
      lines.push(
        `./internal/${r.pick(["store", "api", "jobs"])}/${r.word(6)}.go:${r.int(1, 800)}:\t\treturn fmt.Errorf("${r.pick(["load", "save", "decode"])} ${r.word(5)}: %w", err)`,
      );
    const F = factsFor("grep-rn.txt");
    F.count(
      "hits",
      "150 hits",
      150,
      ["hits", "matches", "lines", "results"],
      "^\\./internal/\\S+\\.go:\\d+:",
    );
    add(
      "grep-rn.txt",
      "grep-rn",
      "grep",
      undefined,
      "search_hits",
      join(lines),
      BUILD_CLAIMS,
      F.list,
    );
  }

  // 11: a passing `go test -v` whose t.Log lines have the file:line: shape of diagnostics.
  {
    const r = rng(seedOf("go-test-pass"));
    const lines = [];
    let n = 0;
    for (let i = 0; i < 60; i++) {
      const name = `TestLedger${r.pick(["Posts", "Balances", "Rounds", "Reverses"])}${i}`;
      lines.push(
        `=== RUN   ${name}`,
        `    ledger_test.go:${r.int(20, 300)}: seeded ${r.int(1, 90)} accounts`,
        `    ledger_test.go:${r.int(20, 300)}: balance after posting: ${r.int(100, 9000)}`,
        `--- PASS: ${name} (0.0${r.int(0, 9)}s)`,
      );
      n++;
    }
    lines.push("PASS", "ok  \tgithub.com/acme/ledger\t1.204s");
    const F = factsFor("go-test-pass.txt");
    F.re(
      "passed",
      `${n} tests passed`,
      countRe(n, ["passed", "PASS", "passing", "tests"]),
      "^--- PASS: ",
      { evidenceCount: n },
    );
    add(
      "go-test-pass.txt",
      "go-test-v-passing",
      "go",
      undefined,
      "build_output",
      join(lines),
      [
        "\\berrors?\\b[^\\n\\d]{0,4}[1-9]",
        "(?<![\\d.])[1-9]\\d* errors?\\b",
        "failing tests?",
        "(?<![\\d.])[1-9]\\d* failed\\b",
      ],
      F.list,
    );
  }

  // 12: a unified diff of Go files is a diff, not Go source.
  {
    const r = rng(seedOf("go-diff"));
    const lines = [];
    for (let f = 0; f < 8; f++) {
      const path = `internal/${r.pick(["store", "api", "jobs"])}/${r.word(6)}.go`;
      lines.push(
        `diff --git a/${path} b/${path}`,
        `index ${r.hex(7)}..${r.hex(7)} 100644`,
        `--- a/${path}`,
        `+++ b/${path}`,
        `@@ -${r.int(1, 90)},12 +${r.int(1, 90)},14 @@ func ${r.word(6)}(ctx context.Context) error {`,
      );
      for (let k = 0; k < 12; k++)
        lines.push(
          `${r.pick([" ", " ", "+", "-"])}\t${r.pick(["if err != nil {", 'return fmt.Errorf("load: %w", err)', "}", `${r.word(4)} := ${r.word(6)}(ctx)`, "package main", 'import "fmt"'])}`,
        );
    }
    add(
      "go-changes.diff",
      "unified-diff",
      "git",
      "text/x-diff",
      "diff",
      join(lines),
      ["\\bGo source\\b", "\\bpackage main\\b", "language:?\\s*go\\b"],
      [],
    );
  }

  // 13: a JSON array of log records is JSON; counts over it must be exact.
  {
    const r = rng(seedOf("log-records"));
    const recs = [];
    let errors = 0;
    for (let i = 0; i < 320; i++) {
      const level = r.chance(0.03) ? "error" : r.pick(["info", "info", "debug", "warn"]);
      if (level === "error") errors++;
      recs.push({
        ts: `2026-11-28T09:${pad2(i % 60)}:${pad2(r.int(0, 59))}Z`,
        level,
        msg: r.pick(["request completed", "cache miss", "retrying", "upstream timed out"]),
        svc: r.pick(SERVICES),
      });
    }
    const F = factsFor("log-records.json");
    F.re(
      "errors",
      `${errors} records have level error`,
      countRe(errors, ["error"]),
      '"level":"error"',
      { evidenceCount: errors },
    );
    F.count(
      "records",
      "320 records",
      320,
      ["records", "items", "elements", "objects", "entries"],
      '"ts":',
    );
    add(
      "log-records.json",
      "json-array-of-log-records",
      "http_get",
      "application/json",
      "json",
      `${JSON.stringify(recs)}\n`,
      ["in the first \\d"],
      F.list,
    );
  }

  // 14: CSV rows dumped inside a log are part of the log, not continuation noise.
  {
    const r = rng(seedOf("export-with-csv"));
    const lines = [];
    let errors = 0;
    // Most lines follow the log's grammar; a few batches are dumped as CSV between them.
    for (let i = 0; i < 160; i++) {
      const lvl = r.chance(0.1) ? "ERROR" : "INFO";
      if (lvl === "ERROR") errors++;
      lines.push(
        `2026-11-28 ${pad2(10 + Math.floor(i / 60))}:${pad2(i % 60)}:00,123 ${lvl} exporter: ${lvl === "ERROR" ? "row rejected by warehouse" : "batch written"} batch=${i}`,
      );
      if (i % 40 === 3) {
        lines.push("invoice_id,customer,amount,currency");
        for (let k = 0; k < 12; k++)
          lines.push(
            `INV-${r.int(10000, 99999)},${r.pick(FIRST_NAMES)},${r.int(10, 9999)}.${pad2(r.int(0, 99))},EUR`,
          );
      }
    }
    const F = factsFor("export-with-csv.log");
    F.re(
      "errors",
      `${errors} ERROR lines`,
      countRe(errors, ["error", "errors", "ERROR"]),
      " ERROR exporter",
      { evidenceCount: errors },
    );
    add(
      "export-with-csv.log",
      "log-with-embedded-csv",
      "bash",
      undefined,
      "log",
      join(lines),
      ["(?<![\\d,])[1-9][\\d,]* continuation lines"],
      F.list,
    );
  }

  // 15-16: code that prints tables or quotes diagnostics in its strings.
  {
    const r = rng(seedOf("report.py"));
    const lines = [
      "import sys",
      "from dataclasses import dataclass",
      "",
      "",
      "@dataclass",
      "class Row:",
      "    name: str",
      "    total: float",
      "",
      "",
      "def print_report(rows: list[Row]) -> None:",
      "    print(f\"| {'name':<20} | {'total':>10} |\")",
      '    print("|" + "-" * 22 + "|" + "-" * 12 + "|")',
      "    for row in rows:",
      '        print(f"| {row.name:<20} | {row.total:>10.2f} |")',
      "",
    ];
    for (let i = 0; i < 30; i++)
      lines.push(
        "",
        `def report_${r.word(6)}_${i}(rows: list[Row]) -> None:`,
        `    """Prints the ${r.word(5)} table."""`,
        `    print("NAME                  TOTAL      STATUS")`,
        `    print("${r.word(8).padEnd(22)}${String(r.int(1, 999)).padEnd(11)}ok")`,
        "    print_report(rows)",
      );
    const F = factsFor("report.py");
    F.has("fn", "defines print_report", ["print_report"], "^def print_report");
    add(
      "report.py",
      "python-printing-tables",
      "read_file",
      "text/x-python",
      "code",
      join(lines),
      ["\\b\\d+ rows\\b", "column-aligned"],
      F.list,
    );
  }
  {
    const r = rng(seedOf("parse_test.go"));
    const lines = [
      "package diag",
      "",
      'import "testing"',
      "",
      "func TestParse(t *testing.T) {",
      "\tcases := []struct {",
      "\t\tin   string",
      "\t\tfile string",
      "\t\tline int",
      "\t}{",
    ];
    for (let i = 0; i < 70; i++)
      lines.push(
        `\t\t{"${r.word(5)}.go:${r.int(1, 99)}:${r.int(1, 9)}: error: ${r.pick(["undefined: x", "missing return", "declared and not used"])}", "${r.word(5)}.go", ${r.int(1, 99)}},`,
      );
    lines.push(
      "\t}",
      "\tfor _, c := range cases {",
      "\t\tif got := Parse(c.in); got.File != c.file {",
      '\t\t\tt.Errorf("Parse(%q) = %v", c.in, got)',
      "\t\t}",
      "\t}",
      "}",
    );
    const F = factsFor("parse_test.go");
    F.has("pkg", "package diag", ["diag"], "^package diag$");
    add(
      "parse_test.go",
      "go-test-source-quoting-diagnostics",
      "read_file",
      "text/x-go",
      "code",
      join(lines),
      BUILD_CLAIMS,
      F.list,
    );
  }

  // 17: a shell script that echoes log-shaped lines.
  {
    const r = rng(seedOf("deploy.sh"));
    const lines = [
      "#!/usr/bin/env bash",
      "set -euo pipefail",
      "",
      'log() { echo "$(date -u +%FT%TZ) $1 deploy: $2"; }',
      "",
    ];
    for (let i = 0; i < 50; i++)
      lines.push(
        `deploy_${r.word(5)}_${i}() {`,
        `  log INFO "deploying ${r.pick(SERVICES)}"`,
        `  if ! kubectl rollout status deploy/${r.pick(SERVICES)} --timeout=120s; then`,
        `    echo "[ERROR] rollout of ${r.pick(SERVICES)} failed" >&2`,
        "    return 1",
        "  fi",
        "}",
        "",
      );
    add(
      "deploy.sh",
      "shell-echoing-log-lines",
      "read_file",
      "application/x-sh",
      "code",
      join(lines),
      LOG_CLAIMS,
      [],
    );
  }

  // 18: prose with colons is neither YAML nor a log.
  {
    const r = rng(seedOf("meeting-notes"));
    const lines = [];
    for (let i = 0; i < 40; i++)
      lines.push(
        `Note: ${prose(r, 2)} Decision: ${r.pick(["ship it", "wait a week", "ask finance"])}. Owner: ${r.pick(FIRST_NAMES)}.`,
        "",
      );
    add(
      "meeting-notes.txt",
      "prose-with-colons",
      "read_file",
      "text/plain",
      "text",
      join(lines),
      ["\\byaml\\b", "\\bkeys?\\b[^\\n]{0,5}:", ...LOG_CLAIMS],
      [],
    );
  }

  // 19: a Markdown README with a metrics example in a fenced block.
  {
    const { lines, facts } = markdownQuoting(
      "exporter-README.md",
      19,
      "queue-exporter",
      ["Install", "Metrics", "Configuration", "Alerts"],
      "text",
      (r) => [
        "# HELP queue_depth Jobs waiting per queue.",
        "# TYPE queue_depth gauge",
        `queue_depth{queue="emails"} ${r.int(1, 90)}`,
      ],
      "text/markdown",
    );
    add(
      "exporter-README.md",
      "markdown-quoting-metrics",
      "read_file",
      "text/markdown",
      "markdown",
      lines,
      ["metric families", "\\bsamples?\\b[^\\n\\d]{0,4}\\d+"],
      facts,
    );
  }

  // 20: a changelog whose entries mention errors and failures in prose.
  {
    const r = rng(seedOf("CHANGELOG"));
    const lines = [
      "# Changelog",
      "",
      "All notable changes to this project are documented here.",
      "",
    ];
    for (let v = 30; v > 10; v--)
      lines.push(
        `## [2.${v}.0] - 2026-${pad2((v % 12) + 1)}-${pad2((v % 27) + 1)}`,
        "",
        "### Fixed",
        "",
        `- Error: ${r.pick(["parser crashed on empty input", "timeout was ignored", "retry count off by one"])}`,
        `- FAILED uploads are retried (#${r.int(100, 999)})`,
        "",
        "### Added",
        "",
        `- ${prose(r, 1)}`,
        "",
      );
    const F = factsFor("CHANGELOG.md");
    F.has("latest", "the latest version 2.30.0", ["2.30.0"], "^## \\[2\\.30\\.0\\]");
    add(
      "CHANGELOG.md",
      "markdown-changelog",
      "read_file",
      "text/markdown",
      "markdown",
      join(lines),
      BUILD_CLAIMS,
      F.list,
    );
  }

  // 21: a jest --json report is JSON even though it describes test failures.
  {
    const r = rng(seedOf("jest-results.json"));
    const results = [];
    for (let i = 0; i < 25; i++)
      results.push({
        name: `/srv/app/src/${r.word(6)}.test.ts`,
        status: i === 4 ? "failed" : "passed",
        assertionResults: Array.from({ length: 4 }, (_, k) => ({
          title: `${r.word(6)} ${r.word(5)}`,
          status: i === 4 && k === 1 ? "failed" : "passed",
          failureMessages: [],
        })),
      });
    const doc = {
      numTotalTests: 100,
      numPassedTests: 99,
      numFailedTests: 1,
      success: false,
      testResults: results,
    };
    const F = factsFor("jest-results.json");
    F.has("failed", "numFailedTests 1", ["numFailedTests"], '"numFailedTests": 1');
    add(
      "jest-results.json",
      "jest-json-report",
      "npm",
      "application/json",
      "json",
      `${JSON.stringify(doc, null, 2)}\n`,
      ["\\berrors?\\b[^\\n\\d]{0,4}\\d+"],
      F.list,
    );
  }

  // 22: an HTML page that shows compiler output inside <pre>.
  {
    const r = rng(seedOf("build-page.html"));
    const pre = Array.from(
      { length: 40 },
      () =>
        `src/${r.word(5)}.c:${r.int(1, 99)}:${r.int(1, 9)}: error: expected ';' before '}' token`,
    );
    const doc = `<!DOCTYPE html>\n<html><head><title>Fixing common C build errors</title></head><body>\n<h1>Fixing common C build errors</h1>\n<h2>Missing semicolons</h2>\n<p>${prose(r, 4)}</p>\n<pre><code>${pre.join("\n")}</code></pre>\n<h2>Undeclared identifiers</h2>\n<p>${prose(r, 4)}</p>\n</body></html>\n`;
    const F = factsFor("build-page.html");
    F.has(
      "title",
      "the page title",
      ["Fixing common C build errors"],
      "<title>Fixing common C build errors</title>",
    );
    add(
      "build-page.html",
      "html-quoting-diagnostics",
      "http_get",
      "text/html",
      "html",
      doc,
      BUILD_CLAIMS,
      F.list,
    );
  }

  // 23-24: tables whose values are log levels are tables.
  {
    const r = rng(seedOf("log-export.csv"));
    const lines = ["timestamp,level,service,message"];
    for (let i = 0; i < 120; i++)
      lines.push(
        `2026-11-28T10:${pad2(i % 60)}:00Z,${r.pick(["INFO", "WARN", "ERROR", "INFO"])},${r.pick(SERVICES)},${r.pick(["request completed", "upstream timed out", "cache miss"])}`,
      );
    const F = factsFor("log-export.csv");
    F.count("rows", "120 rows", 120, ["rows", "records", "lines"], "^2026-");
    add(
      "log-export.csv",
      "csv-of-log-records",
      "read_file",
      "text/csv",
      "csv",
      join(lines),
      ["first error"],
      F.list,
    );
  }
  {
    const r = rng(seedOf("events.tsv"));
    const lines = ["time\tseverity\thost\tevent"];
    for (let i = 0; i < 140; i++)
      lines.push(
        `10:${pad2(i % 60)}:${pad2(r.int(0, 59))}\t${r.pick(["error", "warning", "info"])}\tnode-${r.int(1, 9)}\t${r.pick(["disk full", "fan speed high", "reboot"])}`,
      );
    add(
      "events.tsv",
      "tsv-of-events",
      "read_file",
      "text/tab-separated-values",
      "tsv",
      join(lines),
      ["first error"],
      [],
    );
  }

  // 25: Kubernetes YAML whose container args mention log levels and errors.
  {
    const r = rng(seedOf("worker-deploy.yaml"));
    const lines = [];
    for (let i = 0; i < 8; i++)
      lines.push(
        "---",
        "apiVersion: apps/v1",
        "kind: Deployment",
        "metadata:",
        `  name: worker-${i}`,
        "spec:",
        "  template:",
        "    spec:",
        "      containers:",
        "        - name: worker",
        `          image: registry.example.com/worker:${r.int(1, 9)}.0`,
        "          args:",
        "            - --log-level=error",
        "            - --on-error=retry",
        `            - "--error-budget=${r.int(1, 9)}"`,
        "          env:",
        "            - name: ERROR_REPORTING",
        '              value: "sentry"',
      );
    const F = factsFor("worker-deploy.yaml");
    F.has("kind", "kinds include Deployment", ["Deployment"], "^kind: Deployment$");
    add(
      "worker-deploy.yaml",
      "kubernetes-yaml-mentioning-errors",
      "read_file",
      "application/yaml",
      "yaml",
      join(lines),
      [...BUILD_CLAIMS.slice(1), "\\bERROR\\b[^\\n\\d]{0,4}\\d+"],
      F.list,
    );
  }

  // 26: a diff of Markdown files: `+## x` lines are changes, not headings.
  {
    const r = rng(seedOf("docs.diff"));
    const lines = [];
    for (let f = 0; f < 10; f++) {
      const path = `docs/${r.word(7)}.md`;
      lines.push(
        `diff --git a/${path} b/${path}`,
        `--- a/${path}`,
        `+++ b/${path}`,
        `@@ -1,9 +1,11 @@`,
        `-# ${r.word(6)} guide`,
        `+# ${r.word(6)} guide`,
        `+## ${r.word(5)} ${r.word(6)}`,
        ` ${prose(r, 1)}`,
        `-## ${r.word(7)}`,
        `+${prose(r, 1)}`,
        ` ${prose(r, 1)}`,
      );
    }
    add(
      "docs.diff",
      "unified-diff-of-markdown",
      "git",
      undefined,
      "diff",
      join(lines),
      ["\\bmarkdown\\b", "\\boutline\\b"],
      [],
    );
  }

  // 27: a pip requirements file: `# section` comments between pins, not Markdown headings.
  {
    const r = rng(seedOf("requirements.txt"));
    const lines = [];
    for (const section of ["Web", "Database", "Workers", "Observability", "Testing", "Linting"]) {
      lines.push(`# ${section}`);
      for (let i = 0; i < 14; i++)
        lines.push(
          `${r.word(r.int(4, 10))}${r.pick(["", "-core", "-client", "[async]"])}==${r.int(0, 9)}.${r.int(0, 40)}.${r.int(0, 9)}  # ${r.pick(["pinned for CVE fix", "needed by the exporter", "see ADR-12", "transitive"])}`,
        );
      lines.push("");
    }
    add(
      "requirements.txt",
      "pip-requirements",
      "read_file",
      "text/plain",
      "text",
      join(lines),
      ["\\bmarkdown\\b", "\\boutline\\b"],
      [],
    );
  }

  // 28: a log whose messages mention test results.
  {
    const r = rng(seedOf("ci-agent.log"));
    const lines = [];
    let warns = 0;
    for (let i = 0; i < 120; i++) {
      const w = r.chance(0.1);
      if (w) warns++;
      lines.push(
        `2026-11-28T11:${pad2(i % 60)}:${pad2(r.int(0, 59))}.${r.int(100, 999)}Z ${w ? "WARN" : "INFO"} agent: job ${r.int(1000, 9999)} reported ${r.int(10, 400)} passed tests${w ? ", upload slow" : ""}`,
      );
    }
    const F = factsFor("ci-agent.log");
    F.re(
      "warns",
      `${warns} WARN lines`,
      countRe(warns, ["warn", "warning", "warnings", "WARN"]),
      "Z WARN agent",
      { evidenceCount: warns },
    );
    add(
      "ci-agent.log",
      "log-mentioning-tests",
      "bash",
      undefined,
      "log",
      join(lines),
      ["failing tests?", "\\bpassed tests\\b[^\\n\\d]{0,4}\\d+"],
      F.list,
    );
  }

  // 29: a Go metrics exporter whose strings hold exposition lines.
  {
    const r = rng(seedOf("exporter.go"));
    const lines = [
      "package exporter",
      "",
      "import (",
      '\t"fmt"',
      '\t"io"',
      ")",
      "",
      "// Write prints the metrics in the Prometheus text format.",
      "func Write(w io.Writer, depth map[string]int) {",
    ];
    for (let i = 0; i < 40; i++)
      lines.push(
        `\tfmt.Fprintln(w, "# HELP ${r.word(6)}_${i} ${r.word(5)} ${r.word(7)}.")`,
        `\tfmt.Fprintln(w, "# TYPE ${r.word(6)}_${i} gauge")`,
        `\tfmt.Fprintf(w, "${r.word(6)}_${i}{queue=%q} %d\\n", "q", depth["q"])`,
      );
    lines.push("}");
    const F = factsFor("exporter.go");
    F.has("pkg", "package exporter", ["exporter"], "^package exporter$");
    add(
      "exporter.go",
      "go-source-printing-metrics",
      "read_file",
      "text/x-go",
      "code",
      join(lines),
      ["metric families", "\\bmarkdown\\b"],
      F.list,
    );
  }

  // 30: a Markdown page of HTTP status codes: a document, not an access log.
  {
    const r = rng(seedOf("status-codes.md"));
    const lines = [
      "# HTTP status codes we return",
      "",
      prose(r, 2),
      "",
      "## Success",
      "",
      "| code | meaning |",
      "|---|---|",
    ];
    for (const c of [200, 201, 202, 204]) lines.push(`| ${c} | ${prose(r, 1)} |`);
    lines.push("", "## Client errors", "", "| code | meaning |", "|---|---|");
    for (const c of [400, 401, 403, 404, 409, 422, 429]) lines.push(`| ${c} | ${prose(r, 2)} |`);
    lines.push("", "## Server errors", "", "| code | meaning |", "|---|---|");
    for (const c of [500, 502, 503, 504]) lines.push(`| ${c} | ${prose(r, 2)} |`);
    lines.push("", "## Retrying", "", prose(r, 8), "");
    const F = factsFor("status-codes.md");
    F.has("section", "a section Client errors", ["Client errors"], "^## Client errors$");
    add(
      "status-codes.md",
      "markdown-about-status-codes",
      "read_file",
      "text/markdown",
      "markdown",
      join(lines),
      ["\\b5xx\\b[^\\n\\d]{0,4}\\d+", "\\brequests?\\b[^\\n\\d]{0,4}\\d+"],
      F.list,
    );
  }

  // 31: a log line grammar wrapped in Markdown list items (a runbook).
  {
    const r = rng(seedOf("runbook.md"));
    const lines = ["# Runbook: payment timeouts", "", prose(r, 2), "", "## Symptoms", ""];
    for (let i = 0; i < 30; i++)
      lines.push(
        `- \`${pad2(r.int(0, 23))}:${pad2(r.int(0, 59))}:${pad2(r.int(0, 59))} ERROR payments: ${r.pick(["charge timed out", "card declined", "gateway 502"])}\` ${prose(r, 1)}`,
      );
    lines.push("", "## Diagnosis", "", prose(r, 5), "", "## Mitigation", "", prose(r, 5), "");
    const F = factsFor("runbook.md");
    F.has("section", "a section Mitigation", ["Mitigation"], "^## Mitigation$");
    add(
      "runbook.md",
      "markdown-listing-log-lines",
      "read_file",
      "text/markdown",
      "markdown",
      join(lines),
      LOG_CLAIMS,
      F.list,
    );
  }

  // 32: a JSON array of more records than an analyzer may sample: a count must be exact or say
  // what it counted ("in the first 2,000"), never a sample's count given as the whole's.
  {
    const r = rng(seedOf("many-log-records"));
    const recs = [];
    let errors = 0;
    let errorsInFirst2000 = 0;
    for (let i = 0; i < 2400; i++) {
      const level = i % 97 === 41 || i > 2300 ? "error" : r.pick(["info", "info", "warn"]);
      if (level === "error") {
        errors++;
        if (i < 2000) errorsInFirst2000++;
      }
      recs.push(`{"level":"${level}","ms":${r.int(10, 99)}}`);
    }
    const F = factsFor("many-log-records.json");
    F.count(
      "records",
      "2400 records",
      2400,
      ["records", "items", "elements", "objects", "entries"],
      '"level"',
    );
    const sampled = `\\berror\\b[^\\n\\d]{0,5}${errorsInFirst2000}\\b(?![^\\n]{0,80}\\b(first|sampled?)\\b)`;
    add(
      "many-log-records.json",
      "json-array-of-many-log-records",
      "http_get",
      "application/json",
      "json",
      `[${recs.join(",")}]\n`,
      [sampled],
      [
        ...F.list,
        {
          id: "many-log-records-json-errors",
          fixture: "many-log-records.json",
          fact: `${errors} records have level error`,
          regex: `(?<![\\d,.])${errors}(?![\\d,.]\\d)[^\\n\\d]{0,25}\\berror|\\berror\\b[^\\n\\d]{0,25}(?<![\\d,.])${errors}\\b`,
          evidence: '"level":"error"',
          evidenceCount: errors,
        },
      ],
    );
  }

  // 33: a Markdown review guide whose fenced blocks hold diffs: a document, not a diff.
  {
    const { lines, facts } = markdownQuoting(
      "code-review-guide.md",
      33,
      "Reviewing pull requests",
      ["Small diffs", "Naming", "Error handling", "Tests", "Approving"],
      "diff",
      (r) => [
        `--- a/internal/${r.word(5)}.go`,
        `+++ b/internal/${r.word(5)}.go`,
        `@@ -${r.int(1, 90)},6 +${r.int(1, 90)},7 @@`,
        "-\treturn err",
        '+\treturn fmt.Errorf("load: %w", err)',
        " }",
      ],
      "text/markdown",
    );
    add(
      "code-review-guide.md",
      "markdown-quoting-diffs",
      "read_file",
      "text/markdown",
      "markdown",
      lines,
      ["\\bhunks?\\b[^\\n\\d]{0,4}\\d+", "\\bfiles? changed\\b"],
      facts,
    );
  }

  // 34: a release checklist whose items start with + and -: prose, not a diff.
  {
    const r = rng(seedOf("release-checklist"));
    const lines = ["Release checklist for 5.0", ""];
    for (let i = 0; i < 60; i++)
      lines.push(
        `${r.pick(["+", "-"])} ${prose(r, 1)}`,
        `  owner: ${r.pick(FIRST_NAMES)}, due ${pad2(r.int(1, 28))} Nov`,
      );
    add(
      "release-checklist.txt",
      "plus-minus-checklist",
      "read_file",
      "text/plain",
      "text",
      join(lines),
      ["\\bhunks?\\b", "\\b(additions|deletions)\\b[^\\n\\d]{0,4}\\d+"],
      [],
    );
  }

  // 35: Python whose docstrings quote grep output: code, not search hits.
  {
    const r = rng(seedOf("find_usages.py"));
    const lines = ['"""Finds where settings are read.', "", "Example::", ""];
    for (let i = 0; i < 12; i++)
      lines.push(
        `    app/${r.word(6)}.py:${r.int(1, 400)}:    value = settings.${r.word(7).toUpperCase()}`,
      );
    lines.push('"""', "", "import re", "import subprocess", "from pathlib import Path", "");
    for (let i = 0; i < 30; i++)
      lines.push(
        `def find_${r.word(6)}_${i}(root: Path) -> list[str]:`,
        `    """Lines under root that read the ${r.word(5)} setting."""`,
        '    out = subprocess.run(["grep", "-rn", "settings\\.", str(root)], capture_output=True, text=True)',
        '    return [line for line in out.stdout.splitlines() if re.search(r":\\d+:", line)]',
        "",
      );
    const F = factsFor("find_usages.py");
    F.has("import", "imports subprocess", ["subprocess"], "^import subprocess$");
    add(
      "find_usages.py",
      "python-quoting-grep-output",
      "read_file",
      "text/x-python",
      "code",
      join(lines),
      ["\\bhits?\\b[^\\n\\d]{0,4}\\d+", "\\bmatches\\b[^\\n\\d]{0,4}\\d+"],
      F.list,
    );
  }

  // 36: a CSV whose first column is a file:line location: a table, not diagnostics or hits.
  {
    const r = rng(seedOf("coverage-gaps.csv"));
    const lines = ["location,function,hits,branch_coverage"];
    for (let i = 0; i < 180; i++)
      lines.push(
        `src/${r.pick(["ledger", "quota", "export"])}/${r.word(6)}.rs:${r.int(1, 900)},${r.word(5)}_${r.word(4)},${r.int(0, 90)},${(r.int(0, 100) / 100).toFixed(2)}`,
      );
    const F = factsFor("coverage-gaps.csv");
    F.count("rows", "180 rows", 180, ["rows", "records", "lines"], "^src/");
    add(
      "coverage-gaps.csv",
      "csv-of-locations",
      "read_file",
      "text/csv",
      "csv",
      join(lines),
      [...BUILD_CLAIMS, "\\bhits?\\b[^\\n\\d]{0,4}\\d+ (in|across) \\d+ files"],
      F.list,
    );
  }

  // 37: a Python module whose docstring is written in reStructuredText (numpydoc sections
  // underlined with `-`): source code, not a reStructuredText document.
  {
    const r = rng(seedOf("settlement.py"));
    const lines = [
      '"""',
      "Settlement",
      "==========",
      "",
      "Nightly settlement of card payments.",
      "",
      "Parameters",
      "----------",
      "batch_size : int",
      "    Payments read per query.",
      "",
      "Notes",
      "-----",
      "Runs once per night; see :ref:`settlement-runbook`.",
      '"""',
      "",
      "import logging",
      "from decimal import Decimal",
      "",
    ];
    for (let i = 0; i < 40; i++)
      lines.push(
        `def settle_${r.word(6)}_${i}(amounts: list[Decimal]) -> Decimal:`,
        `    """Settles the ${r.word(5)} batch.`,
        "",
        "    Returns",
        "    -------",
        "    Decimal",
        "        The settled total.",
        '    """',
        "    return sum(amounts, Decimal(0))",
        "",
      );
    const F = factsFor("settlement.py");
    F.has("import", "imports decimal", ["decimal"], "^from decimal import Decimal$");
    add(
      "settlement.py",
      "python-with-rst-docstrings",
      "read_file",
      "text/x-python",
      "code",
      join(lines),
      ["reStructuredText", "\\d+ sections:"],
      F.list,
    );
  }

  // 38: a CI log whose steps print `==== name ====` banners: a log, not an AsciiDoc outline.
  {
    const r = rng(seedOf("ci-banners.log"));
    const lines = [];
    for (let i = 0; i < 40; i++) {
      lines.push("", `== Step ${i + 1}: ${r.pick(["lint", "build", "test", "package"])} ==`);
      for (let k = 0; k < 3; k++)
        lines.push(
          `2026-11-28T10:${pad2(i)}:${pad2(k * 7)}Z INFO runner: ${r.pick(["fetched cache", "ran step", "uploaded artifact"])} ${r.word(6)}`,
        );
    }
    add(
      "ci-banners.log",
      "log-with-asciidoc-like-banners",
      "bash",
      undefined,
      "log",
      join(lines),
      ["AsciiDoc", "\\d+ sections:"],
      [],
    );
  }

  return out;
}
