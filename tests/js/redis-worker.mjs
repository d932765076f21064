// A child process of redis-processes.test.js: one ToolStub on a RedisStore, driven by a JSON job
// in argv[2]; it prints one JSON line per event on stdout. Not a test file itself.
//
// Jobs:
//   { role: "writer", turns, parts }     externalizes `turns` turns of `parts` outputs each,
//                                        printing { turn, refs } after each; then { done }
//   { role: "reader", expect }           waits until the session lists `expect` results, then
//                                        reads, searches, lists and deletes them all: { checked }
//   { role: "looper", parts }            externalizes turns until killed, printing { turn } after
//                                        each (the SIGKILL test)
// Common: { nodes: [{ host, port }], cluster: bool, keyPrefix, sessionId, lockLeaseMs }.

import { createRequire } from "node:module";
import { ToolStub } from "../../pkg/js/node.js";
import { RedisStore } from "../../pkg/js/redis.js";

const require = createRequire(import.meta.url);
const Redis = require("ioredis");

const job = JSON.parse(process.argv[2]);
const client = job.cluster ? new Redis.Cluster(job.nodes) : new Redis(job.nodes[0]);
client.on("error", () => {});
const store = new RedisStore({
  client,
  keyPrefix: job.keyPrefix,
  lockLeaseMs: job.lockLeaseMs ?? 15_000,
});
const ts = new ToolStub({ store, sessionId: job.sessionId, config: { failureMode: "reject" } });
const say = (event) => process.stdout.write(`${JSON.stringify(event)}\n`);

/** The output of part `i` of turn `turn`: deterministic, so any process can check it. */
export function outputOf(writer, turn, i, size = 30_000) {
  const line = `writer ${writer} turn ${turn} part ${i} é 日 😀 \uD800\n`;
  return line.repeat(Math.ceil(size / line.length));
}

async function writer() {
  for (let turn = 0; turn < job.turns; turn++) {
    const parts = Array.from({ length: job.parts }, (_, i) => ({
      toolId: `w${turn}_${i}`,
      toolName: "fetch",
      output: outputOf(job.writer ?? 0, turn, i),
    }));
    const done = await ts.externalize(parts, { messageId: `m${turn}` });
    say({ turn, refs: done.map((p) => p.outputRef) });
  }
  say({ done: true });
}

async function reader() {
  const until = Date.now() + 30_000;
  let listed;
  for (;;) {
    listed = (await ts.list({ limit: 1000 })).toolResults;
    if (listed.length >= job.expect) break;
    if (Date.now() > until)
      throw new Error(`only ${listed.length} of ${job.expect} results listed`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  let checked = 0;
  for (const record of listed) {
    const [, turn, i] = /^w(\d+)_(\d+)$/.exec(record.tool_id ?? record.tool_call_id ?? "") ?? [];
    const { content } = await ts.read(record.tool_result_id, { offset: 0, limit: -1 });
    if (turn !== undefined && content !== outputOf(0, Number(turn), Number(i)))
      throw new Error(`${record.tool_result_id} reads back different`);
    const { totalMatches } = await ts.search(record.tool_result_id, { query: "part", limit: 1 });
    if (totalMatches < 1) throw new Error(`no match in ${record.tool_result_id}`);
    await ts.verify(record.tool_result_id);
    checked++;
  }
  const usage = await ts.usage();
  for (const record of listed) {
    const { deleted } = await ts.delete(record.tool_result_id);
    if (!deleted) throw new Error(`${record.tool_result_id} was not there to delete`);
  }
  say({ checked, usage, after: (await ts.list()).toolResults.length });
}

async function looper() {
  for (let turn = 0; ; turn++) {
    const parts = Array.from({ length: job.parts }, (_, i) => ({
      toolId: `l${turn}_${i}`,
      toolName: "fetch",
      output: outputOf(1, turn, i, 20_000 + i * 997),
    }));
    await ts.externalize(parts, { messageId: `m${turn}` });
    say({ turn });
  }
}

try {
  if (job.role === "writer") await writer();
  else if (job.role === "reader") await reader();
  else if (job.role === "looper") await looper();
  else throw new Error(`unknown role ${job.role}`);
  client.disconnect();
} catch (error) {
  say({ error: `${error?.code ?? ""} ${error?.message ?? error}` });
  client.disconnect();
  process.exitCode = 1;
}
