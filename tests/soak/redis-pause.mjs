// RedisStore with Redis paused mid-turn: a redis-server on 127.0.0.1 gets SIGSTOP while turns are
// being externalized, for a random time shorter or longer than the store's timeoutMs, then
// SIGCONT. Invariants: every externalize settles (no hang); each part either has a ref that reads
// back exactly once Redis runs again, or kept its raw output with an error; everything `list`
// shows afterwards reads and verifies; the store works again after every pause.
// Usage: node tests/soak/redis-pause.mjs [--pauses 30] [--seed 1]
import { createRequire } from "node:module";
import { PKG, output, parseArgs, random } from "./lib.mjs";
import { startRedis } from "../js/redis-servers.js";

const { ToolStub } = await import(PKG);
const { RedisStore } = await import(PKG.replace(/node\.js$/, "redis.js"));
const require = createRequire(import.meta.url);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const TIMEOUT_MS = 800;

export async function redisPauseSoak({ pauses = 30, seed = 1 } = {}) {
  const Redis = require("ioredis");
  const server = await startRedis();
  const client = new Redis({
    host: "127.0.0.1",
    port: server.port,
    lazyConnect: false,
    maxRetriesPerRequest: null,
  });
  const rnd = random(seed);
  const counts = {
    pauses: 0,
    shortPauses: 0,
    longPauses: 0,
    turns: 0,
    parts: 0,
    stored: 0,
    readBack: 0,
    keptRaw: 0,
    threw: 0,
    listed: 0,
    listedVerified: 0,
    errors: {},
  };
  const violations = [];
  const stored = [];
  try {
    const ts = new ToolStub({
      store: new RedisStore({ client, keyPrefix: "soak-pause", timeoutMs: TIMEOUT_MS }),
      sessionId: "pause",
      config: { thresholdChars: 1000 },
    });
    for (let p = 0; p < pauses; p++) {
      const pauseMs =
        rnd() < 0.5 ? Math.floor(rnd() * TIMEOUT_MS * 0.6) : TIMEOUT_MS + Math.floor(rnd() * 1500);
      counts[pauseMs < TIMEOUT_MS ? "shortPauses" : "longPauses"]++;
      // Turns run while Redis stops and starts again under them.
      const turns = (async () => {
        for (let t = 0; t < 3; t++) {
          const parts = Array.from({ length: 3 }, (_, i) => ({
            toolId: `p${p}t${t}i${i}`,
            toolName: "bash",
            output: output(p, t * 3 + i),
          }));
          counts.turns++;
          counts.parts += parts.length;
          let done;
          try {
            done = await ts.externalize(parts, { messageId: `m${p}_${t}` });
          } catch (error) {
            counts.threw++;
            counts.errors[error?.code ?? "thrown"] =
              (counts.errors[error?.code ?? "thrown"] ?? 0) + 1;
            continue;
          }
          done.forEach((part, i) => {
            if (part.outputRef) {
              counts.stored++;
              stored.push({ ref: part.outputRef, expected: parts[i].output });
            } else if (part.externalizationError && part.output === parts[i].output) {
              counts.keptRaw++;
              const code = /^[A-Za-z_]+/.exec(part.externalizationError)?.[0] ?? "error";
              counts.errors[code] = (counts.errors[code] ?? 0) + 1;
            } else if (parts[i].output.length > 1000)
              violations.push(`part ${p}/${t}/${i}: no ref and no raw output`);
          });
        }
      })();
      await sleep(Math.floor(rnd() * 50));
      server.child.kill("SIGSTOP");
      await sleep(pauseMs);
      server.child.kill("SIGCONT");
      counts.pauses++;
      const settled = await Promise.race([turns.then(() => true), sleep(30_000).then(() => false)]);
      if (!settled) violations.push(`pause ${p}: the turns did not settle within 30 s of SIGCONT`);
    }
    for (const { ref, expected } of stored) {
      try {
        const read = await ts.read(ref, { offset: 0, limit: -1 });
        if (read.content === expected) counts.readBack++;
        else violations.push(`${ref} read back different`);
      } catch (error) {
        violations.push(`${ref}: ${error?.code} ${error?.message?.slice(0, 100)}`);
      }
    }
    const listed = await ts.list({ limit: 10_000 });
    counts.listed = listed.toolResults.length;
    for (const record of listed.toolResults) {
      const verified = await ts.verify(record.storage_uri).catch((error) => ({ ok: false, error }));
      if (verified?.ok !== false) counts.listedVerified++;
      else violations.push(`listed ${record.storage_uri} does not verify`);
    }
  } finally {
    server.child.kill("SIGCONT");
    client.disconnect();
    await server.stop();
  }
  return { ...counts, violations: violations.slice(0, 20), violationCount: violations.length };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await redisPauseSoak(parseArgs(process.argv.slice(2), { pauses: 30, seed: 1 }));
  console.log(JSON.stringify(result, null, 2));
  process.exitCode = result.violationCount ? 1 : 0;
}
