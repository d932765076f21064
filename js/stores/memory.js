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

/** @typedef {import("./store.js").StoreKey} StoreKey */

export class MemoryStore {
  /** @type {Map<string, string>} */
  #map = new Map();
  /** @type {Map<string, Promise<unknown>>} */
  #locks = new Map();

  /** @param {StoreKey} key */
  async load(key) {
    validateKey(key);
    return this.#map.get(key.join(SEP));
  }

  /**
   * @param {StoreKey} key
   * @param {string} value
   */
  async save(key, value) {
    validateKey(key);
    validateValue(value);
    this.#map.set(key.join(SEP), value);
  }

  /** @param {StoreKey} key */
  async remove(key) {
    validateKey(key);
    this.#map.delete(key.join(SEP));
  }

  /** @param {StoreKey} prefix */
  async loadRange(prefix) {
    validatePrefix(prefix);
    /** @type {import("./store.js").StoreEntry[]} */
    const out = [];
    for (const [k, value] of this.#map) {
      const key = k.split(SEP); // a fresh array: callers may mutate it freely
      if (hasPrefix(key, prefix)) out.push({ key, value });
    }
    // Sorted on read rather than kept in a sorted structure: simple, and the
    // memory store is for tests and small sessions.
    return out.sort((a, b) => compareKeys(a.key, b.key));
  }

  /**
   * The keys loadRange(prefix) would return, without their values.
   * @param {StoreKey} prefix
   */
  async loadKeys(prefix) {
    validatePrefix(prefix);
    /** @type {StoreKey[]} */
    const out = [];
    for (const k of this.#map.keys()) {
      const key = k.split(SEP);
      if (hasPrefix(key, prefix)) out.push(key);
    }
    return out.sort(compareKeys);
  }

  /**
   * An exclusive lock named by `key` (held by this process only: the map is too).
   * @param {StoreKey} key
   */
  async lock(key) {
    validateKey(key);
    const release = await acquireLocal(this.#locks, lockName(key));
    return { recovered: false, release: async () => release() };
  }

  /** @param {StoreKey} prefix */
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

  /**
   * value.slice(start, end), or undefined if there is no value.
   * @param {StoreKey} key
   * @param {number} start
   * @param {number} end
   */
  async loadSlice(key, start, end) {
    validateKey(key);
    validateSliceBounds(start, end);
    return this.#map.get(key.join(SEP))?.slice(start, end);
  }

  /** @param {StoreKey} key */
  async size(key) {
    validateKey(key);
    return this.#map.get(key.join(SEP))?.length;
  }
}
