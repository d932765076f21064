// Reading a session's stored results back: `read` (a window by offset, lines, JSON pointer or
// rows), `verify`, `search` in one result and `searchAll` over the session. The core decides the
// windows, hits and ranking; this file loads what it needs from the store (only a span of the
// output where the store and the result's index allow) and picks where a search runs.

import { ToolStubError } from "./stores/errors.js";
import { isWellFormed } from "./stores/wtf8.js";
import {
  callerJson,
  invalid,
  requireString,
  optionalInteger,
  requireOptions,
  checkKnownKeys,
} from "./arguments.js";
import { countCodePoints, parseOutputIndex, spanOf } from "./output-index.js";
import { DEFAULT_READ_LIMIT, INDEX_FILE, METADATA_FILE, OUTPUT_FILE } from "./core-constants.js";
import { KINDS_WITH_HIT_COORDINATES } from "./generated/contract.js";
import { literalSearch } from "./literal-search.js";
import { needsGrepModule } from "./grep-module.js";
import { changedOutput, skipReport } from "./session.js";

const READ_OPTIONS = ["offset", "limit", "includeMetadata"];
/** Read modes beyond the reference's offset/limit, and the options each takes. */
const READ_MODES = {
  lines: ["line", "lines", "column", "numbered"],
  jsonPointer: ["jsonPointer"],
  rows: ["rows"],
};
const CORE_READS = { lines: "readLines", jsonPointer: "readJsonPointer", rows: "readTableRows" };
const SEARCH_OPTIONS = ["query", "limit", "contextChars"];
const GREP_OPTIONS = ["regex", "ignoreCase", "wholeWord", "contextLines"];
const SEARCH_ALL_OPTIONS = [
  "query",
  "regex",
  "ignoreCase",
  "wholeWord",
  "toolName",
  "limit",
  "perResult",
  "contextChars",
  "contextLines",
  "order",
];

/**
 * A window of a stored output: by code-point offset and limit (`-1`: to the end; the
 * reference's read), or by lines (`line`, `lines`, `column`, `numbered`), or a JSON subtree
 * (`jsonPointer`), or CSV/TSV rows (`rows: { start, count }`); the last three within `maxChars`.
 */
export async function read(session, refOrId, options) {
  const opts = requireOptions(options, "options");
  const mode = readMode(opts);
  if (mode !== "offset") return readStructured(session, refOrId, opts, mode);
  checkKnownKeys(opts, READ_OPTIONS, "read");
  const id = session.resolveId(refOrId);
  const offset = optionalInteger(opts.offset, "offset", 0);
  const limit = optionalInteger(opts.limit, "limit", DEFAULT_READ_LIMIT);
  session.runtime.call("checkReadArgs", offset, limit);
  const window =
    (await indexedWindow(session, id, offset, limit)) ??
    coreWindow(session, await session.loadOutput(id), offset, limit);
  const result = {
    toolResultId: id,
    content: window.content,
    offset,
    limit,
    offsetUnit: window.offset_unit,
    totalChars: window.total_chars,
    hasMore: window.has_more,
  };
  if (opts.includeMetadata !== false) result.metadata = await session.loadMetadata(id);
  return result;
}

/** @typedef {import("./generated/contract.js").ReadWindow} ReadWindow */
/** @typedef {import("./generated/contract.js").GrepResult} GrepResult */
/** @typedef {import("./generated/contract.js").RankedSearch} RankedSearch */

/**
 * The core's read window of `content`, cut exactly when it holds lone surrogates.
 * @returns {ReadWindow}
 */
function coreWindow(session, content, offset, limit) {
  const window = /** @type {ReadWindow} */ (
    JSON.parse(session.runtime.call("readWindow", content, offset, limit))
  );
  if (!isWellFormed(content)) window.content = exactWindow(content, offset, limit);
  return window;
}

/**
 * The read window from only the span of the output around it, when the result has an index and
 * the store a ranged read (`loadSlice`); undefined otherwise (then the whole output is loaded).
 */
async function indexedWindow(session, id, offset, limit) {
  const unit = session.store.sliceUnit;
  if (typeof session.store.loadSlice !== "function" || (unit !== "utf16" && unit !== "utf8"))
    return undefined;
  if ((await session.store.load(session.key(id, METADATA_FILE))) === undefined) {
    throw new ToolStubError("NOT_FOUND", `no tool result ${id} in session ${session.sessionId}`);
  }
  const index = parseOutputIndex(await session.store.load(session.key(id, INDEX_FILE)));
  if (index === undefined) return undefined;
  const to = limit === -1 ? index.chars : offset + limit;
  const span = spanOf(index, offset, to, unit);
  // The index is trusted for the span, so the span is checked: its text must be as long as the
  // index says (in UTF-16 units, which the index gives for the same checkpoints: no counting),
  // and a span reaching the output's end asks for one unit more, which must not be there. A
  // file cut short or grown behind the store's back is CORRUPT, not an empty window.
  const total = unit === "utf8" ? index.bytes : index.utf16;
  const asked = span.end >= total ? span.end + 1 : span.end;
  const slice = await session.store.loadSlice(session.key(id, OUTPUT_FILE), span.start, asked);
  if (slice === undefined) throw session.missingOutput(id, "has a record but no stored output");
  const inUtf16 = spanOf(index, offset, to, "utf16");
  if (slice.length !== inUtf16.end - inUtf16.start) {
    throw changedOutput(
      id,
      inUtf16.start + slice.length,
      inUtf16.end,
      "UTF-16 units",
      "index",
      inUtf16.start,
    );
  }
  const window = coreWindow(session, slice, Math.max(0, offset - span.firstChar), limit);
  window.total_chars = index.chars;
  window.has_more = limit !== -1 && offset + limit < index.chars;
  return window;
}

/**
 * Checks a stored output against its record: the SHA-256 and the length must match, else
 * `CORRUPT`. Returns `{ toolResultId, sha256, totalChars }`.
 */
export async function verify(session, refOrId) {
  const id = session.resolveId(refOrId);
  const content = await session.loadOutput(id);
  const record = await session.loadMetadata(id);
  const sha256 = session.runtime.run((text) => session.runtime.storedSha256(text), content);
  const totalChars = countCodePoints(content);
  if (sha256 !== record.sha256 || totalChars !== record.original_chars) {
    throw new ToolStubError(
      "CORRUPT",
      `stored output of ${id} does not match its record (sha256 ${sha256.slice(0, 16)} vs ${String(record.sha256).slice(0, 16)}, ${totalChars} vs ${record.original_chars} chars)`,
    );
  }
  // A verified result the catalog lacks (stored by another tool, or before a crash) is added.
  try {
    const known = await session.catalog.use((catalog) => catalog.has(id));
    if (!known) await session.catalog.locked(() => session.catalog.recheck({ underLock: true }));
  } catch {
    // The catalog is a cache: verifying the output is what this call promises.
  }
  return { toolResultId: id, sha256, totalChars };
}

async function readStructured(session, refOrId, opts, mode) {
  checkKnownKeys(opts, [...READ_MODES[mode], "maxChars", "includeMetadata"], `${mode} read`);
  const id = session.resolveId(refOrId);
  const request = callerJson(definedOptions(opts, [...READ_MODES[mode], "maxChars"]), "options");
  await session.runtime.extras.call("checkReadOptions", mode, request);
  const content = await session.loadOutput(id);
  const result = {
    toolResultId: id,
    mode,
    ...JSON.parse(await session.runtime.extras.call(CORE_READS[mode], content, request)),
  };
  if (opts.includeMetadata !== false) result.metadata = await session.loadMetadata(id);
  return result;
}

/**
 * Search in a stored output: literal and case-sensitive by default (the reference's matches),
 * or `regex`, `ignoreCase`, `wholeWord`; context by `contextChars` or `contextLines`. Each
 * match says its offset, line and column; `totalMatches` counts all, also beyond `limit`.
 */
export async function search(session, refOrId, options) {
  const opts = requireOptions(options, "options");
  checkKnownKeys(opts, [...SEARCH_OPTIONS, ...GREP_OPTIONS], "search");
  const id = session.resolveId(refOrId);
  requireString(opts.query, "query");
  const request = callerJson(definedOptions(opts, [...SEARCH_OPTIONS, ...GREP_OPTIONS]), "options");
  session.runtime.call("checkGrep", request);
  // The pattern is checked (and the grep module loaded) before any I/O. In browsers the grep
  // module, and the core's calls on a large text, run in a worker (see grep-module.js).
  const engine = needsGrepModule(opts) ? await session.runtime.grep.engine() : undefined;
  if (engine) await engine.check(request);
  // A search in the worker takes the output as the store keeps it (its pieces, sent one by one),
  // so a large output is never joined on the page's main thread.
  const content = await session.loadOutput(id, { pieces: engine?.thread === "worker" });
  /** @type {GrepResult} */
  const found = engine
    ? JSON.parse(await engine.search(content, request))
    : ((await jsLiteralSearch(session, id, content, opts)) ??
      JSON.parse(await session.runtime.grep.coreOnText("grepContent", content, request)));
  const matches = await withHitCoordinates(session, id, content, found.matches);
  return { toolResultId: id, matches, totalMatches: found.totalMatches, ...noteOf(found) };
}

/**
 * The hits with what their result's kind adds for the next read: `row` (CSV/TSV, as
 * `rows.start`) or `jsonPointer` (JSON), decided by the core.
 */
async function withHitCoordinates(session, id, content, matches) {
  if (matches.length === 0) return matches;
  const kind = (await session.loadMetadata(id))?.synopsis_kind;
  if (!KINDS_WITH_HIT_COORDINATES.includes(kind)) return matches;
  const hits = new Uint32Array(matches.flatMap((m) => [m.offset, m.length]));
  const extra = JSON.parse(
    await session.runtime.grep.coreOnText("hitCoordinates", content, kind, hits),
  );
  return matches.map((match, i) => Object.assign(match, extra[i]));
}

/**
 * The reference's literal search run in JS (see literal-search.js) when the options ask for
 * nothing more and the result's index says the output is well-formed; undefined otherwise.
 */
async function jsLiteralSearch(session, id, content, opts) {
  if (
    opts.regex ||
    opts.ignoreCase ||
    opts.wholeWord ||
    opts.contextLines != null ||
    !isWellFormed(opts.query)
  ) {
    return undefined;
  }
  const index = parseOutputIndex(await session.store.load(session.key(id, INDEX_FILE)));
  if (index === undefined || !index.wellFormed || index.utf16 !== content.length) return undefined;
  return literalSearch(content, opts, index);
}

/**
 * Searches every stored result of the session. Results are ranked by their number of matches,
 * then newest first; each carries its ref, its first `perResult` matches and `totalMatches`.
 */
export async function searchAll(session, options) {
  const opts = requireOptions(options, "options");
  checkKnownKeys(opts, SEARCH_ALL_OPTIONS, "searchAll");
  requireString(opts.query, "query");
  if (opts.toolName !== undefined) requireString(opts.toolName, "toolName");
  const request = callerJson(definedOptions(opts, SEARCH_ALL_OPTIONS), "options");
  // Checked before any I/O (a bad regex fails here); the candidates come from the catalog.
  const plan = JSON.parse(await session.runtime.extras.call("searchAllPlan", request));
  const grep = JSON.stringify(plan.grep);
  const engine = needsGrepModule(plan.grep) ? await session.runtime.grep.engine() : undefined;
  if (engine) await engine.check(grep);
  // `toolName` is applied here, from the catalog, before any output is loaded.
  let candidates = await session.catalog.use((catalog) => catalog.candidates(opts.toolName));
  const stopAfter = plan.stopAfter;
  if (stopAfter !== undefined) {
    // order "newest": searched in its ranking order (the core's), so it can stop at `limit` hits.
    const known = candidates.map(({ toolResultId, createdAt }) => ({
      toolResultId,
      createdAt: typeof createdAt === "string" ? createdAt : "",
    }));
    const order = await session.runtime.extras.call("searchAllScanOrder", JSON.stringify(known));
    candidates = Array.from(order, (i) => candidates[i]);
  }
  const hits = [];
  const skipped = [];
  let searched = 0;
  // One output in memory at a time; what cannot be read is reported, not fatal to the session.
  for (const candidate of candidates) {
    if (stopAfter !== undefined && hits.length >= stopAfter) break;
    searched++;
    const id = candidate.toolResultId;
    // Every step of one result (its output, the search, its record for hit coordinates) may
    // fail on that result alone: it is skipped and reported, the others are still searched.
    let found;
    let matches;
    try {
      let content = await session.store.load(session.key(id, OUTPUT_FILE));
      if (content === undefined) throw session.missingOutput(id, "has no stored output");
      found = JSON.parse(
        engine
          ? await engine.search(content, grep)
          : await session.runtime.grep.coreOnText("grepContent", content, grep),
      );
      matches = await withHitCoordinates(session, id, content, found.matches);
      content = undefined;
    } catch (error) {
      skipped.push(skipReport(id, error));
      continue;
    }
    if (found.totalMatches > 0) {
      const { ref, toolName, createdAt } = candidate;
      hits.push({
        toolResultId: id,
        ref,
        toolName,
        createdAt,
        totalMatches: found.totalMatches,
        matches,
      });
    }
  }
  /** @type {RankedSearch & { skipped?: import("./index.js").SkippedResult[] }} */
  const ranked = JSON.parse(
    await session.runtime.extras.call(
      "rankSearchAll",
      JSON.stringify(hits),
      plan.limit,
      opts.order,
      candidates.length - searched,
    ),
  );
  if (skipped.length > 0) ranked.skipped = skipped;
  return ranked;
}

/** `{ note }` when a grep result carries one, else nothing. */
function noteOf(found) {
  return found.note === undefined ? {} : { note: found.note };
}

/** The code points offset..offset+limit of a string holding lone surrogates, exactly. */
export function exactWindow(content, offset, limit) {
  const codePoints = [...content].slice(offset, limit === -1 ? undefined : offset + limit);
  return codePoints.join("");
}

/** The read mode the options ask for ("offset" is the reference's), checked for mixing. */
function readMode(opts) {
  const modes = Object.keys(READ_MODES).filter((mode) =>
    READ_MODES[mode].some((key) => opts[key] !== undefined),
  );
  if (modes.length > 1)
    throw invalid(`read options mix modes (${modes.join(", ")}): use one of them`);
  const mode = modes[0] ?? "offset";
  if (mode !== "offset" && (opts.offset !== undefined || opts.limit !== undefined)) {
    throw invalid(`offset/limit do not combine with a ${mode} read`);
  }
  if (mode === "offset" && opts.maxChars !== undefined) {
    throw invalid("maxChars applies to line, jsonPointer and rows reads");
  }
  return mode;
}

/** Only the options that are set, for the core's JSON. */
function definedOptions(opts, keys) {
  return Object.fromEntries(
    keys.filter((key) => opts[key] !== undefined).map((key) => [key, opts[key]]),
  );
}
