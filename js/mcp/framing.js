// MCP's stdio framing: one JSON-RPC message per line, UTF-8, "\n"-terminated (a "\r" before it is
// tolerated). Lines are handed on as text so that a message the proxy does not change can go on
// byte for byte.

/**
 * Calls `onLine(text)` for every non-empty line of `stream`, and `onEnd()` once it ends. Lines of
 * any length (a 100 MB tool result is one line): chunks are only joined when a line spans them.
 * Splitting at the byte 0x0A never cuts a UTF-8 sequence.
 */
export function readLines(stream, onLine, onEnd) {
  let pending = [];
  stream.on("data", (chunk) => {
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
  function emit(bytes) {
    const end = bytes.length && bytes[bytes.length - 1] === 13 ? bytes.length - 1 : bytes.length;
    if (end === 0) return;
    onLine(bytes.toString("utf8", 0, end));
  }
}

/** One message as a line. */
export function frame(message) {
  return `${typeof message === "string" ? message : JSON.stringify(message)}\n`;
}

/**
 * The JSON-RPC 2.0 message in `text`, or undefined when it is not one (not JSON, or JSON that is
 * no request, notification or response): what the proxy calls non-protocol output.
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

function isMessage(value) {
  if (value === null || typeof value !== "object" || value.jsonrpc !== "2.0") return false;
  if (typeof value.method === "string") return true;
  return "id" in value && ("result" in value || "error" in value);
}

export const isRequest = (m) => typeof m.method === "string" && m.id !== undefined;
export const isNotification = (m) => typeof m.method === "string" && m.id === undefined;
export const isResponse = (m) => typeof m.method !== "string";
