// The one way to wrap a store: a view of it that changes some methods and forwards everything
// else (other methods, `sliceUnit`, `close`, methods added later) as the store has it.

/**
 * A Proxy of `store` whose methods named in `wrappers` are `wrappers[name](method, ...args)`
 * (`method` is the store's own, bound to it); every other property is the store's, and its
 * methods run with the store itself as `this` (so classes with private fields keep working).
 */
export function wrapStore(store, wrappers) {
  const made = new Map();
  return new Proxy(store, {
    get(target, name) {
      const value = target[name];
      if (typeof value !== "function") return value;
      const cached = made.get(name);
      if (cached?.of === value) return cached.fn;
      const method = value.bind(target);
      const wrapper = Object.hasOwn(wrappers, name) ? wrappers[name] : undefined;
      const fn = wrapper ? (...args) => wrapper(method, ...args) : method;
      made.set(name, { of: value, fn });
      return fn;
    },
  });
}
