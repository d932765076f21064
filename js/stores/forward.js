// The one way to wrap a store: a view of it that changes some methods and forwards everything
// else (other methods, `sliceUnit`, `close`, methods added later) as the store has it.

/**
 * A Proxy of `store` whose methods named in `wrappers` are `wrappers[name](method, ...args)`
 * (`method` is the store's own, bound to it); every other property is the store's, and its
 * methods run with the store itself as `this` (so classes with private fields keep working).
 * The store is any object a host passes (its methods are looked up by name).
 * @template {object} S
 * @param {S} store
 * @param {Record<string, (method: (...args: any[]) => any, ...args: any[]) => any>} wrappers
 * @returns {S}
 */
export function wrapStore(store, wrappers) {
  /** @type {Map<string | symbol, { of: Function, fn: Function }>} */
  const made = new Map();
  const proxy = new Proxy(/** @type {object} */ (store), {
    get(target, name) {
      const value = /** @type {Record<string | symbol, unknown>} */ (target)[name];
      if (typeof value !== "function") return value;
      const cached = made.get(name);
      if (cached?.of === value) return cached.fn;
      const method = value.bind(target);
      const wrapper =
        typeof name === "string" && Object.hasOwn(wrappers, name) ? wrappers[name] : undefined;
      const fn = wrapper ? (/** @type {unknown[]} */ ...args) => wrapper(method, ...args) : method;
      made.set(name, { of: value, fn });
      return fn;
    },
  });
  return /** @type {S} */ (proxy);
}
