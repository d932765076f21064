// The position index of a stored output (`index.json`, saved beside `output.txt` after it and
// before `metadata.json`, which stays the commit marker). It lets `read` fetch only the span of
// the output around its window and `search` place a match (offset, line, column) without counting
// from the start. It is derived data: a result without one (stored before it existed, or by
// another tool) is read the slow way, and an unreadable one is ignored the same way.
//
// Computed here rather than in the core because it describes the exact JS string the store keeps
// (lone surrogates included), which the core never sees.

export const INDEX_FILE = "index.json";
const INDEX_VERSION = 1;
/** Code points between two checkpoints: a read fetches at most about two such blocks extra. */
export const CHECKPOINT_STEP = 65536;

/**
 * `{ version, step, chars, utf16, bytes, wellFormed, checkpoints }`; checkpoint `k` describes code
 * point `k * step`: `[UTF-16 offset, UTF-8/WTF-8 byte offset, "\n" before it, code points since
 * the last "\n"]`. A lone surrogate is one code point of 3 bytes (WTF-8, as NodeFsStore writes it).
 */
export function buildOutputIndex(text) {
  const checkpoints = [];
  let chars = 0;
  let bytes = 0;
  let newlines = 0;
  let column = 0;
  let wellFormed = true;
  let untilCheckpoint = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    if (untilCheckpoint === 0) {
      checkpoints.push([i, bytes, newlines, column]);
      untilCheckpoint = CHECKPOINT_STEP;
    }
    untilCheckpoint--;
    chars++;
    const unit = text.charCodeAt(i);
    if (unit < 0x80) {
      bytes += 1;
      if (unit === 10) {
        newlines++;
        column = 0;
        continue;
      }
    } else if (unit < 0x800) {
      bytes += 2;
    } else if ((unit & 0xfc00) === 0xd800 && i + 1 < length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else {
      bytes += 3;
      if ((unit & 0xf800) === 0xd800) wellFormed = false;
    }
    column++;
  }
  if (checkpoints.length === 0) checkpoints.push([0, 0, 0, 0]);
  return { version: INDEX_VERSION, step: CHECKPOINT_STEP, chars, utf16: length, bytes, wellFormed, checkpoints };
}

/** The index in `json` if it is one this version can use, else undefined (then: the slow way). */
export function parseOutputIndex(json) {
  if (typeof json !== "string") return undefined;
  let index;
  try {
    index = JSON.parse(json);
  } catch {
    return undefined;
  }
  const valid =
    index?.version === INDEX_VERSION &&
    Number.isSafeInteger(index.step) && index.step > 0 &&
    [index.chars, index.utf16, index.bytes].every((n) => Number.isSafeInteger(n) && n >= 0) &&
    typeof index.wellFormed === "boolean" &&
    Array.isArray(index.checkpoints) &&
    index.checkpoints.length === Math.max(1, Math.ceil(index.chars / index.step)) &&
    index.checkpoints.every((c) => Array.isArray(c) && c.length === 4 && c.every((n) => Number.isSafeInteger(n) && n >= 0));
  return valid ? index : undefined;
}

/**
 * The stored span that holds code points `from .. to` (`to` clamped to the output's end):
 * `{ firstChar, start, end }` with `start`/`end` in the store's slice unit ("utf16" or "utf8")
 * and `firstChar` the code point at `start`.
 */
export function spanOf(index, from, to, unit) {
  const column = unit === "utf8" ? 1 : 0;
  const last = index.checkpoints.length - 1;
  const first = Math.min(Math.floor(from / index.step), last);
  const after = Math.ceil(Math.min(to, index.chars) / index.step);
  const start = index.checkpoints[first][column];
  const end = after > last ? (unit === "utf8" ? index.bytes : index.utf16) : index.checkpoints[after][column];
  return { firstChar: first * index.step, start, end: Math.max(start, end) };
}

/** `{ point, number }`: the last checkpoint at or before UTF-16 offset `at`. */
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

/** Length in Unicode code points (a lone surrogate counts as one, as in the core). */
export function countCodePoints(text) {
  let count = 0;
  for (let i = 0; i < text.length; i++, count++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
  }
  return count;
}
