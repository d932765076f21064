// Run as a non-root user by faults.mjs: turns into a NodeFsStore whose folders turn read-only in
// the middle of a turn (after a random save), then writable again. Every part must come back with
// a ref that reads back exactly or with its raw output. Prints its counts as JSON.
// Usage: node ro-worker.mjs STORE_DIR TURNS SEED
import { chmodSync, readdirSync } from "node:fs";
import * as path from "node:path";
import { PKG, part, random } from "./lib.mjs";
import { checkTurn } from "./faults-lib.mjs";

const [storeDir, turns, seed] = process.argv.slice(2);
const { ToolStub, NodeFsStore } = await import(PKG);
const inner = new NodeFsStore(storeDir);
const rnd = random(Number(seed));
const results = path.join(storeDir, "soak", "tool-results");
const setWritable = (writable) => {
  const mode = writable ? 0o755 : 0o555;
  const dirs = [path.join(storeDir, "soak"), results];
  try {
    for (const id of readdirSync(results)) dirs.push(path.join(results, id));
  } catch {}
  for (const dir of dirs) {
    try {
      chmodSync(dir, mode);
    } catch {}
  }
};
let savesLeft = Infinity;
const store = {
  load: (key) => inner.load(key),
  loadRange: (prefix) => inner.loadRange(prefix),
  remove: (key) => inner.remove(key),
  removeRange: (prefix) => inner.removeRange(prefix),
  loadSlice: (key, start, end) => inner.loadSlice(key, start, end),
  sliceUnit: inner.sliceUnit,
  async save(key, value) {
    if (--savesLeft === 0) setWritable(false);
    return inner.save(key, value);
  },
};
const ts = new ToolStub({ store, sessionId: "soak", config: { thresholdChars: 1000 } });
const reader = new ToolStub({ store: inner, sessionId: "soak" });
const stats = {
  uid: process.getuid(),
  turns: 0,
  parts: 0,
  stored: 0,
  keptRaw: 0,
  errorCodes: {},
  violations: [],
};
for (let t = 0; t < Number(turns); t++) {
  const ns = Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => Math.floor(rnd() * 60));
  const parts = ns.map((n) => part(Number(seed), n));
  savesLeft = 1 + Math.floor(rnd() * 3 * parts.length);
  let done;
  try {
    done = await ts.externalize(parts, { messageId: `m${t}` });
  } catch (error) {
    stats.violations.push(`turn ${t}: externalize threw ${error?.code} ${error?.message}`);
    continue;
  } finally {
    setWritable(true);
    savesLeft = Infinity;
  }
  await checkTurn(reader, parts, done, stats, `turn ${t}`, storeDir);
}
process.stdout.write(JSON.stringify(stats));
