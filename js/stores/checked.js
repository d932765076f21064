// A store whose answers are checked before they go on: a value that is not a string where a string
// belongs (a number, a Buffer, an object) would reach the wasm core as garbage and trap it. Such an
// answer is a STORE_FAILED error naming the key instead.

import { ToolStubError } from "./errors.js";
import { wrapStore } from "./forward.js";

/** A store method, bound to its store (see forward.js). */
/** @typedef {(...args: unknown[]) => Promise<unknown>} Method */

/** @param {unknown} value */
function describe(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return `an object (${value.constructor?.name ?? "no prototype"})`;
  return `a ${typeof value}`;
}

/** @param {unknown} key */
function keyText(key) {
  return Array.isArray(key) ? JSON.stringify(key.map(String).join("/").slice(0, 300)) : String(key);
}

/**
 * @param {string} call
 * @param {unknown} key
 * @param {unknown} value
 * @param {string} wanted
 */
function junk(call, key, value, wanted) {
  return new ToolStubError(
    "STORE_FAILED",
    `store.${call}(${keyText(key)}) answered ${describe(value)}, not ${wanted}`,
  );
}

/** @param {string} call */
function stringOrUndefined(call) {
  return async (
    /** @type {Method} */ method,
    /** @type {unknown} */ key,
    /** @type {unknown[]} */ ...rest
  ) => {
    const value = await method(key, ...rest);
    if (value !== undefined && typeof value !== "string")
      throw junk(call, key, value, "a string or undefined");
    return value;
  };
}

/**
 * @template {object} S
 * @param {S} store
 * @returns {S}
 */
export function withCheckedAnswers(store) {
  return wrapStore(store, {
    load: stringOrUndefined("load"),
    loadSlice: stringOrUndefined("loadSlice"),
    /**
     * @param {Method} method
     * @param {unknown} key
     */
    async loadPieces(method, key) {
      const pieces = await method(key);
      if (
        pieces !== undefined &&
        !(Array.isArray(pieces) && pieces.every((piece) => typeof piece === "string"))
      ) {
        throw junk("loadPieces", key, pieces, "an array of strings or undefined");
      }
      return pieces;
    },
    /**
     * @param {Method} method
     * @param {unknown} prefix
     */
    async loadRange(method, prefix) {
      const entries = await method(prefix);
      if (!Array.isArray(entries))
        throw junk("loadRange", prefix, entries, "an array of { key, value } entries");
      for (const entry of entries) {
        const key = entry?.key;
        if (!Array.isArray(key) || !key.every((segment) => typeof segment === "string")) {
          throw junk("loadRange", prefix, key, "an entry key (an array of strings)");
        }
        if (typeof entry.value !== "string")
          throw junk("loadRange", key, entry.value, "a string value");
      }
      return entries;
    },
    /**
     * @param {Method} method
     * @param {unknown} prefix
     */
    async loadKeys(method, prefix) {
      const keys = await method(prefix);
      if (!Array.isArray(keys)) throw junk("loadKeys", prefix, keys, "an array of keys");
      for (const key of keys) {
        if (!Array.isArray(key) || !key.every((segment) => typeof segment === "string")) {
          throw junk("loadKeys", prefix, key, "a key (an array of strings)");
        }
      }
      return keys;
    },
    /**
     * @param {Method} method
     * @param {unknown} key
     */
    async size(method, key) {
      const size = await method(key);
      if (
        size !== undefined &&
        !(typeof size === "number" && Number.isSafeInteger(size) && size >= 0)
      )
        throw junk("size", key, size, "a length or undefined");
      return size;
    },
  });
}
