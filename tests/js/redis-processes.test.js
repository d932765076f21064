// RedisStore across processes and server failures, on real servers started here: two Node
// processes sharing one session; a writer SIGKILLed mid-turn leaves no half-visible result; a
// Redis restart with AOF (appendfsync always) loses nothing acknowledged; a cluster master killed:
// calls fail with STORE_FAILED during the failover and succeed after it, nothing corrupted.

import { after, before, describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { ToolStub } from "./pkg.js";
import { RedisStore } from "../../pkg/js/redis.js";
import {
  SKIP_REDIS,
  redisCli,
  requireRedis,
  startCluster,
  startRedis,
  waitForClusterOk,
} from "./redis-servers.js";

const require = createRequire(import.meta.url);
const Redis = require("ioredis");
const WORKER = fileURLToPath(new URL("./redis-worker.mjs", import.meta.url));

const prefix = () => `p-${randomBytes(6).toString("hex")}`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts the worker with `job`; `events` collects its JSON lines, `exited` its exit. */
function startWorker(job) {
  const child = spawn(process.execPath, [WORKER, JSON.stringify(job)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const events = [];
  const waiters = [];
  let buffer = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => {
    buffer += chunk;
    for (let nl = buffer.indexOf("\n"); nl !== -1; nl = buffer.indexOf("\n")) {
      const event = JSON.parse(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
      events.push(event);
      for (const w of waiters.splice(0)) w();
    }
  });
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal, stderr })),
  );
  const next = async (predicate, ms = 30_000) => {
    const until = Date.now() + ms;
    for (;;) {
      const found = events.find(predicate);
      if (found) return found;
      if (child.exitCode !== null)
        throw new Error(
          `worker exited (${child.exitCode}) without the event: ${stderr}${JSON.stringify(events.slice(-3))}`,
        );
      if (Date.now() > until) throw new Error("worker event timed out");
      await Promise.race([new Promise((resolve) => waiters.push(resolve)), sleep(100)]);
    }
  };
  return { child, events, exited, next };
}

/**
 * Every result under the session is whole or absent: its output, index and record all there or
 * none of them; every recorded one verifies and reads back; list and usage agree with the records.
 */
async function checkWholeResults(store, sessionId) {
  const keys = await store.loadKeys([sessionId, "tool-results"]);
  const files = new Map();
  for (const key of keys) {
    if (!files.has(key[2])) files.set(key[2], []);
    files.get(key[2]).push(key[3]);
  }
  for (const [id, names] of files) {
    assert.deepEqual(
      names.sort(),
      ["index.json", "metadata.json", "output.txt"],
      `result ${id} is half-visible: ${names}`,
    );
  }
  const ts = new ToolStub({ store, sessionId });
  for (const id of files.keys()) await ts.verify(id);
  const listed = (await ts.list({ limit: 1000 })).toolResults.map((r) => r.tool_result_id).sort();
  assert.deepEqual(listed, [...files.keys()].sort(), "list names exactly the stored results");
  assert.equal((await ts.usage()).results, files.size);
  return files.size;
}

// Counted: failed when Redis is missing (the suites below are then cancelled), skipped with
// TOOL_STUB_SKIP_REDIS=1.
it("redis-server and redis-cli are installed", { skip: SKIP_REDIS }, () => requireRedis());

describe("RedisStore across processes (one redis-server)", { skip: SKIP_REDIS }, () => {
  let server;
  let client;
  before(async () => {
    requireRedis();
    server = await startRedis();
    client = new Redis({ host: "127.0.0.1", port: server.port });
  });
  after(async () => {
    client?.disconnect();
    await server?.stop();
  });
  const nodes = () => [{ host: "127.0.0.1", port: server.port }];

  it("two processes share a session: one externalizes, the other reads, searches, lists and deletes", async () => {
    const keyPrefix = prefix();
    const writer = startWorker({
      role: "writer",
      nodes: nodes(),
      keyPrefix,
      sessionId: "shared",
      turns: 4,
      parts: 3,
    });
    await writer.next((e) => e.turn === 0 || e.error);
    const reader = startWorker({
      role: "reader",
      nodes: nodes(),
      keyPrefix,
      sessionId: "shared",
      expect: 12,
    });
    const done = await writer.next((e) => e.done || e.error);
    assert.equal(done.error, undefined, done.error);
    const result = await reader.next((e) => e.checked !== undefined || e.error, 60_000);
    assert.equal(result.error, undefined, result.error);
    assert.equal(result.checked, 12);
    assert.equal(result.usage.results, 12);
    assert.equal(result.after, 0);
    assert.equal((await writer.exited).code, 0);
    assert.equal((await reader.exited).code, 0);
    const store = new RedisStore({ client, keyPrefix });
    assert.equal(await checkWholeResults(store, "shared"), 0, "the reader deleted every result");
  });

  // TOOL_STUB_REDIS_KILL_TRIALS=200 for a longer run (docs/redis.md).
  const killTrials = Number(process.env.TOOL_STUB_REDIS_KILL_TRIALS ?? 20);
  it(`a writer SIGKILLed mid-turn leaves no half-visible result (${killTrials} trials)`, async () => {
    const keyPrefix = prefix();
    const store = new RedisStore({ client, keyPrefix, lockLeaseMs: 500 });
    let stored = 0;
    for (let trial = 0; trial < killTrials; trial++) {
      const looper = startWorker({
        role: "looper",
        nodes: nodes(),
        keyPrefix,
        sessionId: "killed",
        parts: 12,
        lockLeaseMs: 500,
      });
      await looper.next((e) => e.turn !== undefined || e.error);
      // Somewhere in a later turn: a turn of 12 parts takes some tens of ms.
      await sleep(5 + Math.floor(Math.random() * 60));
      looper.child.kill("SIGKILL");
      const { signal } = await looper.exited;
      assert.equal(signal, "SIGKILL");
      stored = await checkWholeResults(store, "killed");
    }
    assert.ok(stored > 0, "the writers stored results");
  });

  it("a Redis restart with appendonly yes and appendfsync always loses nothing acknowledged", async () => {
    const aof = await startRedis({ args: ["--appendonly", "yes", "--appendfsync", "always"] });
    let c;
    try {
      c = new Redis({ host: "127.0.0.1", port: aof.port, maxRetriesPerRequest: 2 });
      c.on("error", () => {});
      const store = new RedisStore({ client: c, keyPrefix: prefix(), timeoutMs: 5000 });
      const ts = new ToolStub({ store, sessionId: "durable", config: { failureMode: "reject" } });
      const acknowledged = [];
      for (let turn = 0; turn < 5; turn++) {
        const parts = [0, 1].map((i) => ({
          toolId: `a${turn}_${i}`,
          toolName: "t",
          output: `durable ${turn} ${i} \uDBFF\n`.repeat(3000),
        }));
        for (const part of await ts.externalize(parts, { messageId: `m${turn}` }))
          acknowledged.push([part.outputRef, parts.find((p) => p.toolId === part.toolId).output]);
      }
      await aof.kill(); // SIGKILL: no shutdown save, only what the AOF holds
      const restarted = await startRedis({
        port: aof.port,
        dir: aof.dir,
        args: ["--appendonly", "yes", "--appendfsync", "always"],
      });
      try {
        const fresh = new ToolStub({ store, sessionId: "durable" });
        for (const [ref, output] of acknowledged) {
          const { content } = await fresh.read(ref, { offset: 0, limit: -1 });
          assert.ok(content === output, `${ref} is back exactly`);
        }
        assert.equal(await checkWholeResults(store, "durable"), acknowledged.length);
      } finally {
        await restarted.stop();
      }
    } finally {
      c?.disconnect();
      await aof.stop();
    }
  });
});

describe("RedisStore on a Redis Cluster with replicas: a master killed", {
  skip: SKIP_REDIS,
}, () => {
  let cluster;
  let client;
  before(async () => {
    requireRedis();
    cluster = await startCluster({ masters: 3, replicas: 1 });
    client = new Redis.Cluster(cluster.startupNodes, {
      retryDelayOnFailover: 100,
      retryDelayOnClusterDown: 100,
      slotsRefreshTimeout: 1000,
      redisOptions: { maxRetriesPerRequest: 1, connectTimeout: 500 },
    });
    client.on("error", () => {});
    await client.set("warm-up", "1");
  });
  after(async () => {
    client?.disconnect();
    await cluster?.stop();
  });

  it("calls fail with STORE_FAILED during the failover and succeed after it; nothing is corrupted", async () => {
    const keyPrefix = prefix();
    const store = new RedisStore({ client, keyPrefix, timeoutMs: 2000, lockLeaseMs: 1000 });
    const ts = new ToolStub({ store, sessionId: "failover", config: { failureMode: "reject" } });
    const stored = [];
    for (let turn = 0; turn < 3; turn++) {
      const output = `before ${turn} é\n`.repeat(3000);
      const [part] = await ts.externalize([{ toolId: `b${turn}`, toolName: "t", output }], {
        messageId: `m${turn}`,
      });
      stored.push([part.outputRef, output]);
    }
    // The master serving the session's slot; its replica has every write (WAIT) before it dies.
    const slot = Number(
      redisCli(cluster.nodes[0].port, "cluster", "keyslot", `{${keyPrefix}:failover}#keys`),
    );
    const slots = await client.cluster("SLOTS");
    const [, , [, masterPort]] = slots.find(([from, to]) => from <= slot && slot <= to);
    const master = cluster.nodes.find((n) => n.port === masterPort);
    // WAIT counts the writes of its own connection: it is sent on the one the store wrote through.
    const connection = client.nodes("master").find((node) => node.options.port === masterPort);
    assert.equal(await connection.wait(1, 5000), 1, "the replica has the writes");
    await master.kill();

    const started = Date.now();
    let failures = 0;
    let recoveredAfter;
    let turn = 3;
    while (Date.now() - started < 20_000) {
      const output = `during ${turn} é\n`.repeat(3000);
      try {
        const [part] = await ts.externalize([{ toolId: `d${turn}`, toolName: "t", output }], {
          messageId: `m${turn}`,
        });
        const { content } = await ts.read(part.outputRef, { offset: 0, limit: -1 });
        assert.ok(content === output);
        stored.push([part.outputRef, output]);
        recoveredAfter = Date.now() - started;
        break;
      } catch (err) {
        assert.equal(err.code, "STORE_FAILED", `during the failover: ${err.code} ${err.message}`);
        assert.match(err.message, /RedisStore|lock|store/i);
        failures++;
      }
      turn++;
      await sleep(100);
    }
    assert.ok(
      recoveredAfter !== undefined,
      `calls still failing 20 s after the master died (${failures} failures)`,
    );
    assert.ok(failures > 0, "a call failed while the master was down (the failover took no time?)");
    await waitForClusterOk(cluster.nodes);
    for (const [ref, output] of stored) {
      const { content } = await ts.read(ref, { offset: 0, limit: -1 });
      assert.ok(content === output, `${ref} reads back exactly after the failover`);
    }
    assert.equal(await checkWholeResults(store, "failover"), stored.length);
    console.log(
      `# failover: ${failures} calls failed with STORE_FAILED; the first call succeeded ${recoveredAfter} ms after the kill`,
    );
  });
});
