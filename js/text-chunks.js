// A large string crosses into wasm, or to a search worker, in pieces with a turn of the event loop
// between them, so no single task of the page's main thread copies a whole 100 MB output.

/** UTF-16 units per piece: ~5 ms of encodeInto work in Chromium (one- or two-byte strings), a few times that on a loaded machine. */
export const CHUNK_UNITS = 1 << 21;

/** @param {number} unit */
const isHigh = (unit) => (unit & 0xfc00) === 0xd800;

/**
 * The pieces of `text` as `[start, end)` UTF-16 ranges of at most CHUNK_UNITS, never splitting a
 * surrogate pair: each piece encodes to exactly the bytes it has in the whole text's UTF-8 (a lone
 * surrogate becomes U+FFFD either way, as wasm-bindgen's encodeInto makes it).
 * @param {string} text
 * @returns {Generator<[number, number]>}
 */
export function* chunkRanges(text) {
  for (let start = 0; start < text.length; ) {
    let end = Math.min(start + CHUNK_UNITS, text.length);
    if (end < text.length && isHigh(text.charCodeAt(end - 1))) end--;
    yield [start, end];
    start = end;
  }
}

/**
 * `scheduler.yield` (Chromium, Firefox): not in TypeScript's DOM library yet.
 * @typedef {{ scheduler?: { yield?: () => Promise<void> } }} WithScheduler
 */

/**
 * Resolves after other tasks (input, rendering, timers) have had a turn.
 * @returns {Promise<void>}
 */
export function yieldToEventLoop() {
  const { scheduler } = /** @type {WithScheduler} */ (globalThis);
  if (typeof scheduler?.yield === "function") return scheduler.yield();
  if (typeof MessageChannel === "function") {
    // Not setTimeout: nested timeouts are clamped to 4 ms, 50 pieces would wait 200 ms for nothing.
    return new Promise(
      /** @param {(value?: void) => void} resolve */ (resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          channel.port1.close();
          resolve();
        };
        channel.port2.postMessage(null);
      },
    );
  }
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * A text held as the pieces a store keeps it in (`store.loadPieces`), not joined: sending it to the
 * search worker piece by piece never builds the whole string on the page's main thread (joining a
 * 100 MB output's pieces there is one task of 110-160 ms). `text()` joins it where a string is
 * needed (a search on this thread), once.
 */
export class TextPieces {
  /** @type {string[]} */
  #pieces;
  /** @type {string | undefined} */
  #text;

  /** @param {string[]} pieces */
  constructor(pieces) {
    this.#pieces = pieces;
    this.length = pieces.reduce((sum, piece) => sum + piece.length, 0);
  }

  /** The whole text (joined on the first call). */
  text() {
    this.#text ??= this.#pieces.join("");
    return this.#text;
  }

  /** The stored pieces, in order. */
  get pieces() {
    return this.#pieces;
  }
}

/**
 * `content` as one string: itself, or a TextPieces joined.
 * @param {string | TextPieces} content
 */
export function wholeText(content) {
  return typeof content === "string" ? content : content.text();
}

/**
 * `content` (a string or TextPieces) as consecutive strings of at most CHUNK_UNITS units, none ending
 * in a high surrogate but the last: each encodes to exactly the bytes it has in the whole text's
 * UTF-8 (a store's pieces may split a surrogate pair; its high half moves to the next string).
 * @param {string | TextPieces} content
 * @returns {Generator<string>}
 */
export function* textPieces(content) {
  if (typeof content === "string") {
    for (const [start, end] of chunkRanges(content)) yield content.slice(start, end);
    return;
  }
  const { pieces } = content;
  let carry = "";
  for (let i = 0; i < pieces.length; i++) {
    let piece = carry + pieces[i];
    carry = "";
    if (i < pieces.length - 1 && piece.length > 0 && isHigh(piece.charCodeAt(piece.length - 1))) {
      carry = piece.slice(-1);
      piece = piece.slice(0, -1);
    }
    for (const [start, end] of chunkRanges(piece)) yield piece.slice(start, end);
  }
}
