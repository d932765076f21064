// In-memory store: a Map from an encoded key to the value. Segments never
// contain NUL (see keys.js), so joining with NUL is an unambiguous encoding.

import {
  compareKeys,
  hasPrefix,
  validateKey,
  validatePrefix,
  validateSliceBounds,
  validateValue,
} from "./keys.js";
import { acquireLocal, lockName } from "./lock.js";

const SEP = "\0";

export class MemoryStore {
  #map = new Map();
  #locks = new Map();

  async load(key) {
    validateKey(key);
    return this.#map.get(key.join(SEP));
  }

  async save(key, value) {
    validateKey(key);
    validateValue(value);
    this.#map.set(key.join(SEP), value);
  }

  async remove(key) {
    validateKey(key);
    this.#map.delete(key.join(SEP));
  }

  async loadRange(prefix) {
    validatePrefix(prefix);
    const out = [];
    for (const [k, value] of this.#map) {
      const key = k.split(SEP); // a fresh array: callers may mutate it freely
      if (hasPrefix(key, prefix)) out.push({ key, value });
    }
    // Sorted on read rather than kept in a sorted structure: simple, and the
    // memory store is for tests and small sessions.
    return out.sort((a, b) => compareKeys(a.key, b.key));
  }

  /** The keys loadRange(prefix) would return, without their values. */
  async loadKeys(prefix) {
    validatePrefix(prefix);
    const out = [];
    for (const k of this.#map.keys()) {
      const key = k.split(SEP);
      if (hasPrefix(key, prefix)) out.push(key);
    }
    return out.sort(compareKeys);
  }

  /** An exclusive lock named by `key` (held by this process only: the map is too). */
  async lock(key) {
    validateKey(key);
    const release = await acquireLocal(this.#locks, lockName(key));
    return { recovered: false, release: async () => release() };
  }

  async removeRange(prefix) {
    validatePrefix(prefix);
    for (const k of [...this.#map.keys()]) {
      if (hasPrefix(k.split(SEP), prefix)) this.#map.delete(k);
    }
  }

  /**
   * loadSlice positions are UTF-16 code units.
   * @returns {"utf16"}
   */
  get sliceUnit() {
    return "utf16";
  }

  /** value.slice(start, end), or undefined if there is no value. */
  async loadSlice(key, start, end) {
    validateKey(key);
    validateSliceBounds(start, end);
    return this.#map.get(key.join(SEP))?.slice(start, end);
  }

  async size(key) {
    validateKey(key);
    return this.#map.get(key.join(SEP))?.length;
  }
}
