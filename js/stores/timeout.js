// A store whose calls fail after a deadline instead of hanging: a store that never answers must
// not hold a turn forever. The failure is a STORE_FAILED error whose cause is a TimeoutError.
// Everything else the store has (`sliceUnit`, `close`, ...) is forwarded as it is.

import { ToolStubError } from "./errors.js";
import { wrapStore } from "./forward.js";

/** The store's calls that do I/O and answer with a promise. */
// `lock` is not among them: it waits for its holder on its own deadline (the store's).
const TIMED_METHODS = [
  "load",
  "save",
  "saveMany",
  "remove",
  "loadRange",
  "removeRange",
  "size",
  "loadSlice",
  "loadKeys",
  "loadPieces",
];

/**
 * @template {object} S
 * @param {S} store
 * @param {number} ms
 * @returns {S}
 */
export function withStoreTimeout(store, ms) {
  const timed =
    (/** @type {string} */ name) =>
    (
      /** @type {(...args: unknown[]) => Promise<unknown>} */ method,
      /** @type {unknown[]} */ ...args
    ) => {
      /** @type {ReturnType<typeof setTimeout> | undefined} */
      let timer;
      const deadline = new Promise((_, reject) => {
        timer = setTimeout(() => {
          const cause = new Error(`store.${name}() did not settle within ${ms} ms`);
          cause.name = "TimeoutError";
          reject(new ToolStubError("STORE_FAILED", cause.message, { cause }));
        }, ms);
      });
      return Promise.race([method(...args), deadline]).finally(() => clearTimeout(timer));
    };
  return wrapStore(store, Object.fromEntries(TIMED_METHODS.map((name) => [name, timed(name)])));
}
