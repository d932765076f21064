// Exclusive locks within one JavaScript realm, by name: the part of a store's `lock(key)` that
// every adapter shares, and what ToolStub falls back on for a store without `lock`. Waiters are
// served in order; nothing polls.

/**
 * Waits for the lock `name` in `table` (a Map the caller owns: one per store, or one per
 * database) and answers its release function, which may be called more than once.
 * @param {Map<string, Promise<unknown>>} table
 * @param {string} name
 * @returns {Promise<() => void>}
 */
export async function acquireLocal(table, name) {
  const previous = table.get(name) ?? Promise.resolve();
  /** @type {() => void} */
  let open = () => {};
  const held = new Promise((resolve) => {
    open = () => resolve(undefined);
  });
  const tail = previous.then(() => held);
  table.set(name, tail);
  await previous;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    open();
    if (table.get(name) === tail) table.delete(name);
  };
}

/**
 * The name of a key's lock within one store.
 * @param {readonly string[]} key
 */
export function lockName(key) {
  return key.join("\0");
}
