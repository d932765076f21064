// One crash trial's victim (run by crash.mjs, which SIGKILLs it at a random moment): externalizes,
// deletes and prunes at random in one NodeFsStore session, logging each step before and after it
// (appendFileSync: a line written is kept when the process is killed) so the checker knows what
// every ref must read back. Usage: node crash-worker.mjs STORE_DIR LOG_FILE POOL SEED
import { appendFileSync } from "node:fs";
import { PKG, part, random } from "./lib.mjs";

const [storeDir, logFile, pool, seed] = process.argv.slice(2);
const { ToolStub, NodeFsStore } = await import(PKG);
const store = new NodeFsStore(storeDir);
const config = { thresholdChars: 1000 };
const ts = new ToolStub({ store, sessionId: "soak", config });
const pruner = new ToolStub({ store, sessionId: "soak", config: { ...config, maxResults: 8 } });
const rnd = random(Number(seed));
const log = (event) => appendFileSync(logFile, `${JSON.stringify(event)}\n`);

process.stdout.write("ready\n");
for (let step = 0; ; step++) {
  const dice = rnd();
  if (dice < 0.6) {
    const ns = Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => Math.floor(rnd() * 40));
    log({ e: "begin", op: "externalize", ns });
    const done = await ts.externalize(
      ns.map((n) => part(Number(pool), n)),
      { messageId: `m${seed}_${step}` },
    );
    done.forEach((result, i) => {
      if (result.truncated && result.outputRef) log({ e: "ok", ref: result.outputRef, n: ns[i] });
      else if (result.output !== part(Number(pool), ns[i]).output)
        log({ e: "violation", what: `part ${i} kept neither a ref nor its raw output` });
    });
    log({ e: "end" });
  } else if (dice < 0.85) {
    const { toolResults } = await ts.list({ limit: 1000 });
    if (toolResults.length === 0) continue;
    const ref = toolResults[Math.floor(rnd() * toolResults.length)].storage_uri;
    log({ e: "begin", op: "delete" });
    log({ e: "del", ref });
    await ts.delete(ref);
    log({ e: "deld", ref });
  } else {
    log({ e: "begin", op: "prune" });
    log({ e: "prune" });
    const { deleted } = await pruner.prune();
    log({ e: "pruned", deleted });
  }
}
