#!/usr/bin/env node
// The corpus by hand: node tests/synopsis-corpus/check.mjs [--mode reference|enhanced] [--verbose]
//   [--family NAME] [--only TEXT] [--json] [--stubs DIR] [--write DIR] [--compare]
//
// --verbose lists every fact (ok/MISS) and near-miss claim; --family/--only narrow the run to one
// family or to files whose name contains TEXT; --stubs writes each stub to DIR; --write writes the
// outputs with index.json and facts.json (the synopsis-facts layout) to DIR and runs nothing else;
// --compare also runs reference mode and lists the facts its stubs meet that enhanced stubs miss.
// The package is $TOOL_STUB_PKG (a package folder) or the repository's pkg/ (bash scripts/build.sh).
// Exit 1 when the corpus breaks its own rules (sizes, fact counts, ungrounded facts).

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildCorpus, corpusProblems } from "./corpus.mjs";
import { compareModes, compareReport, report, runCorpus } from "./harness.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));

function parseArgs(argv) {
  const o = {
    mode: "enhanced",
    verbose: false,
    json: false,
    family: null,
    only: null,
    stubs: null,
    write: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === "--mode") o.mode = val();
    else if (a === "--verbose" || a === "-v") o.verbose = true;
    else if (a === "--json") o.json = true;
    else if (a === "--compare") o.compare = true;
    else if (a === "--family") o.family = val();
    else if (a === "--only") o.only = val();
    else if (a === "--stubs") o.stubs = resolve(val());
    else if (a === "--write") o.write = resolve(val());
    else throw new Error(`unknown argument ${a}`);
  }
  if (o.mode !== "reference" && o.mode !== "enhanced")
    throw new Error(`--mode must be reference or enhanced`);
  return o;
}

async function loadPackage() {
  const dir = resolve(process.env.TOOL_STUB_PKG ?? join(HERE, "../../pkg"));
  const pj = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const dot = pj.exports?.["."];
  const rel =
    (typeof dot === "string"
      ? dot
      : (dot?.node?.default ?? dot?.node ?? dot?.import ?? dot?.default)) ?? pj.main;
  return import(pathToFileURL(join(dir, typeof rel === "string" ? rel : "js/node.js")).href);
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  let entries = buildCorpus();
  const problems = corpusProblems(entries);
  for (const p of problems) process.stderr.write(`corpus: ${p}\n`);
  if (opts.family) entries = entries.filter((e) => e.family === opts.family);
  if (opts.only) entries = entries.filter((e) => e.file.includes(opts.only));
  if (opts.write) {
    mkdirSync(opts.write, { recursive: true });
    for (const e of entries) writeFileSync(join(opts.write, e.file), e.content);
    const index = entries.map(({ content, facts, ...rest }) => ({
      ...rest,
      category: rest.family,
    }));
    writeFileSync(join(opts.write, "index.json"), `${JSON.stringify(index, null, 2)}\n`);
    writeFileSync(
      join(opts.write, "facts.json"),
      `${JSON.stringify(
        entries.flatMap((e) => e.facts),
        null,
        2,
      )}\n`,
    );
    process.stdout.write(`wrote ${entries.length} outputs to ${opts.write}\n`);
    process.exit(problems.length ? 1 : 0);
  }
  const mod = await loadPackage();
  const results = await runCorpus(mod, opts.mode, entries);
  if (opts.stubs) {
    mkdirSync(opts.stubs, { recursive: true });
    for (const r of results) writeFileSync(join(opts.stubs, `${r.file}.stub.txt`), r.stub);
  }
  const { lines, summary } = report(opts.mode, results, { verbose: opts.verbose });
  if (opts.json) {
    const { confusion, ...rest } = summary;
    const plain = Object.fromEntries(
      [...confusion].map(([k, row]) => [k, Object.fromEntries(row)]),
    );
    const brief = (xs) =>
      xs.map((r) => ({
        file: r.file,
        kind: r.kind,
        expectedKind: r.expectedKind,
        violations: r.violations,
      }));
    process.stdout.write(
      `${JSON.stringify({ mode: opts.mode, ...rest, wrongKinds: brief(rest.wrongKinds), genericKinds: brief(rest.genericKinds), mismatched: brief(rest.mismatched), violations: brief(rest.violations), notExternalized: brief(rest.notExternalized), confusion: plain, results: results.map(({ stub, ...r }) => r) }, null, 2)}\n`,
    );
  } else process.stdout.write(`${lines.join("\n")}\n`);
  if (opts.compare) {
    const reference =
      opts.mode === "reference" ? results : await runCorpus(mod, "reference", entries);
    const enhanced = opts.mode === "enhanced" ? results : await runCorpus(mod, "enhanced", entries);
    process.stdout.write(`${compareReport(compareModes(reference, enhanced)).join("\n")}\n`);
  }
  process.exit(problems.length ? 1 : 0);
}

main().catch((e) => {
  process.stderr.write(`check.mjs: ${e?.stack ?? e}\n`);
  process.exit(1);
});
