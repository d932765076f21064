// MCP's stdio framing: one JSON-RPC message per line, UTF-8, "\n"-terminated (a "\r" before it is
// tolerated). Lines are handed on as text so that a message the proxy does not change can go on
// byte for byte.

/**
 * A JSON-RPC 2.0 message as parsed: a request or a notification (`method` a string), or a
 * response (`result` or `error`). What is under `params` and `result` is the peer's, unchecked.
 * @typedef {object} JsonRpcMessage
 * @property {"2.0"} jsonrpc
 * @property {unknown} [id]
 * @property {unknown} [method]
 * @property {{ [field: string]: unknown }} [params]
 * @property {unknown} [result]
 * @property {unknown} [error]
 */
/** A request or a notification. @typedef {JsonRpcMessage & { method: string }} JsonRpcCall */

/**
 * Calls `onLine(text)` for every non-empty line of `stream`, and `onEnd()` once it ends. Lines of
 * any length (a 100 MB tool result is one line): chunks are only joined when a line spans them.
 * Splitting at the byte 0x0A never cuts a UTF-8 sequence.
 * @param {import("node:stream").Readable} stream a byte stream (no encoding set)
 * @param {(text: string) => void} onLine
 * @param {() => void} onEnd
 */
export function readLines(stream, onLine, onEnd) {
  /** @type {Buffer[]} */
  let pending = [];
  stream.on("data", (/** @type {Buffer} */ chunk) => {
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, newline);
      const bytes = pending.length ? Buffer.concat([...pending, piece]) : piece;
      pending = [];
      start = newline + 1;
      emit(bytes);
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  });
  stream.on("end", () => {
    if (pending.length) emit(Buffer.concat(pending));
    pending = [];
    onEnd();
  });
  /** @param {Buffer} bytes */
  function emit(bytes) {
    const end = bytes.length && bytes[bytes.length - 1] === 13 ? bytes.length - 1 : bytes.length;
    if (end === 0) return;
    onLine(bytes.toString("utf8", 0, end));
  }
}

/**
 * One message as a line.
 * @param {unknown} message a message, or its JSON text
 */
export function frame(message) {
  return `${typeof message === "string" ? message : JSON.stringify(message)}\n`;
}

/**
 * The JSON-RPC 2.0 message in `text`, or undefined when it is not one (not JSON, or JSON that is
 * no request, notification or response): what the proxy calls non-protocol output.
 * @param {string} text
 * @returns {JsonRpcMessage | JsonRpcMessage[] | undefined}
 */
export function parseMessage(text) {
  let message;
  try {
    message = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (Array.isArray(message))
    return message.length && message.every(isMessage) ? message : undefined;
  return isMessage(message) ? message : undefined;
}

/**
 * @param {unknown} value
 * @returns {value is JsonRpcMessage}
 */
function isMessage(value) {
  if (value === null || typeof value !== "object") return false;
  const fields = /** @type {{ [field: string]: unknown }} */ (value);
  if (fields.jsonrpc !== "2.0") return false;
  if (typeof fields.method === "string") return true;
  return "id" in value && ("result" in value || "error" in value);
}

/**
 * @param {JsonRpcMessage} m
 * @returns {m is JsonRpcCall}
 */
export const isRequest = (m) => typeof m.method === "string" && m.id !== undefined;
/**
 * @param {JsonRpcMessage} m
 * @returns {m is JsonRpcCall}
 */
export const isNotification = (m) => typeof m.method === "string" && m.id === undefined;
/** @param {JsonRpcMessage} m */
export const isResponse = (m) => typeof m.method !== "string";
