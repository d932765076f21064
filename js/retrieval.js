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
import {
  CATALOG_RECENT_ENTRIES,
  DEFAULT_READ_LIMIT,
  INDEX_FILE,
  METADATA_FILE,
  OUTPUT_FILE,
} from "./core-constants.js";
import { KINDS_WITH_HIT_COORDINATES } from "./generated/contract.js";

/** The kinds whose hits get coordinates, as a list any kind can be looked up in. */
const HIT_COORDINATE_KINDS = /** @type {readonly string[]} */ (KINDS_WITH_HIT_COORDINATES);
import { literalSearch } from "./literal-search.js";
import { needsGrepModule } from "./grep-module.js";
import { changedOutput, skipReport } from "./session.js";

/** @typedef {import("./session.js").Session} Session */
/** @typedef {import("./text-chunks.js").TextPieces} TextPieces */
/** @typedef {import("./generated/contract.js").ReadWindow} ReadWindow */
/** @typedef {import("./generated/contract.js").GrepResult} GrepResult */
/** @typedef {import("./generated/contract.js").CatalogEntry} CatalogEntry */
/** @typedef {GrepResult["matches"][number]} GrepMatch */
/** @typedef {import("./generated/contract.js").RankedSearch} RankedSearch */
/** @typedef {import("./index.js").ReadResult} ReadResult */
/** @typedef {import("./index.js").SearchMatch} SearchMatch */
/**
 * A line, JSON pointer or rows read's answer.
 * @typedef {import("./index.js").LineReadResult | import("./index.js").JsonPointerReadResult | import("./index.js").RowsReadResult} StructuredReadResult
 */
/** @typedef {"lines" | "jsonPointer" | "rows"} StructuredMode */
/**
 * `searchAllPlan`'s answer: how to grep each stored result (the request as the core checked it)
 * and when to stop.
 * @typedef {{ grep: { regex?: boolean, ignoreCase?: boolean, wholeWord?: boolean }, limit: number, stopAfter?: number }} SearchAllPlan
 */

const READ_OPTIONS = ["offset", "limit", "includeMetadata"];
/**
 * Read modes beyond the reference's offset/limit, and the options each takes.
 * @type {Record<StructuredMode, string[]>}
 */
const READ_MODES = {
  lines: ["line", "lines", "column", "numbered"],
  jsonPointer: ["jsonPointer"],
  rows: ["rows"],
};
const CORE_READS = /** @type {const} */ ({
  lines: "readLines",
  jsonPointer: "readJsonPointer",
  rows: "readTableRows",
});
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
 * @param {Session} session
 * @param {unknown} refOrId
 * @param {unknown} options
 * @returns {Promise<ReadResult | StructuredReadResult>}
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
  /** @type {ReadResult} */
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

/**
 * The core's read window of `content`, cut exactly when it holds lone surrogates.
 * @param {Session} session
 * @param {string} content
 * @param {number} offset
 * @param {number} limit
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
 * @param {Session} session
 * @param {string} id
 * @param {number} offset
 * @param {number} limit
 * @returns {Promise<ReadWindow | undefined>}
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
 * @param {Session} session
 * @param {unknown} refOrId
 */
export async function verify(session, refOrId) {
  const id = session.resolveId(refOrId);
  const content = await session.loadOutput(id);
  const record = await session.loadMetadata(id);
  // Deleted since its output was loaded (another ToolStub on the store).
  if (record === null)
    throw new ToolStubError("NOT_FOUND", `no tool result ${id} in session ${session.sessionId}`);
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

/**
 * @param {Session} session
 * @param {unknown} refOrId
 * @param {Record<string, unknown>} opts
 * @param {StructuredMode} mode
 * @returns {Promise<StructuredReadResult>}
 */
async function readStructured(session, refOrId, opts, mode) {
  checkKnownKeys(opts, [...READ_MODES[mode], "maxChars", "includeMetadata"], `${mode} read`);
  const id = session.resolveId(refOrId);
  const request = callerJson(definedOptions(opts, [...READ_MODES[mode], "maxChars"]), "options");
  await session.runtime.extras.call("checkReadOptions", mode, request);
  const content = await session.loadOutput(id);
  /** @type {StructuredReadResult} */
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
 * @param {Session} session
 * @param {unknown} refOrId
 * @param {unknown} options
 * @returns {Promise<import("./index.js").SearchResult>}
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
 * @param {Session} session
 * @param {string} id
 * @param {string | TextPieces} content
 * @param {GrepMatch[]} matches
 * @returns {Promise<SearchMatch[]>}
 */
async function withHitCoordinates(session, id, content, matches) {
  if (matches.length === 0) return matches;
  const kind = (await session.loadMetadata(id))?.synopsis_kind;
  if (kind === undefined || !HIT_COORDINATE_KINDS.includes(kind)) return matches;
  const hits = new Uint32Array(matches.flatMap((m) => [m.offset, m.length]));
  /** @type {{ row?: number, jsonPointer?: string }[]} */
  const extra = JSON.parse(
    await session.runtime.grep.coreOnText("hitCoordinates", content, kind, hits),
  );
  return matches.map((match, i) => Object.assign(match, extra[i]));
}

/**
 * The reference's literal search run in JS (see literal-search.js) when the options ask for
 * nothing more and the result's index says the output is well-formed; undefined otherwise.
 * @param {Session} session
 * @param {string} id
 * @param {string | TextPieces} content
 * @param {Record<string, unknown>} opts
 */
async function jsLiteralSearch(session, id, content, opts) {
  if (
    typeof content !== "string" ||
    typeof opts.query !== "string" ||
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
  // The other options were checked by the core (`checkGrep`): numbers or null where given.
  return literalSearch(
    content,
    /** @type {import("./literal-search.js").LiteralRequest} */ (opts),
    index,
  );
}

/**
 * Searches every stored result of the session. Results are ranked by their number of matches,
 * then newest first; each carries its ref, its first `perResult` matches and `totalMatches`.
 * @param {Session} session
 * @param {unknown} options
 * @returns {Promise<import("./index.js").SearchAllResult>}
 */
export async function searchAll(session, options) {
  const opts = requireOptions(options, "options");
  checkKnownKeys(opts, SEARCH_ALL_OPTIONS, "searchAll");
  requireString(opts.query, "query");
  if (opts.toolName !== undefined) requireString(opts.toolName, "toolName");
  const request = callerJson(definedOptions(opts, SEARCH_ALL_OPTIONS), "options");
  // Checked before any I/O (a bad regex fails here); the candidates come from the catalog.
  /** @type {SearchAllPlan} */
  const plan = JSON.parse(await session.runtime.extras.call("searchAllPlan", request));
  const grep = JSON.stringify(plan.grep);
  const engine = needsGrepModule(plan.grep) ? await session.runtime.grep.engine() : undefined;
  if (engine) await engine.check(grep);
  const toolName = /** @type {string | undefined} */ (opts.toolName);
  const stopAfter = plan.stopAfter;
  /** @type {RankedSearch["results"]} */
  const hits = [];
  /** @type {import("./index.js").SkippedResult[]} */
  const skipped = [];
  let searched = 0;
  let total = 0;
  // Ids searched: a write between two windows of the catalog may shift one into the next.
  /** @type {Set<string>} */
  const seen = new Set();
  /** @param {CatalogEntry[]} candidates */
  const searchEach = async (candidates) => {
    // One output in memory at a time; what cannot be read is reported, not fatal to the session.
    for (const candidate of candidates) {
      if (stopAfter !== undefined && hits.length >= stopAfter) return;
      if (seen.has(candidate.toolResultId)) continue;
      seen.add(candidate.toolResultId);
      searched++;
      await searchOne(candidate);
    }
  };
  // `toolName` is applied from the catalog, before any output is loaded.
  if (stopAfter === undefined) {
    const candidates = await session.catalog.use((catalog) => catalog.candidates(toolName));
    total = candidates.length;
    await searchEach(candidates);
  } else {
    // order "newest": searched in its ranking order (the core's), so it can stop at `limit` hits;
    // the newest first (the catalog's newest page), the rest only when they matched too few.
    /** @param {number} offset @param {number | undefined} limit */
    const newest = (offset, limit) =>
      session.catalog.use((catalog) =>
        catalog.select({ toolName, order: "newest", offset, limit }),
      );
    /** @param {CatalogEntry[]} candidates */
    const inScanOrder = async (candidates) => {
      const known = candidates.map(({ toolResultId, createdAt }) => ({
        toolResultId,
        createdAt: typeof createdAt === "string" ? createdAt : "",
      }));
      const order = await session.runtime.extras.call("searchAllScanOrder", JSON.stringify(known));
      return Array.from(order, (i) => candidates[i]);
    };
    const first = await newest(0, CATALOG_RECENT_ENTRIES);
    total = first.totalResults;
    await searchEach(await inScanOrder(first.entries));
    if (hits.length < stopAfter && first.hasMore) {
      const rest = await newest(first.entries.length, undefined);
      await searchEach(await inScanOrder(rest.entries));
    }
  }
  /** @param {CatalogEntry} candidate */
  async function searchOne(candidate) {
    const id = candidate.toolResultId;
    // Every step of one result (its output, the search, its record for hit coordinates) may
    // fail on that result alone: it is skipped and reported, the others are still searched.
    /** @type {GrepResult} */
    let found;
    /** @type {SearchMatch[]} */
    let matches;
    try {
      /** @type {string | undefined} */
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
      return;
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
      // Checked by the core (`searchAllPlan`): a SearchOrder, or absent.
      /** @type {string | undefined} */ (opts.order),
      total - searched,
    ),
  );
  if (skipped.length > 0) ranked.skipped = skipped;
  return ranked;
}

/**
 * `{ note }` when a grep result carries one, else nothing.
 * @param {{ note?: string }} found
 */
function noteOf(found) {
  return found.note === undefined ? {} : { note: found.note };
}

/**
 * The code points offset..offset+limit of a string holding lone surrogates, exactly.
 * @param {string} content
 * @param {number} offset
 * @param {number} limit
 */
export function exactWindow(content, offset, limit) {
  const codePoints = [...content].slice(offset, limit === -1 ? undefined : offset + limit);
  return codePoints.join("");
}

/**
 * The read mode the options ask for ("offset" is the reference's), checked for mixing.
 * @param {Record<string, unknown>} opts
 * @returns {"offset" | StructuredMode}
 */
function readMode(opts) {
  const modes = /** @type {StructuredMode[]} */ (Object.keys(READ_MODES)).filter((mode) =>
    READ_MODES[mode].some((key) => opts[key] !== undefined),
  );
  if (modes.length > 1)
    throw invalid(`read options mix modes (${modes.join(", ")}): use one of them`);
  const mode = /** @type {StructuredMode | undefined} */ (modes[0]) ?? "offset";
  if (mode !== "offset" && (opts.offset !== undefined || opts.limit !== undefined)) {
    throw invalid(`offset/limit do not combine with a ${mode} read`);
  }
  if (mode === "offset" && opts.maxChars !== undefined) {
    throw invalid("maxChars applies to line, jsonPointer and rows reads");
  }
  return mode;
}

/**
 * Only the options that are set, for the core's JSON.
 * @param {Record<string, unknown>} opts
 * @param {readonly string[]} keys
 */
function definedOptions(opts, keys) {
  return Object.fromEntries(
    keys.filter((key) => opts[key] !== undefined).map((key) => [key, opts[key]]),
  );
}
