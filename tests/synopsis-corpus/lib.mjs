// Helpers shared by the corpus's family generators: a seeded random source (so every output is
// the same on every run) and builders of facts in the synopsis-facts format, whose regexes accept
// the phrasings a careful synopsis writer might use while keeping number windows tight.

/** A deterministic random source (mulberry32) with the few draws the generators need. */
export function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const r = {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (xs) => xs[Math.floor(next() * xs.length)],
    chance: (p) => next() < p,
    hex: (n) => {
      let s = "";
      for (let i = 0; i < n; i++) s += "0123456789abcdef"[Math.floor(next() * 16)];
      return s;
    },
    word: (n = 6) => {
      let s = "";
      for (let i = 0; i < n; i++) s += "abcdefghijklmnopqrstuvwxyz"[Math.floor(next() * 26)];
      return s;
    },
    shuffle: (xs) => {
      const out = [...xs];
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [out[i], out[j]] = [out[j], out[i]];
      }
      return out;
    },
  };
  return r;
}

/** A stable seed from a string (FNV-1a), so each output's draws depend only on its name. */
export function seedOf(name) {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export const pad2 = (n) => String(n).padStart(2, "0");
export const pad3 = (n) => String(n).padStart(3, "0");

/** Escapes a string for use inside a RegExp. */
export const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A number as a synopsis may print it: `1500`, `1,500` or `1 500`. */
export function num(n) {
  const s = String(n);
  if (n < 1000) return s;
  const grouped = Number(n).toLocaleString("en-US");
  return `(?:${s}|${esc(grouped)}|${grouped.replace(/,/g, " ")})`;
}

/** Regex: `n` next to one of `words` on the same line, either order, with no other digit between. */
export function countRe(n, words) {
  const w = words.map(esc).join("|");
  return `(?<![\\d.,])${num(n)}(?![\\d.,]\\d)[^\\n\\d]{0,25}\\b(?:${w})|\\b(?:${w})[^\\n\\d]{0,25}(?<![\\d.,])${num(n)}(?![\\d,]\\d|\\.\\d)`;
}

/** Regex: a 1-based line number `n` as a synopsis may cite it (`line 560`, `L560`, `#560`, `560:`). */
export function lineRe(n) {
  return `(?:\\bline\\b|\\bln\\b|\\bl|#|@)\\s*:?\\s*${n}\\b|(?<![\\d:.])${n}\\s*[:|]`;
}

/** Builds facts for one output; ids are the output's name plus a short suffix. */
export function factsFor(file) {
  const base = file.replace(/[^a-zA-Z0-9]+/g, "-");
  const list = [];
  const add = (suffix, fact, match, evidence, extra = {}) => {
    const f = { id: `${base}-${suffix}`, fixture: file, fact };
    if (Array.isArray(match)) f.any = match;
    else f.regex = match;
    if (evidence !== undefined) f.evidence = evidence;
    Object.assign(f, extra);
    list.push(f);
    return f;
  };
  return {
    list,
    /** A literal the stub must contain (case-insensitive). */
    has: (suffix, fact, alternatives, evidence, extra) =>
      add(
        suffix,
        fact,
        Array.isArray(alternatives) ? alternatives : [alternatives],
        evidence ?? esc(Array.isArray(alternatives) ? alternatives[0] : alternatives),
        extra,
      ),
    /** A regex the stub must match. */
    re: (suffix, fact, regex, evidence, extra) => add(suffix, fact, regex, evidence, extra),
    /** A count next to one of `words`, grounded by `evidence` matching exactly `n` times. */
    count: (suffix, fact, n, words, evidence) =>
      add(suffix, fact, countRe(n, words), evidence, evidence ? { evidenceCount: n } : {}),
    /** A 1-based line number, grounded by the first match of `evidence` being on that line. */
    line: (suffix, fact, n, evidence) =>
      add(suffix, fact, lineRe(n), evidence, { evidenceLine: n }),
  };
}

/** Lines joined as a tool prints them: one per line, ending with a newline. */
export const join = (lines) => `${lines.join("\n")}\n`;

/** The 1-based line where `text` first contains `needle` (generators use it to place facts). */
export function lineOf(text, needle) {
  const i = text.indexOf(needle);
  if (i < 0) throw new Error(`lineOf: ${needle} not found`);
  let n = 1;
  for (let j = 0; j < i; j++) if (text.charCodeAt(j) === 10) n++;
  return n;
}

/** Repeats `make(i)` until the joined text reaches `minChars`, returning the parts. */
export function fill(minChars, make) {
  const parts = [];
  let size = 0;
  for (let i = 0; size < minChars; i++) {
    const p = make(i);
    parts.push(p);
    size += p.length + 1;
  }
  return parts;
}

/** Pads aligned columns the way CLI tables do (`docker ps`, `kubectl get`): two spaces apart. */
export function alignColumns(rows, gap = 3) {
  const widths = [];
  for (const row of rows)
    for (const [i, c] of row.entries()) widths[i] = Math.max(widths[i] ?? 0, c.length);
  return rows.map((row) =>
    row
      .map((c, i) => (i === row.length - 1 ? c : c.padEnd(widths[i] + gap)))
      .join("")
      .trimEnd(),
  );
}

/** A psql-style table (` a | b ` with a `---+---` rule) and the `(N rows)` footer. */
export function psqlTable(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const cell = (c, i, right) =>
    right ? String(c).padStart(widths[i]) : String(c).padEnd(widths[i]);
  const numeric = header.map((_, i) => rows.every((r) => typeof r[i] === "number"));
  const out = [];
  out.push(
    header
      .map((h, i) => ` ${h.padStart(Math.floor((widths[i] + h.length) / 2)).padEnd(widths[i])} `)
      .join("|")
      .trimEnd(),
  );
  out.push(widths.map((w) => "-".repeat(w + 2)).join("+"));
  for (const r of rows)
    out.push(
      r
        .map((c, i) => ` ${cell(c, i, numeric[i])} `)
        .join("|")
        .trimEnd(),
    );
  out.push(`(${rows.length} ${rows.length === 1 ? "row" : "rows"})`);
  return out;
}

/** A MySQL/sqlite box table (`+----+` rules, `| a | b |` rows). */
export function boxTable(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const rule = `+${widths.map((w) => "-".repeat(w + 2)).join("+")}+`;
  const line = (r) =>
    `| ${r.map((c, i) => (typeof c === "number" ? String(c).padStart(widths[i]) : String(c).padEnd(widths[i]))).join(" | ")} |`;
  return [rule, line(header), rule, ...rows.map(line), rule];
}

export const FIRST_NAMES = [
  "alice",
  "bruno",
  "chen",
  "dana",
  "emeka",
  "farah",
  "goran",
  "hana",
  "ivan",
  "jonas",
  "keiko",
  "lena",
  "mateo",
  "nadia",
  "omar",
  "priya",
  "quinn",
  "rosa",
  "sven",
  "tara",
];
export const SERVICES = [
  "checkout",
  "billing",
  "inventory",
  "ledger",
  "search",
  "notifier",
  "gateway",
  "catalog",
  "payments",
  "shipping",
  "auth",
  "reports",
];
export const MONTHS = [
  "Jan",
  "Feb",
  "Mar",
  "Apr",
  "May",
  "Jun",
  "Jul",
  "Aug",
  "Sep",
  "Oct",
  "Nov",
  "Dec",
];

/** A clock that advances by random steps from a fixed start (no wall clock anywhere). */
export function clock(r, startMs, maxStepMs) {
  let t = startMs;
  return () => {
    t += r.int(1, maxStepMs);
    return new Date(t);
  };
}

export const iso = (d) => d.toISOString();
export const isoMs = (d) => d.toISOString().replace("Z", "+00:00");
export const hms = (d) =>
  `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`;
export const ymd = (d) => d.toISOString().slice(0, 10);
