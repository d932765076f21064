// One of the processes of retention.mjs: COUNT externalizes into one shared session with a
// retention policy, each ref read back at once. Prints its counts as JSON.
// Usage: node retention-worker.mjs STORE_DIR WORKER COUNT
import { PKG, output, readWhole } from "./lib.mjs";

const [storeDir, worker, count] = process.argv.slice(2);
const { ToolStub, NodeFsStore } = await import(PKG);
const ts = new ToolStub({
  store: new NodeFsStore(storeDir),
  sessionId: "shared",
  config: { thresholdChars: 1000, maxResults: 10 },
});
const stats = { externalizes: 0, readBack: 0, keptRaw: 0, threw: 0, unreadable: {}, errors: {} };
const note = (map, key) => (map[key] = (map[key] ?? 0) + 1);
for (let i = 0; i < Number(count); i++) {
  const text = output(Number(worker) + 500, i).slice(0, 20_000 + (i % 7) * 3_000);
  stats.externalizes++;
  let result;
  try {
    [result] = await ts.externalize(
      [{ toolId: `w${worker}_${i}`, toolName: "bash", output: text }],
      { messageId: `m${worker}_${i}` },
    );
  } catch (error) {
    stats.threw++;
    note(
      stats.errors,
      `${error?.code}: ${String(error?.message)
        .replace(/tr_\w+/g, "tr_…")
        .slice(0, 120)}`,
    );
    continue;
  }
  if (!result.outputRef) {
    stats.keptRaw++;
    note(
      stats.errors,
      String(result.externalizationError)
        .replace(/tr_\w+/g, "tr_…")
        .slice(0, 120),
    );
    continue;
  }
  const read = await readWhole(ts, result.outputRef);
  if (read.content === text) stats.readBack++;
  else note(stats.unreadable, read.code ?? "different text");
}
process.stdout.write(JSON.stringify(stats));
