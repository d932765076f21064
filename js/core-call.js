// The one way into the wasm core: readiness, the single error conversion (and recovery from a
// wasm trap), the host's SHA-256, and the argument checks every public call shares.

import * as core from "../wasm/tool_stub.js";
import { ERROR_CODES, ToolStubError } from "./stores/errors.js";
import { encode as wtf8Bytes, isWellFormed, toWellFormed } from "./stores/wtf8.js";
import { isReady, notReadyMessage } from "./ready.js";

/**
 * Hex SHA-256 of a well-formed string's UTF-8 bytes, possibly async. The entry modules install the
 * host's native one (node:crypto, WebCrypto), several times faster than the core's; the digests are
 * the same, and the core's stays the fallback.
 */
let hasher = (text) => core.sha256Hex(text);

export function hashOutput(text) {
  return hasher(text);
}

/**
 * Hex SHA-256 of the bytes a store keeps for `text`: its UTF-8, or, when it holds lone surrogates
 * (which UTF-8 cannot hold; every store keeps them exactly), its WTF-8, where each lone surrogate
 * is the 3-byte form of its code point. So an output with a lone surrogate and one with U+FFFD in
 * its place, which look alike to the core, never share a digest or an id. Synchronous; the core
 * hashes such rare text itself.
 */
export function storedSha256(text) {
  return isWellFormed(text) ? core.sha256Hex(text) : core.sha256HexOfBytes(wtf8Bytes(text));
}

/**
 * A synchronous SHA-256 of bytes that the core calls on an output in its own memory while it
 * plans a turn (`{ sha256(utf8: Uint8Array): hex }`, HostHasher in src/wasm.rs), or undefined.
 * Node has one (node:crypto): hashing the UTF-8 the core already holds skips a second encoding of
 * every output. WebCrypto is async, so browsers hash up front with `hasher` instead.
 */
let inCoreHasher;

export function inCoreSha256() {
  return inCoreHasher;
}

/** Called by the Node entry with node:crypto's SHA-256 of bytes. */
export function useInCoreSha256(sha256OfBytes) {
  inCoreHasher = { sha256: sha256OfBytes };
}

/**
 * An asynchronous SHA-256 of bytes (`(utf8: Uint8Array) => Promise<hex>`) that copies its input
 * before it returns, as WebCrypto's `digest` does, or undefined. Browsers have one: `externalize`
 * stages the outputs in the core and hashes the bytes there (HostDigests in src/wasm.rs) instead
 * of encoding every output a second time for `hasher`.
 */
let stagedHasher;

export function stagedSha256() {
  return stagedHasher;
}

/** Called by the browser entry with WebCrypto's SHA-256 of bytes. */
export function useStagedSha256(sha256OfBytes) {
  stagedHasher = sha256OfBytes;
}

/**
 * Called by an entry module with the host's SHA-256 (`(text) => hex | Promise<hex>`); a hasher
 * installed from outside replaces the ones of bytes too, so it is the one used.
 */
export function useSha256(host) {
  hasher = host;
  inCoreHasher = undefined;
  stagedHasher = undefined;
}

/**
 * How many times the core was started afresh. Anything the core keeps between two calls (a
 * planned turn, staged outputs) belongs to the instance it was made in: a holder compares this
 * number with the one it saw then before it uses it (see planned-turn.js).
 */
let instance = 0;

export function coreInstance() {
  return instance;
}

/** Replaces the core's instance with a fresh one: a new memory, nothing kept from before. */
function restartCore() {
  core.__wbg_reset_state();
  instance++;
}

/** Turns planned in the core and not yet finished or dropped (see planned-turn.js). */
let holds = 0;

/** Keeps what the core holds for a turn: no restart to give memory back until it is released. */
export function holdInstance() {
  holds++;
}

export function releaseInstance() {
  holds--;
  giveMemoryBack();
}

/**
 * Wasm memory only grows: one large output (a 63 MB YAML needs ~1.4 GB while its synopsis is made)
 * would stay resident for the life of the process. Past this size, and when the core keeps nothing
 * for a call in flight, the core starts afresh and the old memory goes with the old instance. Most
 * calls stay far below it (a 10 MB output of any kind needs less), so they never pay for a restart.
 */
export const KEPT_MEMORY_BYTES = 256 * 1024 * 1024;

function giveMemoryBack() {
  if (holds === 0 && core.memoryBytes() > KEPT_MEMORY_BYTES) restartCore();
}

/**
 * Turns what the core throws into a ToolStubError (and recovers from a wasm trap). The core throws
 * an `Error` with a `code` (src/wasm.rs); the ToolStubError keeps its stack, which goes through the
 * core's frames to the caller's.
 */
export function toToolStubError(error) {
  if (error instanceof ToolStubError) return error;
  if (typeof WebAssembly !== "undefined" && error instanceof WebAssembly.RuntimeError) {
    // A trap leaves the instance's stack and allocator in an unknown state: start afresh so the
    // next call works.
    restartCore();
    return new ToolStubError(
      "INTERNAL",
      `internal error in the wasm core (module reset): ${error.message}`,
      {
        cause: error,
      },
    );
  }
  if (error instanceof Error && ERROR_CODES.includes(error.code)) {
    const converted = new ToolStubError(error.code, error.message);
    const head = `Error: ${error.message}`;
    if (typeof error.stack === "string" && error.stack.startsWith(head)) {
      converted.stack = `ToolStubError: ${error.message}${error.stack.slice(head.length)}`;
    }
    return converted;
  }
  return new ToolStubError("INTERNAL", String(error?.message ?? error), { cause: error });
}

/** Calls the core, with one error conversion for the whole package. */
export function callCore(fn, ...args) {
  if (!isReady()) {
    throw new ToolStubError("NOT_READY", notReadyMessage());
  }
  try {
    return fn(...args);
  } catch (error) {
    throw toToolStubError(error);
  } finally {
    giveMemoryBack();
  }
}

/**
 * The core sees text as UTF-8, which cannot hold a lone surrogate: a string argument reaches it
 * with each lone surrogate as U+FFFD (TextEncoder does that on the way in), while stores keep the
 * exact string. Text that travels inside JSON needs this made explicit.
 */
export function wellFormed(text) {
  return isWellFormed(text) ? text : toWellFormed(text);
}

export { isWellFormed };

export function invalid(message, cause) {
  return new ToolStubError("INVALID_ARGUMENT", message, { cause });
}

/**
 * Runs `read`, which reads a caller's value: whatever it throws that is not a ToolStubError (a
 * getter or a Proxy trap of the caller's object throwing) is INVALID_ARGUMENT about `what`.
 */
export function readingCaller(what, read) {
  try {
    return read();
  } catch (error) {
    if (error instanceof ToolStubError) throw error;
    throw invalid(`reading ${what} threw ${describeThrown(error)}`, error);
  }
}

function describeThrown(error) {
  try {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } catch {
    return "a value that cannot be shown";
  }
}

/** A lone surrogate's escape in JSON text: `\uD800`..`\uDFFF` after an even run of backslashes. */
const LONE_SURROGATE_ESCAPE = /(?<!\\)(?:\\\\)*\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;

/**
 * JSON text of a caller's value for the core. What JSON cannot hold (a BigInt, a cycle, nesting too
 * deep), a getter or Proxy trap that throws, and a lone surrogate in a string (the core reads only
 * well-formed Unicode) are INVALID_ARGUMENT naming where they are: paths start at `name` ("" for
 * an object whose keys name themselves, such as a turn's `messageId` and `parts`).
 */
export function callerJson(value, name) {
  let json;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    const reason = error instanceof RangeError ? "it is nested too deeply" : describeThrown(error);
    throw invalid(
      `${unsendablePath(value, name) || "the value"} cannot be sent as JSON: ${reason}`,
      error,
    );
  }
  if (LONE_SURROGATE_ESCAPE.test(json)) {
    const where = loneSurrogatePath(value, name, 0, new Set()) || name || "a string";
    throw invalid(
      `${where} holds a lone surrogate (half of a UTF-16 pair): this text must be well-formed Unicode`,
    );
  }
  return json;
}

/** Where in `value` JSON.stringify fails, a few levels down at most (a cycle would go on forever). */
function unsendablePath(value, path, depth = 0) {
  if (depth >= 4 || value === null || typeof value !== "object") return path;
  try {
    for (const key of Object.keys(value)) {
      const child = value[key];
      try {
        JSON.stringify(child);
      } catch {
        return unsendablePath(child, childPath(value, path, key), depth + 1);
      }
    }
  } catch {
    // A throwing getter or trap here: this is the place.
  }
  return path;
}

function childPath(parent, path, key) {
  if (Array.isArray(parent)) return `${path}[${key}]`;
  return path ? `${path}.${key}` : key;
}

/** The path of the first string (or key) in `value` that holds a lone surrogate. */
function loneSurrogatePath(value, path, depth, seen) {
  if (typeof value === "string") return isWellFormed(value) ? undefined : path;
  if (value === null || typeof value !== "object" || depth > 100 || seen.has(value))
    return undefined;
  seen.add(value);
  for (const key of Object.keys(value)) {
    if (!isWellFormed(key)) return `a key in ${path || "the value"}`;
    const found = loneSurrogatePath(value[key], childPath(value, path, key), depth + 1, seen);
    if (found) return found;
  }
  return undefined;
}

export function requireString(value, name) {
  if (typeof value !== "string") {
    throw invalid(`${name} must be a string (got ${value === null ? "null" : typeof value})`);
  }
  return value;
}

export function optionalString(value, name, fallback = "") {
  return value === undefined || value === null ? fallback : requireString(value, name);
}

export function requireInteger(value, name) {
  if (typeof value !== "number" || !Number.isSafeInteger(value)) {
    throw invalid(
      `${name} must be a safe integer (got ${typeof value === "number" ? value : typeof value})`,
    );
  }
  return value;
}

export function optionalInteger(value, name, fallback) {
  return value === undefined ? fallback : requireInteger(value, name);
}

/**
 * A plain copy of an options object (its own enumerable keys, each read once): later code never
 * touches the caller's object again, so a getter or Proxy trap that throws fails here, as
 * INVALID_ARGUMENT.
 */
export function requireOptions(options, name) {
  if (options === undefined) return {};
  return readingCaller(name, () => {
    if (options === null || typeof options !== "object" || Array.isArray(options)) {
      throw invalid(`${name} must be an object`);
    }
    const copy = {};
    for (const key of Object.keys(options)) {
      Object.defineProperty(copy, key, {
        value: options[key],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return copy;
  });
}

export function checkKnownKeys(object, allowed, name) {
  for (const key of Object.keys(object)) {
    if (!allowed.includes(key)) {
      throw invalid(`unknown ${name} option "${key}"; allowed: ${allowed.join(", ")}`);
    }
  }
}
