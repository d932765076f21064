// The `tool-stub` CLI end to end, in a fresh working directory (its default store is ./.tool-stub).
import { after, describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { mkdtempSync, writeFileSync, existsSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { spawn, spawnSync } from "node:child_process";
import { ROOT } from "./pkg.js";

const CLI = path.join(ROOT, "pkg/js/cli.js");
const cwd = mkdtempSync(path.join(tmpdir(), "tool-stub-cli-"));
after(() => rmSync(cwd, { recursive: true, force: true }));
const cli = (...args) =>
  spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8", input: "" });
const rows = Array.from(
  { length: 2000 },
  (_, i) => `${i},name ${i},${i % 7 === 0 ? "ERROR" : "ok"}`,
);
const sample = path.join(cwd, "table.csv");
writeFileSync(sample, `id,name,status\n${rows.join("\n")}\n`);

describe("tool-stub CLI", () => {
  it("stub prints a stub without storing anything", () => {
    const run = cli("stub", sample, "--tool-name", "cat");
    assert.equal(run.status, 0, run.stderr);
    assert.match(
      run.stdout,
      /^\[OpenViking tool result externalized\]\ntool_name: cat\nkind: csv\n/,
    );
    assert.equal(existsSync(path.join(cwd, ".tool-stub")), false);
  });

  let ref;
  it("externalize stores into ./.tool-stub and prints the ref", () => {
    const run = cli(
      "externalize",
      sample,
      "--session",
      "s1",
      "--tool-name",
      "cat",
      "--tool-id",
      "c1",
      "--json",
    );
    assert.equal(run.status, 0, run.stderr);
    const part = JSON.parse(run.stdout);
    assert.equal(part.truncated, true);
    ref = part.outputRef;
    assert.match(ref, /\/sessions\/s1\/tool-results\/tr_c1_[0-9a-f]{16}$/);
    const id = ref.split("/").pop();
    assert.ok(existsSync(path.join(cwd, ".tool-stub", "s1", "tool-results", id, "output.txt")));
    assert.ok(existsSync(path.join(cwd, ".tool-stub", "s1", "tool-results", id, "metadata.json")));
  });

  it("read, search and list find it again", () => {
    const read = cli("read", ref, "--session", "s1", "--offset", "0", "--limit", "14", "--json");
    assert.equal(read.status, 0, read.stderr);
    assert.equal(JSON.parse(read.stdout).content, "id,name,status");
    const search = cli("search", ref, "ERROR", "--session", "s1", "--limit", "3", "--context", "4");
    assert.equal(search.status, 0, search.stderr);
    assert.match(search.stdout, /^3 match\(es\)/);
    const list = cli("list", "--session", "s1", "--tool-name", "cat", "--json");
    assert.equal(JSON.parse(list.stdout).toolResults.length, 1);
  });

  it("reads lines, rows and grep matches, and searches the whole session", () => {
    const lines = cli("read", ref, "--session", "s1", "--line", "3", "--lines", "2", "--numbered");
    assert.equal(lines.status, 0, lines.stderr);
    assert.match(
      lines.stdout,
      /lines 3\.\.4 of 2001; next: --line 5 --column 1\]\n {5}3\t1,name 1,ok\n {5}4\t2,name 2,ok\n$/,
    );
    const table = cli("read", ref, "--session", "s1", "--rows", "8:1", "--json");
    assert.equal(JSON.parse(table.stdout).content, "id,name,status\n7,name 7,ERROR");
    const grep = cli(
      "search",
      ref,
      "^\\d+,name 2\\d,error$",
      "--session",
      "s1",
      "--regex",
      "-i",
      "--limit",
      "1",
    );
    assert.equal(grep.status, 0, grep.stderr);
    assert.match(grep.stdout, /^1 match\(es\) in tr_c1_[0-9a-f]{16} \(2 in all\)\n23:1 @/);
    const all = cli("search-all", "name 1999", "--session", "s1", "--json");
    assert.equal(JSON.parse(all.stdout).results[0].ref, ref);
    const bad = cli("search", ref, "(", "--session", "s1", "--regex");
    assert.notEqual(bad.status, 0);
    assert.match(bad.stderr, /INVALID_ARGUMENT: invalid regex/);
  });

  it("reads stdin with -", () => {
    const run = spawnSync(process.execPath, [CLI, "stub", "-"], {
      cwd,
      encoding: "utf8",
      input: '{"a": 1}',
    });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /kind: json/);
  });

  it("errors go to stderr with a non-zero exit", () => {
    const missing = cli("read", "tr_nothing_here", "--session", "s1");
    assert.notEqual(missing.status, 0);
    assert.match(missing.stderr, /NOT_FOUND/);
    assert.equal(missing.stdout, "");
    const bad = cli("read", "../../etc/passwd");
    assert.notEqual(bad.status, 0);
    assert.match(bad.stderr, /INVALID_ARGUMENT/);
    const unknown = cli("frobnicate");
    assert.notEqual(unknown.status, 0);
    assert.match(unknown.stderr, /unknown command/);
    const badInt = cli("read", ref, "--session", "s1", "--offset", "abc");
    assert.match(badInt.stderr, /--offset takes an integer/);
  });
});

describe("tool-stub CLI lifecycle", () => {
  it("usage, prune and delete", () => {
    const store = ["--store", path.join(cwd, "lifecycle"), "--session", "life"];
    for (const id of ["a", "b", "c"]) {
      const run = cli(
        "externalize",
        sample,
        ...store,
        "--tool-id",
        id,
        "--tool-name",
        "cat",
        "--threshold",
        "0",
      );
      assert.equal(run.status, 0, run.stderr);
    }
    // Identical outputs under distinct tool ids are three results.
    const usage = JSON.parse(cli("usage", ...store, "--json").stdout);
    assert.equal(usage.results, 3);
    assert.ok(usage.bytes > usage.chars);
    const pruned = JSON.parse(cli("prune", ...store, "--max-results", "2", "--json").stdout);
    assert.equal(pruned.deleted.length, 1);
    const [first] = JSON.parse(cli("list", ...store, "--json").stdout).toolResults;
    const deleted = cli("delete", first.storage_uri, ...store);
    assert.equal(deleted.status, 0, deleted.stderr);
    assert.notEqual(cli("read", first.storage_uri, ...store).status, 0);
    assert.equal(cli("delete", first.storage_uri, ...store).status, 3);
    assert.equal(cli("delete", "--all", ...store).status, 0);
    assert.equal(JSON.parse(cli("usage", ...store, "--json").stdout).results, 0);
  });
});

/** Runs the CLI with `total` bytes of generated text piped to stdin (never all in memory); resolves { status, stderr }. */
function cliWithGeneratedStdin(args, total) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd,
      stdio: ["pipe", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (text) => (stderr += text));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stderr }));
    // The CLI stops reading once it is over its limit: the pipe closing early is expected.
    child.stdin.on("error", () => {});
    const block = Buffer.alloc(1 << 20, "log line 0123456789\n");
    let sent = 0;
    const pump = () => {
      while (sent < total) {
        const chunk = block.subarray(0, Math.min(block.length, total - sent));
        sent += chunk.length;
        if (!child.stdin.write(chunk)) return child.stdin.once("drain", pump);
      }
      child.stdin.end();
    };
    pump();
  });
}

describe("tool-stub CLI input and stores", () => {
  it("refuses a binary file on stdin (not UTF-8) instead of storing U+FFFD text", () => {
    const store = path.join(cwd, "binary-store");
    const run = spawnSync(
      process.execPath,
      [CLI, "externalize", "-", "--store", store, "--threshold", "0"],
      {
        cwd,
        input: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0x00, 0xfe]),
      },
    );
    assert.equal(run.status, 2, String(run.stderr));
    assert.match(String(run.stderr), /INVALID_ARGUMENT: the input is not UTF-8 text/);
    assert.equal(existsSync(store), false, "nothing stored");
    // A UTF-8 BOM is content, kept exactly.
    const bom = spawnSync(
      process.execPath,
      [CLI, "externalize", "-", "--store", store, "--threshold", "0", "--json"],
      { cwd, input: "\uFEFFtext", encoding: "utf8" },
    );
    assert.equal(bom.status, 0, bom.stderr);
    const read = cli("read", JSON.parse(bom.stdout).outputRef, "--store", store, "--json");
    assert.equal(JSON.parse(read.stdout).content, "\uFEFFtext");
  });

  it("reads to the end with --limit -1, as the API does", () => {
    const store = path.join(cwd, "limit-store");
    const stored = spawnSync(
      process.execPath,
      [CLI, "externalize", "-", "--store", store, "--threshold", "0", "--json"],
      { cwd, input: "0123456789", encoding: "utf8" },
    );
    const ref = JSON.parse(stored.stdout).outputRef;
    const run = cli("read", ref, "--store", store, "--offset", "3", "--limit", "-1", "--json");
    assert.equal(run.status, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).content, "3456789");
  });

  for (const megabytes of [300, 600]) {
    it(`answers TOO_LARGE for ${megabytes} MB on stdin`, async () => {
      const store = path.join(cwd, `big-store-${megabytes}`);
      const run = await cliWithGeneratedStdin(
        ["externalize", "-", "--store", store],
        megabytes * 1e6,
      );
      assert.equal(run.status, 2, run.stderr);
      assert.match(run.stderr, /^tool-stub: TOO_LARGE: the input is over 268435456 bytes/);
      assert.equal(existsSync(store), false);
    });
  }

  it("fails fast with STORE_FAILED on a store folder it cannot create (--store /proc/x)", {
    skip: existsSync("/proc/self") ? false : "no /proc here",
  }, () => {
    const run = spawnSync(
      process.execPath,
      [CLI, "externalize", "-", "--store", "/proc/tool-stub-x", "--threshold", "0"],
      {
        cwd,
        encoding: "utf8",
        input: "some output",
        timeout: 20_000,
      },
    );
    assert.equal(run.signal, null, "it finished on its own (it used to spin forever)");
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /STORE_FAILED: .*ENOENT/);
  });
});

describe("tool-stub CLI sessions", () => {
  const dir = path.join(cwd, "sessions");
  const store = ["--store", dir];
  const externalize = (session, text) => {
    const file = path.join(cwd, `${session}.txt`);
    writeFileSync(file, text);
    const run = cli(
      "externalize",
      file,
      ...store,
      "--session",
      session,
      "--threshold",
      "0",
      "--json",
    );
    assert.equal(run.status, 0, run.stderr);
    return JSON.parse(run.stdout);
  };
  const alpha = externalize("alpha", "alpha line\n".repeat(50));
  const beta = externalize("beta", "beta line\n".repeat(70));

  it("a ref carries its session: read, search and delete need no --session", () => {
    assert.match(alpha.outputRef, /\/sessions\/alpha\/tool-results\//);
    const read = cli("read", alpha.outputRef, ...store, "--limit", "10", "--json");
    assert.equal(read.status, 0, read.stderr);
    assert.equal(JSON.parse(read.stdout).content, "alpha line");
    const search = cli("search", beta.outputRef, "beta", ...store, "--limit", "1", "--json");
    assert.equal(search.status, 0, search.stderr);
    assert.equal(JSON.parse(search.stdout).totalMatches, 70);
    const lines = cli("read", beta.outputRef, ...store, "--line", "2", "--lines", "1");
    assert.equal(lines.status, 0, lines.stderr);
    // A --session that contradicts the ref is refused, saying whose result it is.
    const wrong = cli("read", alpha.outputRef, ...store, "--session", "beta");
    assert.equal(wrong.status, 2);
    assert.match(wrong.stderr, /INVALID_ARGUMENT: .* is a result of session alpha/);
    // A bare id still needs its session.
    const bare = cli(
      "read",
      alpha.outputRef.split("/").at(-1),
      ...store,
      "--session",
      "alpha",
      "--json",
    );
    assert.equal(bare.status, 0, bare.stderr);
  });

  it("default tool ids do not repeat the hash", () => {
    const id = alpha.outputRef.split("/").at(-1);
    assert.equal(id, `tr_cli_${alpha.sha256.slice(0, 16)}`);
  });

  it("list and usage without --session show every session", () => {
    const usage = cli("usage", ...store, "--json");
    assert.equal(usage.status, 0, usage.stderr);
    const { sessions, total } = JSON.parse(usage.stdout);
    assert.deepEqual(
      sessions.map((s) => [s.sessionId, s.results]),
      [
        ["alpha", 1],
        ["beta", 1],
      ],
    );
    assert.equal(total.results, 2);
    assert.equal(total.chars, 550 + 700);
    const text = cli("usage", ...store).stdout;
    assert.match(text, /^alpha: 1 result\(s\), 550 chars/m);
    assert.match(text, /^2 session\(s\): 2 result\(s\), 1250 chars/m);
    const list = JSON.parse(cli("list", ...store, "--json").stdout);
    assert.deepEqual(
      list.sessions.map((s) => [s.sessionId, s.toolResults.map((r) => r.storage_uri)]),
      [
        ["alpha", [alpha.outputRef]],
        ["beta", [beta.outputRef]],
      ],
    );
    assert.match(
      cli("list", ...store).stdout,
      /^session beta: 1 result\(s\)\n.*tool-results\/tr_cli_/m,
    );
    assert.match(cli("list", "--store", path.join(cwd, "empty")).stdout, /no sessions in/);
  });

  it("--json on every command, errors included", () => {
    for (const args of [
      ["stub", path.join(cwd, "alpha.txt")],
      ["search-all", "line", "--session", "alpha"],
      ["prune", "--session", "alpha"],
      ["delete", beta.outputRef],
    ]) {
      const run = cli(...args, ...store, "--json");
      assert.equal(run.status, 0, `${args[0]}: ${run.stderr}`);
      assert.equal(typeof JSON.parse(run.stdout), "object", args[0]);
    }
    const missing = cli("read", beta.outputRef, ...store, "--json");
    assert.equal(missing.status, 3);
    assert.equal(JSON.parse(missing.stderr).error.code, "NOT_FOUND");
  });

  it("a --store that is not a folder is STORE_FAILED, with one clear message", () => {
    const file = path.join(cwd, "a-file");
    writeFileSync(file, "not a store\n");
    const loop = path.join(cwd, "loop");
    symlinkSync(loop, loop);
    const dangling = path.join(cwd, "dangling");
    symlinkSync(path.join(cwd, "nowhere"), dangling);
    for (const [dir, why] of [
      [file, /it is a file, not a folder/],
      [path.join(file, "sub"), /it is a path through a file/],
      [loop, /it is a symbolic link loop/],
      [dangling, /it is a symbolic link to nothing/],
    ]) {
      for (const command of [["list"], ["usage"], ["search-all", "x"], ["read", "tr_x"]]) {
        const run = cli(...command, "--store", dir);
        assert.equal(run.status, 2, `${command} ${dir}: ${run.stdout}`);
        assert.equal(run.stdout, "");
        const lines = run.stderr.trim().split("\n");
        assert.equal(lines.length, 1, run.stderr);
        assert.match(lines[0], /^tool-stub: STORE_FAILED: --store .* cannot be a store's folder/);
        assert.match(lines[0], why);
      }
    }
  });
});

describe("tool-stub CLI: search-all's sessions, reads past the end", () => {
  const store2 = ["--store", path.join(cwd, "past-end")];
  const externalize = (session, text) => {
    const file = path.join(cwd, `${session}-2.txt`);
    writeFileSync(file, text);
    const run = cli(
      "externalize",
      file,
      ...store2,
      "--session",
      session,
      "--threshold",
      "0",
      "--json",
    );
    assert.equal(run.status, 0, run.stderr);
    return JSON.parse(run.stdout);
  };
  externalize("alpha", "alpha line\n".repeat(50));
  const gamma = externalize("gamma", "gamma line\n".repeat(70));

  it("search-all without --session searches every session, as list does", () => {
    const all = cli("search-all", "line", ...store2, "--json");
    assert.equal(all.status, 0, all.stderr);
    const { sessions } = JSON.parse(all.stdout);
    const matches = Object.fromEntries(sessions.map((s) => [s.sessionId, s.totalMatches]));
    assert.equal(matches.alpha, 50);
    assert.equal(matches.gamma, 70);
    assert.deepEqual(
      sessions.map((s) => s.sessionId),
      JSON.parse(cli("list", ...store2, "--json").stdout).sessions.map((s) => s.sessionId),
      "the sessions list shows",
    );
    assert.match(cli("search-all", "line", ...store2).stdout, /^session gamma: 70 match\(es\)/m);
    const one = JSON.parse(
      cli("search-all", "line", ...store2, "--session", "gamma", "--json").stdout,
    );
    assert.equal(one.totalMatches, 70);
  });

  it("a read past the end is INVALID_ARGUMENT, not an empty window", () => {
    // gamma: 70 lines of 11 chars (770 chars).
    for (const [args, pattern] of [
      [["--line", "600"], /--line 600 is past the end: .* has 70 line\(s\)/],
      [["--line", "71", "--lines", "5"], /--line 71 is past the end/],
      [["--offset", "770"], /--offset 770 is past the end: .* has 770 char\(s\)/],
      [["--offset", "5000", "--limit", "3"], /--offset 5000 is past the end/],
    ]) {
      const run = cli("read", gamma.outputRef, ...store2, ...args);
      assert.equal(run.status, 2, `${args}: ${run.stdout}${run.stderr}`);
      assert.match(run.stderr, /^tool-stub: INVALID_ARGUMENT: /);
      assert.match(run.stderr, pattern);
      assert.equal(run.stdout, "");
    }
    // The last line and the last char still read.
    assert.equal(cli("read", gamma.outputRef, ...store2, "--line", "70").status, 0);
    assert.equal(cli("read", gamma.outputRef, ...store2, "--offset", "769").status, 0);
  });
});

describe("tool-stub CLI token budgets", () => {
  // 600 lines of log: 16,800 chars, under the default 20,000-char threshold, about 4,200 tokens.
  const log = path.join(cwd, "tokens.log");
  const lines = Array.from({ length: 600 }, (_, i) => `line ${i}: status ok, retry ${i % 5}`);
  writeFileSync(log, `${lines.join("\n")}\n`);
  const store = ["--store", path.join(cwd, "token-store"), "--session", "tok"];

  it("--threshold-tokens stores an output the char threshold keeps inline", () => {
    const chars = cli("externalize", log, ...store, "--json");
    assert.equal(chars.status, 0, chars.stderr);
    assert.equal(JSON.parse(chars.stdout).truncated, false);
    const tokens = cli("externalize", log, ...store, "--threshold-tokens", "1000", "--json");
    assert.equal(tokens.status, 0, tokens.stderr);
    const part = JSON.parse(tokens.stdout);
    assert.equal(part.truncated, true);
    assert.equal(part.externalizedReason, "single_threshold");
    const [, counted] = /\noriginal_tokens: (\d+)\n/.exec(part.output) ?? [];
    assert.ok(Number(counted) > 1000 && Number(counted) < 16_800, part.output.slice(0, 300));
    // Named, with the unit and another tokenizer: the same decision, cl100k's count.
    const named = cli(
      "externalize",
      log,
      ...store,
      "--budget-unit",
      "tokens",
      "--threshold-tokens",
      "1000",
      "--tokenizer",
      "cl100k",
      "--json",
    );
    assert.equal(named.status, 0, named.stderr);
    assert.match(JSON.parse(named.stdout).output, /\noriginal_tokens: \d+\n/);
    // Over the threshold in chars, within it in tokens: inline, and the note says tokens.
    const within = cli("externalize", log, ...store, "--threshold-tokens", "100000");
    assert.equal(within.status, 0, within.stderr);
    assert.match(within.stdout, /kept inline: its tokens are within the threshold/);
  });

  it("refuses bad or contradictory token flags with INVALID_ARGUMENT, naming the flag", () => {
    const cases = [
      [["--budget-unit", "words"], /--budget-unit takes chars or tokens \(got words\)/],
      [["--tokenizer", "p50k"], /--tokenizer takes o200k or cl100k \(got p50k\)/],
      [["--threshold-tokens", "many"], /--threshold-tokens takes a non-negative integer/],
      [["--threshold-tokens", "-5"], /--threshold-tokens takes a non-negative integer/],
      [["--budget-unit", "chars", "--threshold-tokens", "5"], /--threshold-tokens counts tokens/],
      [["--threshold", "5", "--threshold-tokens", "5"], /--threshold counts chars/],
    ];
    for (const [flags, message] of cases) {
      const run = cli("externalize", log, ...store, ...flags, "--json");
      assert.notEqual(run.status, 0, flags.join(" "));
      const { error } = JSON.parse(run.stderr);
      assert.equal(error.code, "INVALID_ARGUMENT", flags.join(" "));
      assert.match(error.message, message);
    }
  });
});
