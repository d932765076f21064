// A large string crosses into wasm, or to a search worker, in pieces with a turn of the event loop
// between them, so no single task of the page's main thread copies a whole 100 MB output.

/** UTF-16 units per piece: ~5 ms of encodeInto work in Chromium (one- or two-byte strings), a few times that on a loaded machine. */
export const CHUNK_UNITS = 1 << 21;

const isHigh = (unit) => (unit & 0xfc00) === 0xd800;

/**
 * The pieces of `text` as `[start, end)` UTF-16 ranges of at most CHUNK_UNITS, never splitting a
 * surrogate pair: each piece encodes to exactly the bytes it has in the whole text's UTF-8 (a lone
 * surrogate becomes U+FFFD either way, as wasm-bindgen's encodeInto makes it).
 */
export function* chunkRanges(text) {
  for (let start = 0; start < text.length; ) {
    let end = Math.min(start + CHUNK_UNITS, text.length);
    if (end < text.length && isHigh(text.charCodeAt(end - 1))) end--;
    yield [start, end];
    start = end;
  }
}

/** Resolves after other tasks (input, rendering, timers) have had a turn. */
export function yieldToEventLoop() {
  if (typeof globalThis.scheduler?.yield === "function") return globalThis.scheduler.yield();
  if (typeof MessageChannel === "function") {
    // Not setTimeout: nested timeouts are clamped to 4 ms, 50 pieces would wait 200 ms for nothing.
    return new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        resolve();
      };
      channel.port2.postMessage(null);
    });
  }
  return new Promise((resolve) => setTimeout(resolve, 0));
}
