// The reference's literal search (`search(ref, { query, limit, contextChars })`, none of grep's
// options) run on the JS string itself, with exactly the core's semantics (src/retrieval/grep.rs):
// case-sensitive, non-overlapping, left to right (the next search starts at the match's end),
// offsets/columns/lengths in code points, `contextChars` code points of snippet on each side, and
// the count of every match. It spares copying a large output into wasm; tests/js/indexed.test.js
// checks it against the core on random inputs.
//
// Only for a well-formed text and query (then UTF-16 matches are exactly the UTF-8 ones); the
// caller sends anything else to the core. Positions start from the output index's nearest
// checkpoint, so a match at the end of a large output costs one block of counting.

import { checkpointBefore, countCodePoints } from "./output-index.js";
import { OFFSET_UNIT } from "./generated/contract.js";

const DEFAULT_LIMIT = 20;
const DEFAULT_CONTEXT_CHARS = 300;
/** The snippet budget of one search (MAX_SNIPPET_CHARS in src/retrieval/grep.rs, same rule). */
const MAX_SNIPPET_CHARS = 1 << 20;

/** @typedef {import("./generated/contract.js").OutputIndex} OutputIndex */
/** @typedef {import("./generated/contract.js").GrepResult} GrepResult */
/**
 * A literal request: grep's without its options (null is "not given", as in the core's JSON).
 * @typedef {{ query: string, limit?: number | null, contextChars?: number | null }} LiteralRequest
 */

/** @param {number} unit */
const isHigh = (unit) => (unit & 0xfc00) === 0xd800;
/** @param {number} unit */
const isLow = (unit) => (unit & 0xfc00) === 0xdc00;

/**
 * `[UTF-16 index at most count code points before at, code points walked]`.
 * @param {string} text
 * @param {number} at
 * @param {number} count
 * @returns {[number, number]}
 */
function backCodePoints(text, at, count) {
  let i = at;
  let n = 0;
  for (; n < count && i > 0; n++) {
    i--;
    if (i > 0 && isLow(text.charCodeAt(i)) && isHigh(text.charCodeAt(i - 1))) i--;
  }
  return [i, n];
}

/**
 * `[UTF-16 index at most count code points after at, code points walked]`.
 * @param {string} text
 * @param {number} at
 * @param {number} count
 * @returns {[number, number]}
 */
function forwardCodePoints(text, at, count) {
  let i = at;
  let n = 0;
  for (; n < count && i < text.length; n++) {
    i += isHigh(text.charCodeAt(i)) && i + 1 < text.length && isLow(text.charCodeAt(i + 1)) ? 2 : 1;
  }
  return [i, n];
}

/**
 * The snippet of a match as `[start, end, chars]` if it fits `budget` code points; a first one
 * that does not is cut around the match (the core's `snippet_range`; queries are far shorter
 * than the budget, so the match itself always fits).
 * @param {string} text
 * @param {number} found
 * @param {number} end
 * @param {number} queryChars
 * @param {number} context
 * @param {number} budget
 * @param {boolean} first
 * @returns {[number, number, number] | undefined}
 */
function snippetRange(text, found, end, queryChars, context, budget, first) {
  const side = Math.min(context, budget);
  const [start, before] = backCodePoints(text, found, side);
  const [stop, after] = forwardCodePoints(text, end, side);
  const chars = before + queryChars + after;
  if (chars <= budget) return [start, stop, chars];
  if (!first) return undefined;
  const half = Math.floor(Math.max(0, budget - queryChars) / 2);
  const [cutStart, cutBefore] = backCodePoints(text, found, Math.min(before, half));
  const [cutEnd, cutAfter] = forwardCodePoints(
    text,
    end,
    Math.min(after, budget - cutBefore - queryChars),
  );
  return [cutStart, cutEnd, cutBefore + queryChars + cutAfter];
}

/** Code points of `text`, with `"\n"` tracked for lines; moves forward only. */
class PositionCursor {
  /**
   * @param {string} text
   * @param {OutputIndex | undefined} index
   */
  constructor(text, index) {
    this.text = text;
    this.index = index;
    this.at = 0; // UTF-16 index
    this.chars = 0;
    this.line = 1;
    this.lineStartChars = 0;
  }

  /**
   * `{ offset, line, column }` of UTF-16 index `target` (a code point boundary, not behind).
   * @param {number} target
   */
  advanceTo(target) {
    if (this.index) {
      const [at, newlines, column, chars] = checkpointFor(this.index, target);
      if (at > this.at)
        Object.assign(this, { at, chars, line: newlines + 1, lineStartChars: chars - column });
    }
    const text = this.text;
    let { at, chars, line, lineStartChars } = this;
    while (at < target) {
      const unit = text.charCodeAt(at);
      at += isHigh(unit) && isLow(text.charCodeAt(at + 1)) ? 2 : 1;
      chars++;
      if (unit === 10) {
        line++;
        lineStartChars = chars;
      }
    }
    Object.assign(this, { at, chars, line, lineStartChars });
    return { offset: chars, line, column: chars - lineStartChars + 1 };
  }
}

/**
 * `[UTF-16 offset, "\n" before, column, code point]` of the last checkpoint at or before `target`.
 * @param {OutputIndex} index
 * @param {number} target
 * @returns {[number, number, number, number]}
 */
function checkpointFor(index, target) {
  const { point, number } = checkpointBefore(index, target);
  return [point[0], point[2], point[3], number * index.step];
}

/**
 * `{ matches, totalMatches }` as the core's grep returns them for a literal request.
 * @param {string} text
 * @param {LiteralRequest} request
 * @param {OutputIndex | undefined} index
 * @returns {GrepResult}
 */
export function literalSearch(text, request, index) {
  const { query } = request;
  // null is "not given", as in the core's JSON.
  const limit = request.limit ?? DEFAULT_LIMIT;
  const context = Math.max(0, request.contextChars ?? DEFAULT_CONTEXT_CHARS);
  const queryChars = countCodePoints(query);
  const cursor = new PositionCursor(text, index);
  /** @type {GrepResult["matches"]} */
  const matches = [];
  let totalMatches = 0;
  let budget = MAX_SNIPPET_CHARS;
  let listing = true;
  /** @type {string | undefined} */
  let note;
  for (
    let found = text.indexOf(query);
    found !== -1;
    found = text.indexOf(query, found + query.length)
  ) {
    totalMatches++;
    if (!listing || matches.length >= limit) continue;
    const end = found + query.length;
    const range = snippetRange(text, found, end, queryChars, context, budget, matches.length === 0);
    if (range === undefined) {
      listing = false;
      note = `matches after the first ${matches.length} are not listed: their snippets would pass ${MAX_SNIPPET_CHARS} chars in all (totalMatches counts them); lower contextChars or limit`;
      continue;
    }
    budget -= Math.min(range[2], budget);
    matches.push({
      ...cursor.advanceTo(found),
      offsetUnit: OFFSET_UNIT,
      snippet: text.slice(range[0], range[1]),
      length: queryChars,
    });
  }
  /** @type {GrepResult} */
  const result = { matches: matches.map(inCoreOrder), totalMatches };
  if (note !== undefined) result.note = note;
  return result;
}

/**
 * The core's field order, so results serialise identically either way.
 * @param {GrepResult["matches"][number]} match
 */
function inCoreOrder({ offset, offsetUnit, snippet, line, column, length }) {
  return { offset, offsetUnit, snippet, line, column, length };
}
