// `tool-stub mcp-proxy` at its edges, spoken to in raw JSON-RPC lines: answers that match no single
// pending call, a wrapped HTTP server that drops its stream, the wrapped server's process group on
// every way the proxy stops, backpressure both ways, a timeout's noise, the child's environment.
// The wrapped servers are fixtures/mcp-raw-server.mjs (stdio) and a raw HTTP handler on 127.0.0.1.
import { after, describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:http";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { ROOT } from "./pkg.js";

const CLI = path.join(ROOT, "pkg/js/cli.js");
const RAW = path.join(ROOT, "tests/js/fixtures/mcp-raw-server.mjs");
const work = mkdtempSync(path.join(tmpdir(), "tool-stub-mcp-edges-"));
const hosts = [];
const pids = [];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

after(async () => {
  for (const host of hosts) host.proxy.kill("SIGKILL");
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  }
  rmSync(work, { recursive: true, force: true });
});

/** Whether process `pid` runs (a zombie, killed and not yet reaped by its parent, does not). */
const alive = (pid) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));
  } catch {
    return true; // no /proc: the signal's answer is all there is
  }
};

/** Resolves once `check()` is true; fails after `ms`. */
async function until(check, ms = 10_000, what = "a condition") {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** A host speaking raw JSON-RPC lines to a proxy started with `args` (after "mcp-proxy"). */
class RawHost {
  messages = [];
  stderr = "";
  #partial = "";
  #nextId = 1;

  constructor(args, { env = process.env, read = true } = {}) {
    this.proxy = spawn(
      process.execPath,
      [CLI, "mcp-proxy", "--store", path.join(work, "store"), ...args],
      { stdio: ["pipe", "pipe", "pipe"], env },
    );
    hosts.push(this);
    this.proxy.stdin.on("error", () => {});
    this.proxy.stderr.on("data", (chunk) => (this.stderr += chunk));
    this.proxy.stdout.on("data", (chunk) => this.#data(chunk));
    if (!read) this.proxy.stdout.pause();
    this.exited = new Promise((resolve) =>
      this.proxy.once("exit", (code, signal) => resolve({ code, signal })),
    );
  }

  #data(chunk) {
    const lines = (this.#partial + chunk).split("\n");
    this.#partial = lines.pop();
    for (const line of lines) this.messages.push(JSON.parse(line));
  }

  send(message) {
    return this.proxy.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
  }

  request(method, params, id = this.#nextId++) {
    this.send({ id, method, params });
    return id;
  }

  call(name, args = {}, id = undefined) {
    return this.request("tools/call", { name, arguments: args }, id);
  }

  answers(id) {
    return this.messages.filter((m) => m.id === id && m.method === undefined);
  }

  async answer(id, ms = 10_000) {
    await until(() => this.answers(id).length > 0, ms, `the answer to ${id}`);
    return this.answers(id)[0];
  }

  async initialize() {
    const id = this.request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "raw-host", version: "1" },
    });
    await this.answer(id);
    this.send({ method: "notifications/initialized" });
  }
}

const rawProxy = (options = [], serverArgs = [], hostOptions = {}) =>
  new RawHost([...options, "--", process.execPath, RAW, ...serverArgs], hostOptions);

describe("mcp-proxy: answers that match no single pending call", () => {
  it("drops an answer that comes after the host cancelled the call", async () => {
    const host = rawProxy();
    await host.initialize();
    const id = host.call("after_cancel", { chars: 500_000 });
    await sleep(100);
    host.send({ method: "notifications/cancelled", params: { requestId: id, reason: "user" } });
    // The server answers the cancelled call; a later call's answer proves it was read.
    const next = await host.answer(host.call("big", { chars: 40, tag: "next" }));
    assert.match(next.result.content[0].text, /^next/);
    assert.deepEqual(host.answers(id), [], "no answer to a cancelled call reaches the host");
    assert.match(host.stderr, /dropped an answer .* a request the host cancelled/);
    host.proxy.stdin.end();
    assert.deepEqual(await host.exited, { code: 0, signal: null });
  });

  it("drops a second answer to the same call", async () => {
    const host = rawProxy();
    await host.initialize();
    const id = host.call("twice", { chars: 30_000 });
    const first = await host.answer(id);
    assert.match(first.result.content[0].text, /^ref: /m, "the first answer is stubbed");
    await host.answer(host.call("big", { chars: 40, tag: "next" }));
    assert.equal(host.answers(id).length, 1, "the second answer is not passed on");
    assert.match(host.stderr, /dropped an answer .* no pending request/);
    host.proxy.stdin.end();
    await host.exited;
  });

  it("stubs both answers when the host reuses a pending id, each under its own tool", async () => {
    const host = rawProxy();
    await host.initialize();
    host.call("big", { chars: 30_000, tag: "slow", delayMs: 300 }, 77);
    host.call("big", { chars: 30_000, tag: "fast" }, 77);
    await until(() => host.answers(77).length === 2, 10_000, "two answers to id 77");
    for (const answer of host.answers(77)) {
      assert.match(answer.result.content[0].text, /^ref: /m, "no raw result reaches the host");
      assert.match(answer.result.content[0].text, /^tool_name: big$/m);
    }
    assert.match(host.stderr, /request id 77 again while it is pending/);
    host.proxy.stdin.end();
    await host.exited;
  });

  it("passes on an answer to initialize that is no object, and keeps relaying", async () => {
    const host = rawProxy([], ["--null-initialize"]);
    const id = host.request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "raw-host", version: "1" },
    });
    assert.equal((await host.answer(id)).result, null, "the server's answer, as it was");
    const next = await host.answer(host.call("big", { chars: 40, tag: "after" }));
    assert.match(next.result.content[0].text, /^after/, "the proxy still relays calls");
    host.proxy.stdin.end();
    assert.equal((await host.exited).code, 0, "the proxy exits normally");
  });

  it("blames a timed-out call only for the noise written while it was pending", async () => {
    const host = rawProxy(["--timeout-ms", "600"]);
    await host.initialize();
    const noisy = host.call("noise");
    const first = await host.answer(noisy);
    assert.match(first.error.message, /within 600 ms.*wrote 1 line\(s\).*not JSON-RPC/s);
    const quiet = host.call("hang");
    const second = await host.answer(quiet);
    assert.equal(second.error.code, -32001);
    assert.doesNotMatch(second.error.message, /not JSON-RPC/, "earlier noise is not this call's");
    host.proxy.stdin.end();
    await host.exited;
  });
});

describe("mcp-proxy: the wrapped server's process group", () => {
  /** A proxy around a server that started a grandchild: their pids. */
  async function family(serverArgs = []) {
    const host = rawProxy([], serverArgs);
    await host.initialize();
    const answer = await host.answer(host.call("family"));
    const { server, grandchild } = JSON.parse(answer.result.content[0].text);
    pids.push(server, grandchild);
    assert.ok(alive(server) && alive(grandchild));
    return { host, server, grandchild };
  }

  for (const [how, stop] of [
    ["the host closes stdin", (host) => host.proxy.stdin.end()],
    ["SIGTERM", (host) => host.proxy.kill("SIGTERM")],
    ["SIGHUP", (host) => host.proxy.kill("SIGHUP")],
    ["SIGINT", (host) => host.proxy.kill("SIGINT")],
  ]) {
    it(`ends the server and its children when ${how}`, async () => {
      const { host, server, grandchild } = await family();
      stop(host);
      const exited = await host.exited;
      assert.equal(exited.signal, null, `the proxy exits by itself (${JSON.stringify(exited)})`);
      await until(() => !alive(server) && !alive(grandchild), 3000, "the group to be gone");
    });
  }

  it("ends a server that ignores the end of its stdin and SIGTERM, within 2 s of the host's close", async () => {
    const { host, server, grandchild } = await family(["--stubborn"]);
    const started = Date.now();
    host.proxy.stdin.end();
    await host.exited;
    const took = Date.now() - started;
    assert.ok(!alive(server) && !alive(grandchild), "nothing of the group is left");
    // The MCP SDK's client sends SIGTERM 2 s after closing the proxy's stdin.
    assert.ok(took < 2000, `the proxy took ${took} ms to end the group and exit`);
    assert.match(host.stderr, /ignoring SIGTERM/);
  });
});

describe("mcp-proxy: backpressure", () => {
  it("stops reading the server while the host does not read", async () => {
    const host = rawProxy([], [], { read: false });
    // Initialize without reading stdout: small answers fit in the pipe.
    host.request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "slow-host", version: "1" },
    });
    const id = host.call("flood", { count: 100, bytes: 1_000_000 });
    await until(() => /flood: sent 1\n/.test(host.stderr), 10_000, "the flood to start");
    await sleep(1500);
    const sent = Math.max(...[...host.stderr.matchAll(/flood: sent (\d+)/g)].map((m) => +m[1]));
    assert.ok(sent < 20, `the server got ${sent} of 100 MB out while the host read nothing`);
    // The host reads: everything arrives, in order, and the call is answered.
    host.proxy.stdout.resume();
    await host.answer(id, 60_000);
    assert.equal(host.messages.filter((m) => m.method === "notifications/message").length, 100);
    host.proxy.stdin.end();
    await host.exited;
  });

  it("stops reading the host while the server does not read", async () => {
    const host = rawProxy();
    await host.initialize();
    const stall = host.call("stall", { ms: 4000 });
    await sleep(200);
    // 60 requests of 1 MB while the server reads nothing.
    const padding = "y".repeat(1_000_000);
    const ids = Array.from({ length: 60 }, () => host.call("big", { chars: 10, tag: padding }));
    await sleep(2500);
    const taken = 60 * (padding.length + 100) - host.proxy.stdin.writableLength;
    assert.ok(taken < 10_000_000, `the proxy took ${taken} bytes the server could not`);
    await host.answer(stall, 20_000);
    await until(() => ids.every((id) => host.answers(id).length), 60_000, "every call answered");
    host.proxy.stdin.end();
    await host.exited;
  });
});

describe("mcp-proxy: the wrapped server's environment", () => {
  it("does not pass npm exec's npm_config_package on (an inner npx would run the wrong package)", async () => {
    const host = rawProxy([], [], {
      env: { ...process.env, npm_config_package: "tool-stub", npm_config_call: "" },
    });
    await host.initialize();
    const answer = await host.answer(host.call("env"));
    assert.equal(answer.result.content[0].text, "(unset)");
    host.proxy.stdin.end();
    await host.exited;
  });
});

describe("mcp-proxy --url: a server that drops its stream", () => {
  /**
   * A raw Streamable HTTP server: initialize is answered as JSON; a tools/call opens an SSE stream
   * that `onCall(res)` ends or breaks without an answer.
   */
  async function httpServer(onCall) {
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        if (req.method !== "POST") {
          res.writeHead(405).end();
          return;
        }
        const message = JSON.parse(body);
        if (message.method === "initialize") {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(
            JSON.stringify({
              jsonrpc: "2.0",
              id: message.id,
              result: {
                protocolVersion: message.params.protocolVersion,
                capabilities: { tools: {} },
                serverInfo: { name: "raw-http", version: "1" },
              },
            }),
          );
          return;
        }
        if (message.id === undefined) {
          res.writeHead(202).end();
          return;
        }
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(": working\n\n");
        setTimeout(() => onCall(res), 100);
      });
    });
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
    return server;
  }

  for (const [how, onCall, reason] of [
    ["ends its response stream", (res) => res.end(), /ended its response stream/],
    ["drops the socket", (res) => res.socket.destroy(), /dropped the connection/],
  ]) {
    it(`fails the pending call at once when it ${how} (with --timeout-ms 0)`, async () => {
      const server = await httpServer(onCall);
      try {
        const url = `http://127.0.0.1:${server.address().port}/mcp`;
        const host = new RawHost(["--timeout-ms", "0", "--url", url]);
        await host.initialize();
        const started = Date.now();
        const answer = await host.answer(host.call("anything"), 5000);
        assert.equal(answer.error.code, -32000);
        assert.match(answer.error.message, reason);
        assert.ok(Date.now() - started < 3000);
        host.proxy.stdin.end();
        await host.exited;
      } finally {
        server.closeAllConnections();
        server.close();
      }
    });
  }
});

describe("tool-stub mcp installed from a folder (npm install ./pkg, npm link)", () => {
  const SDK_DIR = path.join(ROOT, "node_modules/@modelcontextprotocol/sdk");

  /** A project whose node_modules links tool-stub (a copy of pkg/, outside any node_modules). */
  function linkedProject(name, sdk) {
    const copy = path.join(work, `${name}-pkg`);
    cpSync(path.join(ROOT, "pkg"), copy, { recursive: true });
    const project = path.join(work, name);
    mkdirSync(path.join(project, "node_modules/.bin"), { recursive: true });
    mkdirSync(path.join(project, "node_modules/@modelcontextprotocol"), { recursive: true });
    symlinkSync(copy, path.join(project, "node_modules/tool-stub"));
    symlinkSync("../tool-stub/js/cli.js", path.join(project, "node_modules/.bin/tool-stub"));
    if (sdk) sdk(path.join(project, "node_modules/@modelcontextprotocol/sdk"));
    return project;
  }

  /** Runs `tool-stub mcp` by the project's bin from `cwd`, lists its tools, closes it. */
  function listTools(project, cwd) {
    const lines = [
      {
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "t", version: "1" },
        },
      },
      { method: "notifications/initialized" },
      { id: 2, method: "tools/list", params: {} },
    ].map((m) => `${JSON.stringify({ jsonrpc: "2.0", ...m })}\n`);
    return spawnSync(
      process.execPath,
      [path.join(project, "node_modules/.bin/tool-stub"), "mcp", "--store", path.join(work, "s")],
      { cwd, input: lines.join(""), encoding: "utf8", timeout: 30_000 },
    );
  }

  it("finds the SDK installed beside it in the project, from the project or by the bin's path", () => {
    const project = linkedProject("linked", (at) => symlinkSync(SDK_DIR, at));
    for (const cwd of [project, work]) {
      const run = listTools(project, cwd);
      assert.equal(run.status, 0, run.stderr);
      const tools = run.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line))
        .find((m) => m.id === 2).result.tools;
      assert.ok(tools.some((tool) => tool.name === "openviking_tool_result_read"));
    }
  });

  it("says the SDK it found does not load, instead of asking to install it", () => {
    const project = linkedProject("broken", (at) => {
      mkdirSync(at);
      writeFileSync(
        path.join(at, "package.json"),
        JSON.stringify({ name: "@modelcontextprotocol/sdk", exports: { "./*": "./missing/*" } }),
      );
    });
    const run = listTools(project, project);
    assert.notEqual(run.status, 0);
    assert.match(run.stderr, /the MCP SDK found at .*did not load/);
    assert.doesNotMatch(run.stderr, /npm install/);
  });
});

describe("mcp-proxy: a group left with zombies", () => {
  it("does not wait out its grace for processes that are already dead", async () => {
    // `sh` starts a child and execs the server, which never reaps it: a zombie in the group once
    // it exits, and after the server exits, an orphan for PID 1 to reap (some never do).
    const host = new RawHost([
      "--",
      "sh",
      "-c",
      `true & exec ${JSON.stringify(process.execPath)} ${JSON.stringify(RAW)}`,
    ]);
    await host.initialize();
    await sleep(200);
    const started = Date.now();
    host.proxy.stdin.end();
    assert.deepEqual(await host.exited, { code: 0, signal: null });
    const took = Date.now() - started;
    assert.ok(took < 900, `the proxy took ${took} ms to exit (its grace is 1,000 ms + 500 ms)`);
  });
});
