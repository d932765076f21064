// WTF-8: UTF-8 generalised so that lone surrogates (which JS strings may
// contain) are encoded as the 3-byte sequence of their code point
// (ED A0..BF 80..BF). Well-formed strings encode to exactly the UTF-8 bytes
// any other tool would write; only strings that UTF-8 cannot represent differ.
// https://simonsapin.github.io/wtf-8/

import { ToolStubError } from "./errors.js";

const encoder = new TextEncoder();
// fatal: invalid bytes must fail loudly, not turn into U+FFFD silently.
// ignoreBOM: a leading U+FEFF is content and must survive the round trip.
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** String.prototype's ES2024 methods, where the runtime has them (Node 18 lacks them). */
/** @typedef {{ isWellFormed?: () => boolean, toWellFormed?: () => string }} Es2024String */

/** @param {string} str */
export function isWellFormed(str) {
  const native = /** @type {Es2024String} */ (/** @type {unknown} */ (str));
  if (typeof native.isWellFormed === "function") return native.isWellFormed();
  LONE_SURROGATE.lastIndex = 0;
  return !LONE_SURROGATE.test(str);
}

/**
 * `str` with each lone surrogate replaced by U+FFFD (String.prototype.toWellFormed, which Node 18 lacks).
 * @param {string} str
 */
export function toWellFormed(str) {
  const native = /** @type {Es2024String} */ (/** @type {unknown} */ (str));
  if (typeof native.toWellFormed === "function") return native.toWellFormed();
  return str.replace(LONE_SURROGATE, "\uFFFD");
}

/** @param {string} str @returns {Uint8Array} */
export function encode(str) {
  if (isWellFormed(str)) return encoder.encode(str);
  // Encode the well-formed runs natively, splice in 3 bytes per lone surrogate.
  /** @type {Uint8Array[]} */
  const parts = [];
  let total = 0;
  let last = 0;
  const push = (/** @type {Uint8Array} */ bytes) => {
    parts.push(bytes);
    total += bytes.length;
  };
  for (const m of str.matchAll(LONE_SURROGATE)) {
    push(encoder.encode(str.slice(last, m.index)));
    const cu = m[0].charCodeAt(0);
    push(Uint8Array.of(0xe0 | (cu >> 12), 0x80 | ((cu >> 6) & 0x3f), 0x80 | (cu & 0x3f)));
    last = m.index + 1;
  }
  push(encoder.encode(str.slice(last)));
  const out = new Uint8Array(total);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

/** @param {unknown} [cause] */
function corrupt(cause) {
  return new ToolStubError("CORRUPT", "stored bytes are not valid UTF-8/WTF-8", { cause });
}

/** @param {Uint8Array} bytes */
function decodeUtf8(bytes) {
  try {
    return decoder.decode(bytes);
  } catch (err) {
    throw corrupt(err);
  }
}

// Index of the next encoded surrogate (ED followed by A0..BF) at or after `from`, or -1.
// 0xED is always a lead byte in UTF-8, so any occurrence starts a sequence.
/**
 * @param {Uint8Array} bytes
 * @param {number} from
 */
function nextSurrogate(bytes, from) {
  for (let i = bytes.indexOf(0xed, from); i !== -1; i = bytes.indexOf(0xed, i + 1)) {
    if (i + 1 < bytes.length && bytes[i + 1] >= 0xa0) return i;
  }
  return -1;
}

/** @param {Uint8Array} bytes @returns {string} */
export function decode(bytes) {
  let i = nextSurrogate(bytes, 0);
  if (i === -1) return decodeUtf8(bytes); // fast path: plain UTF-8
  // Slow path: decode the runs between encoded surrogates natively (fatal
  // decoding still validates them) and splice the surrogates in.
  /** @type {string[]} */
  const parts = [];
  let last = 0;
  while (i !== -1) {
    const b2 = bytes[i + 2];
    if (b2 === undefined || (b2 & 0xc0) !== 0x80) throw corrupt();
    parts.push(decodeUtf8(bytes.subarray(last, i)));
    parts.push(String.fromCharCode(0xd000 | ((bytes[i + 1] & 0x3f) << 6) | (b2 & 0x3f)));
    last = i + 3;
    i = nextSurrogate(bytes, last);
  }
  parts.push(decodeUtf8(bytes.subarray(last)));
  // Note: a high and a low surrogate encoded separately decode to a valid
  // pair. Strict WTF-8 forbids that byte form; we never write it, and
  // accepting it loses nothing.
  return parts.join("");
}

/**
 * Length in UTF-16 code units of the string `bytes` decode to, without
 * decoding: every non-continuation byte starts one code point, and 4-byte
 * sequences (lead F0..F7) need a surrogate pair.
 * Counts can be accumulated over chunks of a stream.
 * @param {Uint8Array} bytes
 */
export function utf16Length(bytes) {
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if ((b & 0xc0) !== 0x80) n += b >= 0xf0 ? 2 : 1;
  }
  return n;
}
