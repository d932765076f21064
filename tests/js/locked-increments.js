// Read-modify-write rounds under `lock()`, spread over several store objects over one place:
// each round reads a counter, waits long enough for the other stores' callers to try to get in
// between, and writes it back plus one. Answers the counter's final value, read through `stores[0]`.

/**
 * @param {Array<{ save: Function, load: Function, lock: Function }>} stores
 * @param {number} rounds
 */
export async function lockedIncrements(stores, rounds) {
  const counter = ["s", "counter"];
  await stores[0].save(counter, "0");
  await Promise.all(
    Array.from({ length: rounds }, async (_, i) => {
      const store = stores[i % stores.length];
      const lease = await store.lock(["s", "tool-stub", "lock"]);
      try {
        const value = Number(await store.load(counter));
        await new Promise((resolve) => setTimeout(resolve, 5));
        await store.save(counter, String(value + 1));
      } finally {
        await lease.release();
      }
    }),
  );
  return stores[0].load(counter);
}
