// The argument checks every public call shares: what a caller passes is read once, checked, and
// refused as INVALID_ARGUMENT naming the argument; text bound for the core as JSON is made safe for
// it. Nothing here calls the core (runtime.js is the way into it).

import { ToolStubError } from "./stores/errors.js";
import { isWellFormed, toWellFormed } from "./stores/wtf8.js";

/**
 * The core sees text as UTF-8, which cannot hold a lone surrogate: a string argument reaches it
 * with each lone surrogate as U+FFFD (TextEncoder does that on the way in), while stores keep the
 * exact string. Text that travels inside JSON needs this made explicit.
 * @param {string} text
 */
export function wellFormed(text) {
  return isWellFormed(text) ? text : toWellFormed(text);
}

export { isWellFormed };

/**
 * @param {string} message
 * @param {unknown} [cause]
 */
export function invalid(message, cause) {
  return new ToolStubError("INVALID_ARGUMENT", message, { cause });
}

/**
 * Runs `read`, which reads a caller's value: whatever it throws that is not a ToolStubError (a
 * getter or a Proxy trap of the caller's object throwing) is INVALID_ARGUMENT about `what`.
 * @template T
 * @param {string} what
 * @param {() => T} read
 * @returns {T}
 */
export function readingCaller(what, read) {
  try {
    return read();
  } catch (error) {
    if (error instanceof ToolStubError) throw error;
    throw invalid(`reading ${what} threw ${describeThrown(error)}`, error);
  }
}

/** @param {unknown} error */
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
 * @param {unknown} value
 * @param {string} name
 * @returns {string}
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

/**
 * Where in `value` JSON.stringify fails, a few levels down at most (a cycle would go on forever).
 * @param {unknown} value
 * @param {string} path
 * @returns {string}
 */
function unsendablePath(value, path, depth = 0) {
  if (depth >= 4 || value === null || typeof value !== "object") return path;
  try {
    for (const key of Object.keys(value)) {
      const child = /** @type {Record<string, unknown>} */ (value)[key];
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

/**
 * @param {object} parent
 * @param {string} path
 * @param {string} key
 */
function childPath(parent, path, key) {
  if (Array.isArray(parent)) return `${path}[${key}]`;
  return path ? `${path}.${key}` : key;
}

/**
 * The path of the first string (or key) in `value` that holds a lone surrogate.
 * @param {unknown} value
 * @param {string} path
 * @param {number} depth
 * @param {Set<object>} seen
 * @returns {string | undefined}
 */
function loneSurrogatePath(value, path, depth, seen) {
  if (typeof value === "string") return isWellFormed(value) ? undefined : path;
  if (value === null || typeof value !== "object" || depth > 100 || seen.has(value))
    return undefined;
  seen.add(value);
  for (const key of Object.keys(value)) {
    if (!isWellFormed(key)) return `a key in ${path || "the value"}`;
    const child = /** @type {Record<string, unknown>} */ (value)[key];
    const found = loneSurrogatePath(child, childPath(value, path, key), depth + 1, seen);
    if (found) return found;
  }
  return undefined;
}

/**
 * @param {unknown} value
 * @param {string} name
 * @returns {string}
 */
export function requireString(value, name) {
  if (typeof value !== "string") {
    throw invalid(`${name} must be a string (got ${value === null ? "null" : typeof value})`);
  }
  return value;
}

/**
 * `value` if it is a string, `fallback` if it is absent (undefined or null), else INVALID_ARGUMENT.
 * @template {string | null} [F=string]
 * @param {unknown} value
 * @param {string} name
 * @param {F} [fallback]
 * @returns {string | F}
 */
export function optionalString(value, name, fallback = /** @type {F} */ ("")) {
  return value === undefined || value === null ? fallback : requireString(value, name);
}

/**
 * @param {unknown} value
 * @param {string} name
 * @returns {number}
 */
export function requireInteger(value, name) {
  if (typeof value !== "number" || !Number.isSafeInteger(value)) {
    throw invalid(
      `${name} must be a safe integer (got ${typeof value === "number" ? value : typeof value})`,
    );
  }
  return value;
}

/**
 * `value` if it is a safe integer, `fallback` if it is undefined, else INVALID_ARGUMENT.
 * @template F
 * @param {unknown} value
 * @param {string} name
 * @param {F} fallback
 * @returns {number | F}
 */
export function optionalInteger(value, name, fallback) {
  return value === undefined ? fallback : requireInteger(value, name);
}

/**
 * A plain copy of an options object (its own enumerable keys, each read once): later code never
 * touches the caller's object again, so a getter or Proxy trap that throws fails here, as
 * INVALID_ARGUMENT.
 * @param {unknown} options
 * @param {string} name
 * @returns {Record<string, unknown>}
 */
export function requireOptions(options, name) {
  if (options === undefined) return {};
  return readingCaller(name, () => {
    if (options === null || typeof options !== "object" || Array.isArray(options)) {
      throw invalid(`${name} must be an object`);
    }
    /** @type {Record<string, unknown>} */
    const copy = {};
    for (const key of Object.keys(options)) {
      Object.defineProperty(copy, key, {
        value: /** @type {Record<string, unknown>} */ (options)[key],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return copy;
  });
}

/**
 * @param {object} object
 * @param {readonly string[]} allowed
 * @param {string} name
 */
export function checkKnownKeys(object, allowed, name) {
  for (const key of Object.keys(object)) {
    if (!allowed.includes(key)) {
      throw invalid(`unknown ${name} option "${key}"; allowed: ${allowed.join(", ")}`);
    }
  }
}
