// Real Redis servers for the RedisStore tests: each on 127.0.0.1, on a port probed free, in a
// temp dir, without persistence unless asked. Every server started here is stopped by
// `stopAll()` (call it from an `after` hook) and, failing that, when the process exits.
//
// redis-server missing fails the tests (CI installs it: scripts/setup.sh --test); only
// TOOL_STUB_SKIP_REDIS=1 skips them, for a machine without Redis.

import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";

export const SKIP_REDIS =
  process.env.TOOL_STUB_SKIP_REDIS === "1"
    ? "TOOL_STUB_SKIP_REDIS=1: Redis tests skipped, not passed"
    : false;

/** Throws a clear error unless redis-server and redis-cli are installed. */
export function requireRedis() {
  for (const tool of ["redis-server", "redis-cli"]) {
    const found = spawnSync(tool, ["--version"], { stdio: "ignore" });
    if (found.error || found.status !== 0) {
      throw new Error(
        `${tool} is not installed: run scripts/setup.sh --test (apt-get install redis-server), or set TOOL_STUB_SKIP_REDIS=1 to skip the Redis tests`,
      );
    }
  }
}

const running = new Set();
let exitHookInstalled = false;

function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  const killAll = () => {
    for (const server of running) {
      try {
        server.child.kill("SIGKILL");
      } catch {}
      fs.rmSync(server.dir, { recursive: true, force: true });
    }
  };
  process.on("exit", killAll);
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.once(signal, () => {
      killAll();
      process.exit(130);
    });
  }
}

/** A free TCP port on 127.0.0.1 (and its cluster bus port, port + 10000, free too). */
export async function freePort({ cluster = false } = {}) {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = await new Promise((resolve, reject) => {
      const srv = net.createServer();
      srv.once("error", reject);
      srv.listen(0, "127.0.0.1", () => {
        const { port } = srv.address();
        srv.close(() => resolve(port));
      });
    });
    if (!cluster) return port;
    if (port + 10000 > 65535) continue;
    const busFree = await new Promise((resolve) => {
      const srv = net.createServer();
      srv.once("error", () => resolve(false));
      srv.listen(port + 10000, "127.0.0.1", () => srv.close(() => resolve(true)));
    });
    if (busFree) return port;
  }
  throw new Error("no free port pair found for a cluster node");
}

async function waitForPing(port, child, deadlineMs = 10_000) {
  const until = Date.now() + deadlineMs;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`redis-server on port ${port} exited with ${child.exitCode}`);
    const ok = await new Promise((resolve) => {
      const socket = net.connect(port, "127.0.0.1");
      let answer = "";
      socket.once("error", () => resolve(false));
      socket.on("data", (chunk) => {
        answer += chunk;
        if (answer.includes("\r\n")) {
          socket.destroy();
          resolve(answer.startsWith("+PONG"));
        }
      });
      socket.once("connect", () => socket.write("PING\r\n"));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`redis-server on port ${port} did not answer PING`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Starts redis-server on 127.0.0.1. `args` are extra config arguments (`["--appendonly", "yes"]`);
 * `dir` reuses a data dir (a restart). Answers `{ port, dir, child, stop(), kill() }`.
 */
export async function startRedis({ args = [], dir, port, cluster = false } = {}) {
  installExitHook();
  const dataDir = dir ?? fs.mkdtempSync(path.join(os.tmpdir(), "tool-stub-redis-"));
  const chosen = port ?? (await freePort({ cluster }));
  const config = [
    "--port",
    String(chosen),
    "--bind",
    "127.0.0.1",
    "--dir",
    dataDir,
    "--save",
    "",
    "--appendonly",
    "no",
    "--protected-mode",
    "yes",
    "--daemonize",
    "no",
    "--logfile",
    path.join(dataDir, `redis-${chosen}.log`),
    ...(cluster
      ? [
          "--cluster-enabled",
          "yes",
          "--cluster-config-file",
          `nodes-${chosen}.conf`,
          "--cluster-node-timeout",
          "1000",
        ]
      : []),
    ...args,
  ];
  const child = spawn("redis-server", config, { stdio: "ignore" });
  const server = { port: chosen, dir: dataDir, child };
  running.add(server);
  const exited = new Promise((resolve) => child.once("exit", resolve));
  server.stop = async ({ keepDir = false } = {}) => {
    running.delete(server);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    }
    if (!keepDir) fs.rmSync(dataDir, { recursive: true, force: true });
  };
  server.kill = async () => {
    child.kill("SIGKILL");
    await exited;
  };
  try {
    await waitForPing(chosen, child);
  } catch (err) {
    await server.stop();
    throw err;
  }
  return server;
}

/**
 * A Redis Cluster of `masters` masters (and `replicas` replicas per master) on 127.0.0.1, made
 * with `redis-cli --cluster create`. Answers `{ nodes, startupNodes, stop() }`.
 */
export async function startCluster({ masters = 3, replicas = 0 } = {}) {
  const nodes = [];
  try {
    for (let i = 0; i < masters * (1 + replicas); i++)
      nodes.push(await startRedis({ cluster: true }));
    const created = spawnSync(
      "redis-cli",
      [
        "--cluster",
        "create",
        ...nodes.map((n) => `127.0.0.1:${n.port}`),
        "--cluster-replicas",
        String(replicas),
        "--cluster-yes",
      ],
      { encoding: "utf8", timeout: 60_000 },
    );
    if (created.status !== 0)
      throw new Error(`redis-cli --cluster create failed: ${created.stdout}\n${created.stderr}`);
    await waitForClusterOk(nodes);
    if (replicas > 0) await waitForReplicas(nodes, replicas);
  } catch (err) {
    await Promise.all(nodes.map((n) => n.stop()));
    throw err;
  }
  return {
    nodes,
    startupNodes: nodes.map((n) => ({ host: "127.0.0.1", port: n.port })),
    stop: () => Promise.all(nodes.map((n) => n.stop())),
  };
}

/** `redis-cli -p port ...args` output (trimmed). */
export function redisCli(port, ...args) {
  const out = spawnSync("redis-cli", ["-h", "127.0.0.1", "-p", String(port), ...args], {
    encoding: "utf8",
    timeout: 10_000,
  });
  return (out.stdout ?? "").trim();
}

/** Waits until every live node reports cluster_state:ok and the same view of the slots. */
export async function waitForClusterOk(nodes, deadlineMs = 30_000) {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const live = nodes.filter((n) => n.child.exitCode === null && n.child.signalCode === null);
    const ok = live.every((n) => /cluster_state:ok/.test(redisCli(n.port, "cluster", "info")));
    if (ok) return;
    if (Date.now() > until) throw new Error("the cluster did not reach cluster_state:ok");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits until every master has `replicas` replicas online (synced). */
async function waitForReplicas(nodes, replicas, deadlineMs = 30_000) {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const infos = nodes.map((n) => redisCli(n.port, "info", "replication"));
    const masters = infos.filter((info) => /role:master/.test(info));
    const synced = masters.every((info) => (info.match(/state=online/g) ?? []).length >= replicas);
    if (masters.length > 0 && synced) return;
    if (Date.now() > until) throw new Error("the cluster's replicas did not come online");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
