// Shared by the soak scripts (scripts/soak.sh): deterministic outputs, the store's layout check and
// the invariants checked after every trial. The package under test is the built one (pkg/).
import { readdirSync, lstatSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const PKG = path.join(ROOT, "pkg/js/node.js");

/** A small deterministic PRNG (mulberry32). */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Output number `n` of pool `pool`: text, JSON, CSV or a log of 2-300 KB, some holding astral
 * characters, U+FFFD or lone surrogates. The same (pool, n) is always the same text, so a trial
 * that repeats it goes through dedup, and a checker can rebuild what a ref must read back.
 */
export function output(pool, n) {
  const rnd = random(pool * 100_003 + n);
  const size = 2_000 + Math.floor(rnd() * rnd() * 300_000);
  const kind = Math.floor(rnd() * 4);
  const odd = ["", "😀", "\uFFFD", "\uD800", "é"][Math.floor(rnd() * 5)];
  let text =
    kind === 1
      ? `{"pool":${pool},"n":${n},"items":[`
      : kind === 2
        ? "id,name,value\n"
        : `# output ${pool}/${n}\n`;
  for (let i = 0; text.length < size; i++) {
    if (kind === 1) text += `${i ? "," : ""}{"id":${i},"name":"item ${i}${odd}"}`;
    else if (kind === 2) text += `${i},name ${i}${odd},${(i * 7) % 13}\n`;
    else
      text += `${kind === 3 ? "2026-01-01 INFO" : "line"} ${pool}/${n}/${i} ${odd} lorem ipsum dolor\n`;
  }
  return kind === 1 ? `${text}]}` : text;
}

/** The part of output `n` of `pool`: tool id `t{n}`, so the same output has the same id. */
export function part(pool, n) {
  return { toolId: `t${n}`, toolName: n % 3 === 0 ? "http_get" : "bash", output: output(pool, n) };
}

export const RESULT_FILES = new Set(["output.txt", "index.json", "metadata.json"]);
/** What the package writes in a session's folder beside `tool-results`: its catalog and lock (`tool-stub/`). */
export const SESSION_ENTRIES = [/^tool-stub$/];
const TEMP_FILE = /^\..+\.\d+\.[0-9a-f]{16}\.tmp$/;

/**
 * Every entry under the store folder that is not part of the package's layout
 * (`<session>/tool-results/<id>/<file>`, the temp files of its saves, `<session>/tool-stub/` (the
 * session's catalog and lock), and `<session>/` entries the
 * package itself writes: names in `sessionEntries`). Also counts temp files and orphans (a result
 * folder without its record: a write or a delete cut short, invisible to readers).
 */
export function layout(storeDir, sessions, sessionEntries = SESSION_ENTRIES) {
  const strays = [];
  let temps = 0;
  let orphans = 0;
  const list = (dir) => readdirSync(dir, { withFileTypes: true });
  for (const entry of list(storeDir)) {
    if (!sessions.includes(entry.name) || !entry.isDirectory()) strays.push(entry.name);
  }
  for (const session of sessions) {
    const sessionDir = path.join(storeDir, session);
    let names;
    try {
      names = list(sessionDir);
    } catch {
      continue;
    }
    for (const entry of names) {
      // `tool-stub/`: the session's catalog and lock (src/catalog.rs), beside the reference's tree.
      const ours =
        entry.name === "tool-results" || (entry.name === "tool-stub" && entry.isDirectory());
      if (!ours && !sessionEntries.some((allowed) => allowed.test(entry.name)))
        strays.push(`${session}/${entry.name}`);
    }
    const results = path.join(sessionDir, "tool-results");
    let ids = [];
    try {
      ids = list(results);
    } catch {}
    for (const id of ids) {
      if (!id.isDirectory()) {
        if (TEMP_FILE.test(id.name)) temps++;
        else strays.push(`${session}/tool-results/${id.name}`);
        continue;
      }
      const files = readdirSync(path.join(results, id.name));
      for (const file of files) {
        if (TEMP_FILE.test(file)) temps++;
        else if (!RESULT_FILES.has(file) || !lstatSync(path.join(results, id.name, file)).isFile())
          strays.push(`${session}/tool-results/${id.name}/${file}`);
      }
      if (!files.includes("metadata.json")) orphans++;
    }
  }
  return { strays, temps, orphans };
}

/** Reads `ref` whole: its content, or the error code. */
export async function readWhole(ts, ref) {
  try {
    return { content: (await ts.read(ref, { limit: -1, includeMetadata: false })).content };
  } catch (error) {
    return { code: error?.code ?? String(error) };
  }
}

/**
 * Every listed result is readable whole and verifies. Answers the problems found (strings).
 */
export async function checkListed(ts) {
  const problems = [];
  const { toolResults } = await ts.list({ limit: 100_000 });
  for (const record of toolResults) {
    const read = await readWhole(ts, record.storage_uri);
    if (read.code) problems.push(`listed ${record.tool_result_id} is unreadable: ${read.code}`);
    else {
      try {
        await ts.verify(record.storage_uri);
      } catch (error) {
        problems.push(
          `listed ${record.tool_result_id} does not verify: ${error.code} ${error.message}`,
        );
      }
    }
  }
  return { problems, listed: toolResults.length };
}

export function parseArgs(argv, defaults) {
  const options = { ...defaults };
  for (let i = 0; i < argv.length; i += 2)
    options[argv[i].replace(/^--/, "")] = Number(argv[i + 1]);
  return options;
}
