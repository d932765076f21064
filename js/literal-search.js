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

const OFFSET_UNIT = "unicode_code_point";
const DEFAULT_LIMIT = 20;
const DEFAULT_CONTEXT_CHARS = 300;

const isHigh = (unit) => (unit & 0xfc00) === 0xd800;
const isLow = (unit) => (unit & 0xfc00) === 0xdc00;

/** UTF-16 index `count` code points before `at` (or 0). */
function backCodePoints(text, at, count) {
  let i = at;
  for (let n = 0; n < count && i > 0; n++) {
    i--;
    if (i > 0 && isLow(text.charCodeAt(i)) && isHigh(text.charCodeAt(i - 1))) i--;
  }
  return i;
}

/** UTF-16 index `count` code points after `at` (or the end). */
function forwardCodePoints(text, at, count) {
  let i = at;
  for (let n = 0; n < count && i < text.length; n++) {
    i += isHigh(text.charCodeAt(i)) && i + 1 < text.length && isLow(text.charCodeAt(i + 1)) ? 2 : 1;
  }
  return i;
}

/** Code points of `text`, with `"\n"` tracked for lines; moves forward only. */
class PositionCursor {
  constructor(text, index) {
    this.text = text;
    this.index = index;
    this.at = 0; // UTF-16 index
    this.chars = 0;
    this.line = 1;
    this.lineStartChars = 0;
  }

  /** `{ offset, line, column }` of UTF-16 index `target` (a code point boundary, not behind). */
  advanceTo(target) {
    if (this.index) {
      const [at, newlines, column, chars] = checkpointFor(this.index, target);
      if (at > this.at) Object.assign(this, { at, chars, line: newlines + 1, lineStartChars: chars - column });
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

/** `[UTF-16 offset, "\n" before, column, code point]` of the last checkpoint at or before `target`. */
function checkpointFor(index, target) {
  const { point, number } = checkpointBefore(index, target);
  return [point[0], point[2], point[3], number * index.step];
}

/** `{ matches, totalMatches }` as the core's grep returns them for a literal request. */
export function literalSearch(text, request, index) {
  const { query } = request;
  // null is "not given", as in the core's JSON.
  const limit = request.limit ?? DEFAULT_LIMIT;
  const context = Math.max(0, request.contextChars ?? DEFAULT_CONTEXT_CHARS);
  const queryChars = countCodePoints(query);
  const cursor = new PositionCursor(text, index);
  const matches = [];
  let totalMatches = 0;
  for (let found = text.indexOf(query); found !== -1; found = text.indexOf(query, found + query.length)) {
    totalMatches++;
    if (matches.length >= limit) continue;
    const end = found + query.length;
    matches.push({
      ...cursor.advanceTo(found),
      offsetUnit: OFFSET_UNIT,
      snippet: text.slice(backCodePoints(text, found, context), forwardCodePoints(text, end, context)),
      length: queryChars,
    });
  }
  return { matches: matches.map(inCoreOrder), totalMatches };
}

/** The core's field order, so results serialise identically either way. */
function inCoreOrder({ offset, offsetUnit, snippet, line, column, length }) {
  return { offset, offsetUnit, snippet, line, column, length };
}
