// Key validation shared by every adapter, so a key that one store accepts is
// accepted by all of them. The rules are strict because NodeFsStore maps
// segments to path components: anything that could escape or alias a path
// ("/", "\\", NUL, ".", "..", "") is refused everywhere, not only on disk.
// Lone surrogates are refused too: file systems cannot name them (Node turns
// them into U+FFFD), so two distinct keys would alias the same file.

import { ToolStubError } from "./errors.js";
import { isWellFormed } from "./wtf8.js";

/** @param {unknown} seg */
function describe(seg) {
  return typeof seg === "string" ? JSON.stringify(seg) : `${typeof seg} ${String(seg)}`;
}

/**
 * @param {unknown} seg
 * @param {number} index
 * @param {string} why
 */
function badSegment(seg, index, why) {
  return new ToolStubError(
    "INVALID_ARGUMENT",
    `invalid key segment ${describe(seg)} at index ${index}: ${why}`,
  );
}

/**
 * Throws ToolStubError("INVALID_ARGUMENT") unless `seg` is a usable segment.
 * @param {unknown} seg
 * @param {number} [index]
 * @returns {asserts seg is string}
 */
export function validateSegment(seg, index = 0) {
  if (typeof seg !== "string") throw badSegment(seg, index, "must be a string");
  if (seg === "") throw badSegment(seg, index, "must not be empty");
  if (seg === "." || seg === "..") throw badSegment(seg, index, "must not be '.' or '..'");
  if (seg.includes("/")) throw badSegment(seg, index, "must not contain '/'");
  if (seg.includes("\\")) throw badSegment(seg, index, "must not contain '\\'");
  if (seg.includes("\0")) throw badSegment(seg, index, "must not contain NUL");
  if (!isWellFormed(seg)) throw badSegment(seg, index, "must not contain lone surrogates");
}

/**
 * A full key: a non-empty array of valid segments.
 * @param {unknown} key
 */
export function validateKey(key) {
  if (!Array.isArray(key)) {
    throw new ToolStubError(
      "INVALID_ARGUMENT",
      `key must be an array of strings, got ${describe(key)}`,
    );
  }
  if (key.length === 0) throw new ToolStubError("INVALID_ARGUMENT", "key must not be empty");
  key.forEach(validateSegment);
}

/**
 * A prefix for range operations: like a key, but may be empty (= everything).
 * @param {unknown} prefix
 */
export function validatePrefix(prefix) {
  if (!Array.isArray(prefix)) {
    throw new ToolStubError(
      "INVALID_ARGUMENT",
      `prefix must be an array of strings, got ${describe(prefix)}`,
    );
  }
  prefix.forEach(validateSegment);
}

/** @param {unknown} value */
export function validateValue(value) {
  if (typeof value !== "string") {
    throw new ToolStubError("INVALID_ARGUMENT", `value must be a string, got ${typeof value}`);
  }
}

/**
 * Segment-wise comparison in UTF-16 code unit order (what `<` on strings does).
 * @param {readonly string[]} a
 * @param {readonly string[]} b
 */
export function compareKeys(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return a.length - b.length;
}

/**
 * @param {readonly string[]} key
 * @param {readonly string[]} prefix
 */
export function hasPrefix(key, prefix) {
  if (key.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (key[i] !== prefix[i]) return false;
  return true;
}

/**
 * Bounds of a loadSlice: safe integers with 0 <= start <= end.
 * @param {number} start
 * @param {number} end
 */
export function validateSliceBounds(start, end) {
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw new ToolStubError(
      "INVALID_ARGUMENT",
      `slice bounds must be integers with 0 <= start <= end (got ${start}, ${end})`,
    );
  }
}
