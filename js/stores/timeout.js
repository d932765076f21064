// A store whose calls fail after a deadline instead of hanging: a store that never answers must
// not hold a turn forever. The failure is a STORE_FAILED error whose cause is a TimeoutError.

import { ToolStubError } from "./errors.js";

const METHODS = ["load", "save", "remove", "loadRange", "removeRange", "size"];

export function withStoreTimeout(store, ms) {
  const wrapped = {};
  for (const method of METHODS) {
    if (typeof store[method] !== "function") continue;
    wrapped[method] = (...args) => {
      let timer;
      const deadline = new Promise((_, reject) => {
        timer = setTimeout(() => {
          const cause = new Error(`store.${method}() did not settle within ${ms} ms`);
          cause.name = "TimeoutError";
          reject(new ToolStubError("STORE_FAILED", cause.message, { cause }));
        }, ms);
      });
      return Promise.race([store[method](...args), deadline]).finally(() => clearTimeout(timer));
    };
  }
  return wrapped;
}
