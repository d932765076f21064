// A store whose answers are checked before they go on: a value that is not a string where a string
// belongs (a number, a Buffer, an object) would reach the wasm core as garbage and trap it. Such an
// answer is a STORE_FAILED error naming the key instead.

import { ToolStubError } from "./errors.js";
import { wrapStore } from "./forward.js";

function describe(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return `an object (${value.constructor?.name ?? "no prototype"})`;
  return `a ${typeof value}`;
}

function keyText(key) {
  return Array.isArray(key) ? JSON.stringify(key.map(String).join("/").slice(0, 300)) : String(key);
}

function junk(call, key, value, wanted) {
  return new ToolStubError(
    "STORE_FAILED",
    `store.${call}(${keyText(key)}) answered ${describe(value)}, not ${wanted}`,
  );
}

function stringOrUndefined(call) {
  return async (method, key, ...rest) => {
    const value = await method(key, ...rest);
    if (value !== undefined && typeof value !== "string")
      throw junk(call, key, value, "a string or undefined");
    return value;
  };
}

export function withCheckedAnswers(store) {
  return wrapStore(store, {
    load: stringOrUndefined("load"),
    loadSlice: stringOrUndefined("loadSlice"),
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
    async size(method, key) {
      const size = await method(key);
      if (size !== undefined && !(Number.isSafeInteger(size) && size >= 0))
        throw junk("size", key, size, "a length or undefined");
      return size;
    },
  });
}
