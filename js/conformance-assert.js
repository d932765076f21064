import { caught } from "./stores/errors.js";
// The conformance suite's tiny assert (part of `tool-stub/testing`): it works in any runtime, with
// no test framework. Browser-safe: no Node imports.

/**
 * A short display of a value for a failure message.
 * @param {unknown} v
 */
export function show(v) {
  if (typeof v === "string" && v.length > 80)
    return `<string of length ${v.length}: ${JSON.stringify(v.slice(0, 40))}…>`;
  const s = JSON.stringify(v);
  return s !== undefined && s.length > 200 ? `${s.slice(0, 200)}…` : String(s);
}

export const assert = {
  /**
   * @param {unknown} cond
   * @param {string} [msg]
   */
  ok(cond, msg = "expected truthy") {
    if (!cond) throw new Error(msg);
  },
  /**
   * @param {unknown} actual
   * @param {unknown} expected
   * @param {string} [msg]
   */
  equal(actual, expected, msg = "") {
    if (!Object.is(actual, expected))
      throw new Error(`${msg ? `${msg}: ` : ""}expected ${show(expected)}, got ${show(actual)}`);
  },
  /**
   * Structural equality for plain data (arrays, objects, strings, numbers).
   * @param {unknown} actual
   * @param {unknown} expected
   * @param {string} [msg]
   */
  deepEqual(actual, expected, msg = "") {
    /**
     * @param {unknown} a
     * @param {unknown} b
     * @returns {boolean}
     */
    const same = (a, b) => {
      if (Object.is(a, b)) return true;
      if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
      if (Array.isArray(a) !== Array.isArray(b)) return false;
      const fa = /** @type {{ [key: string]: unknown }} */ (a);
      const fb = /** @type {{ [key: string]: unknown }} */ (b);
      const ka = Object.keys(fa),
        kb = Object.keys(fb);
      return ka.length === kb.length && ka.every((k) => same(fa[k], fb[k]));
    };
    if (!same(actual, expected))
      throw new Error(`${msg ? `${msg}: ` : ""}expected ${show(expected)}, got ${show(actual)}`);
  },
  /**
   * The error a call (or a promise) rejects with, which must be a ToolStubError with `code`.
   * @param {Promise<unknown> | (() => unknown)} promiseOrFn
   * @param {string} code
   * @param {string} [msg]
   * @returns {Promise<unknown>}
   */
  async rejectsWithCode(promiseOrFn, code, msg = "") {
    let err;
    try {
      await (typeof promiseOrFn === "function" ? promiseOrFn() : promiseOrFn);
    } catch (e) {
      err = e;
    }
    const where = msg ? `${msg}: ` : "";
    if (!err) throw new Error(`${where}expected rejection with ${code}, but it resolved`);
    if (caught(err)?.name !== "ToolStubError" || caught(err)?.code !== code) {
      throw new Error(
        `${where}expected ToolStubError ${code}, got ${caught(err)?.name} ${caught(err)?.code ?? ""}: ${caught(err)?.message}`,
      );
    }
    return err;
  },
};
