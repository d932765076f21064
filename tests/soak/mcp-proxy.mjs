// The MCP proxy under a misbehaving server: each round starts `tool-stub mcp-proxy` around
// tests/js/fixtures/mcp-raw-server.mjs and sends 100 concurrent tools/call, a random mix of big
// results, hangs (cut by --timeout-ms), calls the host cancels (the server answers them anyway,
// big), double answers, and in some rounds a crash. Invariants: every call not cancelled gets
// exactly one answer; no cancelled call gets any; no text over the threshold reaches the host
// raw; every stdout line is JSON-RPC; the server's process group is gone once the proxy exits;
// every ref in a stub reads back exactly through the retrieval tool.
// Usage: node tests/soak/mcp-proxy.mjs [--rounds 20] [--calls 100] [--seed 1]
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { ROOT, parseArgs, random } from "./lib.mjs";

const CLI = path.join(ROOT, "pkg/js/cli.js");
const RAW = path.join(ROOT, "tests/js/fixtures/mcp-raw-server.mjs");
const THRESHOLD = 20_000;
const READ = "openviking_tool_result_read";
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const text = (chars, tag) =>
  (tag + "0123456789abcdef\n".repeat(Math.ceil(chars / 17))).slice(0, chars);

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

async function round(storeDir, { calls, crash, rnd }, counts, violations) {
  const proxy = spawn(
    process.execPath,
    [
      CLI,
      "mcp-proxy",
      "--store",
      storeDir,
      "--timeout-ms",
      "1500",
      "--threshold",
      String(THRESHOLD),
      "--",
      process.execPath,
      RAW,
    ],
    { stdio: ["pipe", "pipe", "pipe"] },
  );
  const answers = new Map();
  let partial = "";
  proxy.stdout.on("data", (chunk) => {
    const lines = (partial + chunk).split("\n");
    partial = lines.pop();
    for (const line of lines) {
      let message;
      try {
        message = JSON.parse(line);
      } catch {
        violations.push(`a stdout line that is not JSON: ${line.slice(0, 80)}`);
        continue;
      }
      if (message.jsonrpc !== "2.0") violations.push(`not JSON-RPC: ${line.slice(0, 80)}`);
      if (message.id !== undefined && message.method === undefined) {
        if (!answers.has(message.id)) answers.set(message.id, []);
        answers.get(message.id).push(message);
      }
    }
  });
  proxy.stderr.on("data", () => {});
  proxy.stdin.on("error", () => {});
  const exited = new Promise((resolve) =>
    proxy.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const send = (message) =>
    proxy.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
  send({
    id: "init",
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "soak", version: "1" },
    },
  });
  send({ method: "notifications/initialized" });
  send({ id: "pid", method: "tools/call", params: { name: "family", arguments: {} } });

  const kinds = [];
  const crashAt = crash ? Math.floor(rnd() * calls) : -1;
  for (let i = 0; i < calls; i++) {
    const pick = rnd();
    const kind =
      i === crashAt
        ? "crash"
        : pick < 0.5
          ? "big"
          : pick < 0.65
            ? "hang"
            : pick < 0.85
              ? "after_cancel"
              : "twice";
    const chars = kind === "big" ? Math.floor(rnd() * 60_000) : 30_000;
    kinds.push({ kind, chars, tag: `c${i} ` });
    send({
      id: i,
      method: "tools/call",
      params: { name: kind, arguments: { chars, tag: `c${i} ` } },
    });
  }
  await sleep(300);
  for (let i = 0; i < calls; i++)
    if (kinds[i].kind === "after_cancel")
      send({ method: "notifications/cancelled", params: { requestId: i } });

  // Every call not cancelled is answered within the timeout (or at once when the server crashes).
  const due = Date.now() + 15_000;
  const open = () => kinds.some((k, i) => k.kind !== "after_cancel" && !answers.has(i));
  while (open() && Date.now() < due) await sleep(20);
  await sleep(300); // late or second answers, if any got through
  const family = answers.get("pid")?.[0]?.result
    ? JSON.parse(answers.get("pid")[0].result.content[0].text)
    : undefined;

  const refs = [];
  kinds.forEach(({ kind, chars }, i) => {
    const got = answers.get(i) ?? [];
    if (kind === "after_cancel") {
      counts.cancelled++;
      if (got.length) violations.push(`cancelled call ${i} was answered`);
      return;
    }
    if (got.length !== 1) {
      violations.push(`call ${i} (${kind}) got ${got.length} answers`);
      return;
    }
    const [answer] = got;
    if (answer.error) {
      if (answer.error.code === -32001) counts.timedOut++;
      else if (answer.error.code === -32000) counts.serverGone++;
      else counts.otherErrors++;
      return;
    }
    const body = answer.result?.content?.[0]?.text ?? "";
    const ref = /^ref: (\S+)$/m.exec(body)?.[1];
    if (ref) {
      counts.stubbed++;
      refs.push({
        ref,
        expected: kind === "twice" ? text(chars, "first ") : text(chars, kinds[i].tag),
      });
    } else if (body.length > THRESHOLD)
      violations.push(`call ${i} (${kind}): ${body.length} chars passed raw`);
    else counts.small++;
  });

  // Refs read back exactly (through the proxy's own retrieval tool, while it still runs).
  let reads = 0;
  const readWindow = async (ref, offset) => {
    const id = `read${reads++}`;
    send({
      id,
      method: "tools/call",
      params: { name: READ, arguments: { ref, offset, limit: 20_000 } },
    });
    const until = Date.now() + 10_000;
    while (!answers.has(id) && Date.now() < until) await sleep(5);
    return answers.get(id)?.[0]?.result?.structuredContent;
  };
  for (const { ref, expected } of refs) {
    let content = "";
    let window;
    do {
      window = await readWindow(ref, [...content].length);
      content += window?.content ?? "";
    } while (window?.has_more);
    if (content === expected) counts.readBack++;
    else violations.push(`ref ${ref} did not read back (${window?.error?.code ?? "different"})`);
  }

  proxy.stdin.end();
  const how = await exited;
  if (how.code !== 0) violations.push(`the proxy exited ${JSON.stringify(how)}`);
  if (family) {
    await sleep(100);
    for (const [role, pid] of Object.entries(family)) {
      if (alive(pid)) {
        const state = (() => {
          try {
            return /State:\s+(\S+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
          } catch {
            return "?";
          }
        })();
        violations.push(
          `the ${role} (${pid}, state ${state}) outlived the proxy (crash round: ${crash})`,
        );
        process.kill(pid, "SIGKILL");
      }
    }
    counts.groupsEnded++;
  }
  counts.rounds++;
}

export async function mcpProxySoak({ rounds = 20, calls = 100, seed = 1 } = {}) {
  const parent = mkdtempSync(path.join(tmpdir(), "tool-stub-soak-mcp-"));
  const rnd = random(seed);
  const counts = {
    rounds: 0,
    calls: 0,
    crashRounds: 0,
    stubbed: 0,
    small: 0,
    readBack: 0,
    timedOut: 0,
    serverGone: 0,
    cancelled: 0,
    otherErrors: 0,
    groupsEnded: 0,
  };
  const violations = [];
  try {
    for (let r = 0; r < rounds; r++) {
      const crash = r % 3 === 2;
      counts.crashRounds += crash ? 1 : 0;
      counts.calls += calls;
      await round(path.join(parent, "store"), { calls, crash, rnd }, counts, violations);
    }
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
  return { ...counts, violations: violations.slice(0, 20), violationCount: violations.length };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = parseArgs(process.argv.slice(2), { rounds: 20, calls: 100, seed: 1 });
  const result = await mcpProxySoak(args);
  console.log(JSON.stringify(result, null, 2));
  process.exitCode = result.violationCount ? 1 : 0;
}
