// Runs the corpus through a tool-stub package (one output per turn, thresholdChars 1000, as the
// synopsis-facts benchmark does) and scores the stubs: facts met, the kind given against the kind
// expected, and near-miss claims (a stub body matching a mustNotMatch regex).

import { testFact } from "./corpus.mjs";

const HEADER_KEYS = /^(tool_name|kind|original_chars|preview_chars|ref|sha256|reason):( |$)/;
const BANNER = "[OpenViking tool result externalized]";
/** Kinds that say "no specific format recognised". */
export const FALLBACK_KINDS = new Set(["text", "unknown"]);

/**
 * A stub's body (what facts may match) and its masked header: the standard header lines and the
 * Explore section are masked, so no fact is met by the tool name, a size or the ref.
 */
export function splitStub(stub, ref) {
  const kept = [];
  const masked = [];
  let inHeader = true;
  let inExplore = false;
  for (const line of stub.split("\n")) {
    if (inHeader) {
      if (line.trim() === "") inHeader = false;
      else if (line === BANNER || HEADER_KEYS.test(line)) {
        masked.push(line);
        continue;
      }
      kept.push(line);
    } else if (line.trim() === "Explore:") {
      inExplore = true;
      masked.push(line);
    } else if (inExplore) {
      if (line.trim() === "") {
        inExplore = false;
        kept.push(line);
      } else masked.push(line);
    } else kept.push(line);
  }
  let body = kept.join("\n");
  if (ref) body = body.split(ref).join("<ref>");
  return { body, header: masked.join("\n") };
}

/** Stub lines that quote the output verbatim (the reference's excerpts) rather than claim about it. */
const QUOTE_LINE = /^- (Opening excerpt|Closing excerpt|Main text):/;

/**
 * What a stub claims: its body without the verbatim excerpts. A near-miss's `mustNotMatch` is
 * checked on this, so a guide whose excerpt quotes "error TS2322" is not held to have claimed
 * errors, while "Errors: 5" on a line of its own is a claim.
 */
export function claimText(body) {
  return body
    .split("\n")
    .filter((line) => !QUOTE_LINE.test(line.trim()))
    .join("\n");
}

/** Externalizes every entry through `mod` (a tool-stub package) in `mode`; one result per entry. */
export async function runCorpus(mod, mode, entries) {
  const { ToolStub, MemoryStore } = mod;
  const config = { thresholdChars: 1000 };
  if (mode === "enhanced") config.synopsisMode = "enhanced";
  const ts = new ToolStub({ store: new MemoryStore(), sessionId: "corpus", config });
  const results = [];
  for (const [i, e] of entries.entries()) {
    const [part] = await ts.externalize(
      [{ toolId: `c${i + 1}`, toolName: e.toolName, output: e.content, mimeType: e.mimeType }],
      { messageId: `m${i + 1}` },
    );
    const stub = part.output;
    const externalized = Boolean(part.outputRef) && stub !== e.content;
    const { body, header } = splitStub(stub, part.outputRef);
    const kind = (/^kind: (.*)$/m.exec(header) || [])[1] || "?";
    const facts = e.facts.map((f) => ({
      id: f.id,
      fact: f.fact,
      pass: externalized && testFact(f, body),
    }));
    const claims = claimText(body);
    const violations = (e.mustNotMatch ?? []).filter((src) => new RegExp(src, "i").test(claims));
    results.push({
      file: e.file,
      format: e.format,
      family: e.family,
      nearMiss: Boolean(e.nearMiss),
      expectedKind: e.kind,
      kind,
      kindOk: kind === e.kind || (e.alsoKinds ?? []).includes(kind),
      externalized,
      stub,
      stubChars: stub.length,
      facts,
      violations,
    });
  }
  return results;
}

/**
 * Enhanced against reference, output by output: the facts the reference stub meets and the
 * enhanced stub misses (an enhanced stub must not say less), and the stubs over the length bound.
 */
export function compareModes(reference, enhanced, ratio = 1.2) {
  const lost = [];
  const oversized = [];
  for (const [i, e] of enhanced.entries()) {
    const r = reference[i];
    if (r.file !== e.file) throw new Error(`results out of order: ${r.file} vs ${e.file}`);
    const ids = r.facts.filter((f, k) => f.pass && !e.facts[k].pass).map((f) => f.id);
    if (ids.length) lost.push({ file: e.file, format: e.format, ids });
    if (e.stubChars > r.stubChars * ratio)
      oversized.push({ file: e.file, enhanced: e.stubChars, reference: r.stubChars });
  }
  return { lost, lostFacts: lost.reduce((n, l) => n + l.ids.length, 0), oversized };
}

/** The comparison as text lines. */
export function compareReport(cmp) {
  const out = [];
  for (const l of cmp.lost)
    out.push(`reference meets, enhanced misses: ${l.file} [${l.format}] ${l.ids.join(" ")}`);
  for (const o of cmp.oversized)
    out.push(`over the length bound: ${o.file} ${o.enhanced} chars vs reference ${o.reference}`);
  out.push(
    `enhanced vs reference: ${cmp.lostFacts} facts lost in ${cmp.lost.length} outputs, ${cmp.oversized.length} stubs over 1.2x`,
  );
  return out;
}

const pct = (n, d) => (d === 0 ? 0 : Math.round((1000 * n) / d) / 10);

/** Totals of a run: coverage overall and per family, kind mismatches, the confusion table. */
export function summarize(results) {
  const families = new Map();
  let covered = 0;
  let total = 0;
  for (const r of results) {
    const f = families.get(r.family) ?? {
      family: r.family,
      outputs: 0,
      covered: 0,
      total: 0,
      kindOk: 0,
    };
    families.set(r.family, f);
    f.outputs++;
    if (r.kindOk) f.kindOk++;
    for (const fact of r.facts) {
      f.total++;
      total++;
      if (fact.pass) {
        f.covered++;
        covered++;
      }
    }
  }
  const confusion = new Map();
  for (const r of results) {
    const row = confusion.get(r.expectedKind) ?? new Map();
    confusion.set(r.expectedKind, row);
    row.set(r.kind, (row.get(r.kind) ?? 0) + 1);
  }
  const mismatched = results.filter((r) => !r.kindOk);
  return {
    outputs: results.length,
    covered,
    total,
    percent: pct(covered, total),
    families: [...families.values()].map((f) => ({ ...f, percent: pct(f.covered, f.total) })),
    confusion,
    wrongKinds: mismatched.filter((r) => !FALLBACK_KINDS.has(r.kind)),
    genericKinds: mismatched.filter((r) => FALLBACK_KINDS.has(r.kind)),
    mismatched,
    violations: results.filter((r) => r.violations.length > 0),
    notExternalized: results.filter((r) => !r.externalized),
  };
}

/** The report as text lines: per family, the confusion table, mismatches, violations, totals. */
export function report(mode, results, { verbose = false } = {}) {
  const s = summarize(results);
  const out = [];
  out.push(`synopsis-corpus: mode ${mode}, ${s.outputs} outputs, ${s.total} facts`);
  if (verbose) {
    for (const r of results) {
      const met = r.facts.filter((f) => f.pass).length;
      const mark = r.kindOk ? "" : `  KIND ${r.kind} (want ${r.expectedKind})`;
      out.push(`${r.file}  [${r.format}]  kind ${r.kind}  facts ${met}/${r.facts.length}${mark}`);
      for (const f of r.facts) out.push(`    ${f.pass ? "ok  " : "MISS"} ${f.id}: ${f.fact}`);
      for (const v of r.violations) out.push(`    CLAIM stub matches /${v}/`);
    }
    out.push("");
  }
  out.push("family        outputs  kind-ok  coverage");
  for (const f of s.families)
    out.push(
      `${f.family.padEnd(12)}  ${String(f.outputs).padStart(7)}  ${String(f.kindOk).padStart(7)}  ${String(f.percent).padStart(5)}% (${f.covered}/${f.total})`,
    );
  out.push("");
  const given = [...new Set(results.map((r) => r.kind))].sort();
  // Each column as wide as its kind's name; the first as wide as the longest expected kind.
  const w = Math.max(8, ...[...s.confusion.keys()].map((k) => k.length));
  out.push(`confusion (rows: expected kind, columns: kind given)`);
  out.push(`${"expected".padEnd(w)} ${given.join(" ")}`);
  for (const [exp, row] of [...s.confusion.entries()].sort())
    out.push(
      `${exp.padEnd(w)} ${given.map((k) => String(row.get(k) ?? "").padStart(k.length)).join(" ")}`.trimEnd(),
    );
  out.push("");
  for (const r of s.wrongKinds)
    out.push(`wrong kind: ${r.file} [${r.format}] ${r.kind}, want ${r.expectedKind}`);
  for (const r of s.genericKinds)
    out.push(`generic kind: ${r.file} [${r.format}] ${r.kind}, want ${r.expectedKind}`);
  for (const r of s.violations)
    out.push(
      `near-miss claim: ${r.file} [${r.format}] matches ${r.violations.map((v) => `/${v}/`).join(" ")}`,
    );
  for (const r of s.notExternalized) out.push(`not externalized: ${r.file}`);
  out.push(
    `kinds: ${s.outputs - s.mismatched.length}/${s.outputs} as expected, ${s.wrongKinds.length} wrong, ${s.genericKinds.length} generic; near-miss claims: ${s.violations.length}`,
  );
  out.push(`coverage ${s.percent}% (${s.covered}/${s.total} facts)`);
  return { lines: out, summary: s };
}
