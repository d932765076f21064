// The corpus: every family's outputs, generated deterministically in memory, and the rules an
// entry must follow (size, fact count, grounded evidence). Nothing here reads a file or a clock.
//
// An entry: { file, format, family, mimeType (undefined = the tool sent none), toolName,
//   kind (the kind enhanced mode must give), alsoKinds (other kinds that are right too, for the
//   few formats that are two things at once, like JSON Lines logs), content, facts: [synopsis-facts facts],
//   mustNotMatch: [regex sources a stub body must not match] (near-misses), nearMiss: bool }

import { logs } from "./families/logs.mjs";
import { commands } from "./families/commands.mjs";
import { build } from "./families/build.mjs";
import { documents } from "./families/documents.mjs";
import { code } from "./families/code.mjs";
import { structured } from "./families/structured.mjs";
import { nearMisses } from "./families/near-misses.mjs";

export const FAMILIES = [logs, commands, build, documents, code, structured, nearMisses];

export const MIN_BYTES = 2 * 1024;
export const MAX_BYTES = 60 * 1024;

/** All entries, in a fixed order. */
export function buildCorpus() {
  const entries = [];
  for (const family of FAMILIES) for (const e of family()) entries.push(e);
  return entries;
}

/** Where `evidence` (flags gm) first matches and how many times, or null when it never does. */
function evidenceOf(re, text) {
  let n = 0;
  let first = -1;
  for (const m of text.matchAll(new RegExp(re, "gm"))) {
    if (first < 0) first = m.index;
    n++;
  }
  if (n === 0) return null;
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < first; i = text.indexOf("\n", i + 1)) line++;
  return { count: n, line };
}

/** Problems with the corpus itself (empty when every entry follows the rules). */
export function corpusProblems(entries) {
  const problems = [];
  const files = new Set();
  const ids = new Set();
  for (const e of entries) {
    const where = e.file;
    if (files.has(e.file)) problems.push(`${where}: duplicate file name`);
    files.add(e.file);
    for (const k of ["file", "format", "family", "toolName", "kind", "content"])
      if (typeof e[k] !== "string" || e[k] === "") problems.push(`${where}: missing ${k}`);
    const bytes = Buffer.byteLength(e.content ?? "", "utf8");
    if (bytes < MIN_BYTES || bytes > MAX_BYTES)
      problems.push(`${where}: ${bytes} bytes, want ${MIN_BYTES}-${MAX_BYTES}`);
    if (!e.nearMiss && (e.facts.length < 3 || e.facts.length > 8))
      problems.push(`${where}: ${e.facts.length} facts (want 3-8)`);
    if (e.nearMiss && e.facts.length + (e.mustNotMatch?.length ?? 0) === 0)
      problems.push(`${where}: a near-miss needs a fact or a mustNotMatch`);
    for (const src of e.mustNotMatch ?? []) {
      try {
        new RegExp(src, "i");
      } catch (err) {
        problems.push(`${where}: bad mustNotMatch ${src}: ${err.message}`);
      }
    }
    for (const f of e.facts) {
      const at = `${where} fact ${f.id}`;
      if (ids.has(f.id)) problems.push(`${at}: duplicate id`);
      ids.add(f.id);
      if (f.fixture !== e.file) problems.push(`${at}: fixture ${f.fixture}`);
      if (Array.isArray(f.any) === (typeof f.regex === "string"))
        problems.push(`${at}: needs exactly one of any/regex`);
      if (typeof f.regex === "string") {
        try {
          new RegExp(f.regex, "i");
        } catch (err) {
          problems.push(`${at}: bad regex: ${err.message}`);
        }
      }
      if (typeof f.evidence !== "string") {
        problems.push(`${at}: no evidence`);
        continue;
      }
      const found = evidenceOf(f.evidence, e.content);
      if (!found) problems.push(`${at}: evidence /${f.evidence}/ not in the output`);
      else {
        if (f.evidenceCount !== undefined && found.count !== f.evidenceCount)
          problems.push(`${at}: evidence found ${found.count} times, fact says ${f.evidenceCount}`);
        if (f.evidenceLine !== undefined && found.line !== f.evidenceLine)
          problems.push(`${at}: evidence first on line ${found.line}, fact says ${f.evidenceLine}`);
      }
      // A fact the tool name alone meets proves nothing about the synopsis.
      if (testFact(f, e.toolName)) problems.push(`${at}: met by the tool name alone`);
    }
  }
  return problems;
}

/** Whether `text` meets fact `f` (synopsis-facts rules: `any` substrings or a regex, both case-insensitive). */
export function testFact(f, text) {
  if (Array.isArray(f.any)) {
    const t = text.toLowerCase();
    return f.any.some((a) => t.includes(a.toLowerCase()));
  }
  return new RegExp(f.regex, "i").test(text);
}
