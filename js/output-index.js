// Using the position index of a stored output (`index.json`: planned by the core with the output,
// saved beside `output.txt` after it and before `metadata.json`, which stays the commit marker;
// the core owns its format: src/retrieval/output_index.rs). It lets `read` fetch only the span of the output around
// its window and `search` place a match (offset, line, column) without counting from the start.
// It is derived data: a result without one (stored before it existed, or by another tool) is read
// the slow way, and an unreadable one is ignored the same way.

export { INDEX_FILE } from "./core-constants.js";
/** @typedef {import("./generated/contract.js").OutputIndex} OutputIndex */

const INDEX_VERSION = 1;
/**
 * The index in `json` if it is one this version can use, else undefined (then: the slow way).
 * @param {unknown} json
 * @returns {OutputIndex | undefined}
 */
export function parseOutputIndex(json) {
  if (typeof json !== "string") return undefined;
  /** @type {OutputIndex} */
  let index;
  try {
    index = JSON.parse(json);
  } catch {
    return undefined;
  }
  const valid =
    index?.version === INDEX_VERSION &&
    Number.isSafeInteger(index.step) &&
    index.step > 0 &&
    [index.chars, index.utf16, index.bytes].every((n) => Number.isSafeInteger(n) && n >= 0) &&
    typeof index.wellFormed === "boolean" &&
    Array.isArray(index.checkpoints) &&
    index.checkpoints.length === Math.max(1, Math.ceil(index.chars / index.step)) &&
    index.checkpoints.every(
      (c) =>
        Array.isArray(c) && c.length === 4 && c.every((n) => Number.isSafeInteger(n) && n >= 0),
    );
  return valid ? index : undefined;
}

/**
 * The stored span that holds code points `from .. to` (`to` clamped to the output's end):
 * `{ firstChar, start, end }` with `start`/`end` in the store's slice unit ("utf16" or "utf8")
 * and `firstChar` the code point at `start`.
 * @param {OutputIndex} index
 * @param {number} from
 * @param {number} to
 * @param {"utf16" | "utf8"} unit
 */
export function spanOf(index, from, to, unit) {
  const column = unit === "utf8" ? 1 : 0;
  const last = index.checkpoints.length - 1;
  const first = Math.min(Math.floor(from / index.step), last);
  const after = Math.ceil(Math.min(to, index.chars) / index.step);
  const start = index.checkpoints[first][column];
  const end =
    after > last ? (unit === "utf8" ? index.bytes : index.utf16) : index.checkpoints[after][column];
  return { firstChar: first * index.step, start, end: Math.max(start, end) };
}

/**
 * `{ point, number }`: the last checkpoint at or before UTF-16 offset `at`.
 * @param {OutputIndex} index
 * @param {number} at
 */
export function checkpointBefore(index, at) {
  const points = index.checkpoints;
  let low = 0;
  let high = points.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (points[mid][0] <= at) low = mid;
    else high = mid - 1;
  }
  return { point: points[low], number: low };
}

/**
 * Length in Unicode code points (a lone surrogate counts as one, as in the core).
 * @param {string} text
 */
export function countCodePoints(text) {
  let count = 0;
  for (let i = 0; i < text.length; i++, count++) {
    const unit = text.charCodeAt(i);
    if (
      unit >= 0xd800 &&
      unit <= 0xdbff &&
      i + 1 < text.length &&
      (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00
    )
      i++;
  }
  return count;
}
