// RedisStore on real servers: the store conformance suite on one redis-server and on a Redis
// Cluster of three masters, ToolStub over both, lone surrogates and a 100 MB output, expiry, and
// Redis errors as STORE_FAILED. The servers are started here (tests/js/redis-servers.js) and always
// stopped. Process-level tests (two processes, SIGKILL, AOF restart, failover) are in
// redis-processes.test.js.

import { after, before, describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { cases, sessionCases } from "./store-conformance-cases.js";
import { ToolStub, ToolStubError } from "./pkg.js";
import { RedisStore } from "../../pkg/js/redis.js";
import { SKIP_REDIS, requireRedis, startCluster, startRedis } from "./redis-servers.js";
import { lockedIncrements } from "./locked-increments.js";

const require = createRequire(import.meta.url);
const Redis = require("ioredis");

const prefix = () => `t-${randomBytes(6).toString("hex")}`;

// Counted: failed when Redis is missing (the suites below are then cancelled), skipped with
// TOOL_STUB_SKIP_REDIS=1.
it("redis-server and redis-cli are installed", { skip: SKIP_REDIS }, () => requireRedis());

describe("RedisStore on one redis-server", { skip: SKIP_REDIS }, () => {
  let server;
  let client;
  before(async () => {
    requireRedis();
    server = await startRedis();
    client = new Redis({ host: "127.0.0.1", port: server.port, lazyConnect: false });
  });
  after(async () => {
    client?.disconnect();
    await server?.stop();
  });
  const makeStore = () => new RedisStore({ client, keyPrefix: prefix() });

  describe("conformance", () => {
    for (const c of cases) it(c.name, () => c.run(makeStore));
    for (const c of sessionCases) it(c.name, () => c.run(makeStore, ToolStub));
  });

  it("keeps every key of a session under its hash tag, and uses no KEYS", async () => {
    const keyPrefix = prefix();
    const store = new RedisStore({ client, keyPrefix });
    await store.save(["s{1}", "tool-results", "r", "output.txt"], "x");
    await store.save(["s{1}", "tool-stub", "catalog.json"], "{}");
    const keys = await client.keys(`*${keyPrefix}*`); // the test looks; the store never does
    const tags = new Set(
      keys.filter((k) => !k.endsWith(":sessions")).map((k) => k.slice(0, k.indexOf("}") + 1)),
    );
    assert.deepEqual(
      [...tags],
      [`{${keyPrefix}:s%7B1%7D}`],
      "one tag per session, with braces escaped",
    );
    const commandstats = await client.info("commandstats");
    assert.doesNotMatch(
      commandstats.replace(/cmdstat_keys:[^\n]*\n?/, ""),
      /cmdstat_scan:/,
      "no SCAN",
    );
  });

  it("stores on one client or on two never interleave a read-modify-write under lock()", async () => {
    const keyPrefix = prefix();
    const other = new Redis({ host: "127.0.0.1", port: server.port, lazyConnect: false });
    try {
      const stores = [
        new RedisStore({ client, keyPrefix }),
        new RedisStore({ client, keyPrefix }),
        new RedisStore({ client: other, keyPrefix }),
      ];
      assert.equal(await lockedIncrements(stores, 12), "12", "no increment was lost");
    } finally {
      other.disconnect();
    }
  });

  it("refuses what it cannot work with: no client, an ioredis keyPrefix, bad options", () => {
    const refused = (options, pattern) =>
      assert.throws(
        () => new RedisStore(options),
        (err) =>
          err instanceof ToolStubError &&
          err.code === "INVALID_ARGUMENT" &&
          pattern.test(err.message),
      );
    refused(undefined, /needs options/);
    refused({ client: {} }, /ioredis Redis or Cluster client/);
    const prefixed = new Redis({
      host: "127.0.0.1",
      port: server.port,
      keyPrefix: "app:",
      lazyConnect: true,
    });
    refused({ client: prefixed }, /keyPrefix option: leave it unset/);
    refused({ client, keyPrefix: "" }, /keyPrefix must be a non-empty string/);
    refused({ client, ttlSeconds: 0 }, /ttlSeconds must be a positive number/);
    refused({ client, keyprefix: "x" }, /unknown option "keyprefix"/);
  });

  it("ToolStub: a result is written in one MULTI and reads back exactly, lone surrogates included", async () => {
    const keyPrefix = prefix();
    const store = new RedisStore({ client, keyPrefix });
    const ts = new ToolStub({ store, sessionId: "chat-1" });
    const output = `${"line with a lone \uD800 surrogate and 😀\n".repeat(2000)}end \uDC00`;
    const [part] = await ts.externalize([{ toolId: "c1", toolName: "t", output }], {
      messageId: "m1",
    });
    assert.ok(part.outputRef, "externalized");
    const back = await ts.read(part.outputRef, { offset: 0, limit: -1 });
    assert.ok(back.content === output, "read back exactly");
    const tail = await ts.read(part.outputRef, { offset: [...output].length - 10, limit: 10 });
    assert.equal(tail.content, [...output].slice(-10).join(""));
    const [restored] = await ts.restore([part]);
    assert.ok(restored.output === output, "restored exactly");
    assert.equal((await ts.verify(part.outputRef)).totalChars, [...output].length);
    const { matches } = await ts.search(part.outputRef, { query: "end", limit: 5 });
    assert.equal(matches.length, 1);
    assert.equal((await ts.list()).toolResults.length, 1);
    assert.equal((await ts.usage()).results, 1);
    assert.deepEqual(await ts.delete(part.outputRef), { deleted: true });
    assert.equal((await ts.usage()).results, 0);
    assert.deepEqual(
      await store.loadKeys(["chat-1", "tool-results"]),
      [],
      "nothing left of the result",
    );
    await ts.externalize([{ toolId: "c2", toolName: "t", output }], { messageId: "m2" });
    await ts.deleteSession();
    assert.equal(
      await client.zcard(`{${keyPrefix}}:sessions`),
      0,
      "deleteSession leaves no session index entry",
    );
    assert.deepEqual(await store.loadKeys([]), [], "nor anything listed");
  });

  it("a 100 MB output round-trips, and a read at its end fetches only a span", async () => {
    const store = makeStore();
    const ts = new ToolStub({ store, sessionId: "big" });
    const line = "2026-01-01 INFO step ok é 日 😀 0123456789\n";
    const output = `${line.repeat(Math.ceil((100 * 1024 * 1024) / line.length))}\uD800 last`;
    const [part] = await ts.externalize([{ toolId: "big", toolName: "t", output }], {
      messageId: "m",
    });
    const commands = async () =>
      Number(/cmdstat_getrange:calls=(\d+)/.exec(await client.info("commandstats"))?.[1] ?? 0);
    const before = await commands();
    const chars = [...output].length;
    const tail = await ts.read(part.outputRef, { offset: chars - 6, limit: 100 });
    assert.equal(tail.content, "\uD800 last");
    assert.equal(tail.totalChars, chars);
    assert.equal(await commands(), before + 1, "one GETRANGE");
    const whole = await store.load([
      "big",
      "tool-results",
      part.outputRef.split("/").at(-1),
      "output.txt",
    ]);
    assert.ok(whole === output, "100 MB loads back exactly");
  });

  it("Redis errors are STORE_FAILED with what Redis said; a dead server fails within timeoutMs", async () => {
    const other = await startRedis();
    const c = new Redis({ host: "127.0.0.1", port: other.port, maxRetriesPerRequest: 1 });
    c.on("error", () => {}); // reconnect attempts after the kill below
    try {
      const store = new RedisStore({ client: c, keyPrefix: prefix(), timeoutMs: 1500 });
      await store.save(["s", "k"], "v");
      // The session's key index made the wrong type behind the store's back.
      const keyIndex = (await c.keys("*#keys"))[0];
      await c.del(keyIndex);
      await c.set(keyIndex, "not a sorted set");
      await assert.rejects(store.save(["s", "k2"], "v"), (err) => {
        assert.ok(err instanceof ToolStubError, String(err));
        assert.equal(err.code, "STORE_FAILED");
        assert.match(err.message, /RedisStore: cannot save "s\/k2": WRONGTYPE/);
        return true;
      });
      await other.kill();
      const started = Date.now();
      await assert.rejects(
        store.load(["s", "k"]),
        (err) => err.code === "STORE_FAILED" && /RedisStore: cannot load "s\/k"/.test(err.message),
      );
      assert.ok(Date.now() - started < 5000, `failed in ${Date.now() - started} ms`);
    } finally {
      c.disconnect();
      await other.stop();
    }
  });

  it("ttlSeconds: values expire; listings and the catalog drop what expired", async () => {
    // TTL 3 s; a stored at ~0 s, b at 1.5 s: between 3.0 and 4.5 s only b is stored. Every
    // timing-dependent check has a margin of at least a second.
    const keyPrefix = prefix();
    const store = new RedisStore({ client, keyPrefix, ttlSeconds: 3 });
    const ts = new ToolStub({ store, sessionId: "ttl" });
    const idOf = (part) => part.outputRef.split("/").at(-1);
    const started = Date.now();
    const at = (ms) =>
      new Promise((resolve) => setTimeout(resolve, Math.max(0, started + ms - Date.now())));
    const [a] = await ts.externalize([{ toolId: "a", toolName: "t", output: "a".repeat(30_000) }], {
      messageId: "m1",
    });
    await at(1500);
    // A snapshot that holds a and outlives it (written now, it expires at ~4.5 s).
    await ts.rebuildCatalog();
    const bStored = Date.now();
    const [b] = await ts.externalize([{ toolId: "b", toolName: "t", output: "b".repeat(30_000) }], {
      messageId: "m2",
    });
    assert.equal((await ts.usage()).results, 2);
    await at(3400);
    assert.equal(
      (await ts.usage()).results,
      1,
      "a warm ToolStub drops the expired result from usage",
    );
    assert.deepEqual(
      (await ts.list()).toolResults.map((r) => r.tool_result_id),
      [idOf(b)],
    );
    await assert.rejects(ts.read(a.outputRef), (err) => err.code === "NOT_FOUND");
    const ids = (await store.loadKeys(["ttl", "tool-results"])).map((k) => k[2]);
    assert.ok(
      !ids.includes(idOf(a)) && ids.includes(idOf(b)),
      "the expired result's keys are not listed",
    );
    const fresh = new ToolStub({ store, sessionId: "ttl" });
    assert.deepEqual(
      (await fresh.list()).toolResults.map((r) => r.tool_result_id),
      [idOf(b)],
    );
    assert.equal((await fresh.usage()).results, 1, "a new ToolStub counts only what is stored");
    assert.ok(
      Date.now() < bStored + 3000,
      "checked before b expired (the machine was too slow for this test)",
    );
    // The session's own keys (its key index) expire after its last value, with a margin.
    const pttl = await client.pttl(`{${keyPrefix}:ttl}#keys`);
    assert.ok(pttl > 0 && pttl <= 63_000, `index TTL ${pttl}`);
    // An identical output stored again restarts its result's TTL (its new ref must not vanish early).
    const [again] = await ts.externalize(
      [{ toolId: "b", toolName: "t", output: "b".repeat(30_000) }],
      { messageId: "m3" },
    );
    assert.equal(again.outputRef, b.outputRef, "the stored result is reused");
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, bStored + 3300 - Date.now())));
    assert.equal(
      (await ts.read(again.outputRef, { offset: 0, limit: 3 })).content,
      "bbb",
      "alive past the first store's TTL",
    );
    // A value saved without a TTL makes the index permanent again.
    await new RedisStore({ client, keyPrefix }).save(["ttl", "keep"], "v");
    assert.equal(await client.pttl(`{${keyPrefix}:ttl}#keys`), -1);
  });
  it("ttlSeconds: an output that expired before its record is NOT_FOUND, never CORRUPT", async () => {
    // Output, index and record get the same TTL and the output is written first, so a read that
    // finds the record can find the output gone: expiry hit between the two loads. That moment is
    // made here by removing the output (what its expiry does), then every kind of read is asked.
    const keyPrefix = prefix();
    const store = new RedisStore({ client, keyPrefix, ttlSeconds: 60 });
    const ts = new ToolStub({ store, sessionId: "race" });
    const output = Array.from({ length: 2_000 }, (_, i) => `line ${i} of a long log`).join("\n");
    const stored = [];
    for (const toolId of ["gone", "kept"]) {
      const [part] = await ts.externalize(
        [{ toolId, toolName: "t", output: `${toolId}\n${output}` }],
        {
          messageId: toolId,
        },
      );
      stored.push(part);
    }
    const [gone, kept] = stored;
    const id = gone.outputRef.split("/").at(-1);
    await store.remove(["race", "tool-results", id, "output.txt"]);
    await store.remove(["race", "tool-results", id, "index.json"]);
    const notFound = (err) => err.code === "NOT_FOUND" && /expired/.test(err.message);
    await assert.rejects(ts.read(gone.outputRef), notFound, "read");
    await assert.rejects(ts.read(gone.outputRef, { offset: 10, limit: 5 }), notFound, "window");
    await assert.rejects(ts.read(gone.outputRef, { line: 3, lines: 2 }), notFound, "line read");
    await assert.rejects(ts.search(gone.outputRef, { query: "line 5" }), notFound, "search");
    const all = await ts.searchAll({ query: "line 5" });
    assert.deepEqual(
      all.results.map((r) => r.ref),
      [kept.outputRef],
    );
    assert.deepEqual(
      all.skipped.map((s) => [s.toolResultId, s.code]),
      [[id, "NOT_FOUND"]],
    );
    const viaModel = await ts.handleToolCall("openviking_tool_result_read", {
      ref: gone.outputRef,
    });
    assert.equal(viaModel.error.code, "NOT_FOUND");
  });
});

describe("RedisStore on a Redis Cluster (3 masters)", { skip: SKIP_REDIS }, () => {
  let cluster;
  let client;
  before(async () => {
    requireRedis();
    cluster = await startCluster({ masters: 3 });
    client = new Redis.Cluster(cluster.startupNodes);
    await client.set("warm-up", "1");
  });
  after(async () => {
    client?.disconnect();
    await cluster?.stop();
  });
  const makeStore = () => new RedisStore({ client, keyPrefix: prefix() });

  describe("conformance", () => {
    for (const c of cases) it(c.name, () => c.run(makeStore));
    for (const c of sessionCases) it(c.name, () => c.run(makeStore, ToolStub));
  });

  it("ToolStub: sessions spread over the masters, each session in one slot", async () => {
    const store = makeStore();
    const refs = [];
    for (let i = 0; i < 6; i++) {
      const ts = new ToolStub({ store, sessionId: `chat-${i}` });
      const [part] = await ts.externalize(
        [{ toolId: "c", toolName: "t", output: `${i} `.repeat(15_000) }],
        { messageId: "m" },
      );
      refs.push([ts, part]);
    }
    for (const [ts, part] of refs) {
      assert.equal((await ts.read(part.outputRef, { offset: 0, limit: 4 })).content.length, 4);
      assert.equal((await ts.list()).toolResults.length, 1);
    }
    const perNode = await Promise.all(client.nodes("master").map((node) => node.dbsize()));
    assert.ok(
      perNode.filter((n) => n > 0).length >= 2,
      `sessions spread over the masters: ${perNode}`,
    );
  });
});
