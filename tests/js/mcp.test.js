// `tool-stub mcp-proxy` and `tool-stub mcp` end to end, with the official MCP SDK client over
// stdio: against the test server in fixtures/ (every kind of result, progress, cancellation,
// misbehaviour), against a published server (@modelcontextprotocol/server-filesystem), and over
// Streamable HTTP (a server in this process on 127.0.0.1). No network beyond loopback.
import { after, before, describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:http";
import { randomUUID } from "node:crypto";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
  rmSync,
} from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { ROOT } from "./pkg.js";
import { bigText, bigStructured, createTestServer } from "./fixtures/mcp-test-server.mjs";

const CLI = path.join(ROOT, "pkg/js/cli.js");
const FIXTURE = [process.execPath, path.join(ROOT, "tests/js/fixtures/mcp-test-server.mjs")];
const FILESYSTEM = [
  process.execPath,
  path.join(ROOT, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"),
];
const READ = "openviking_tool_result_read";
const SEARCH = "openviking_tool_result_search";
const RETRIEVAL = [
  READ,
  SEARCH,
  "openviking_tool_result_list",
  "openviking_tool_result_search_all",
];
const work = mkdtempSync(path.join(tmpdir(), "tool-stub-mcp-"));
const clients = [];

/** An SDK client on a process that speaks MCP on stdio; its stderr is collected. */
async function connect(command, args, capabilities = {}) {
  const client = new Client({ name: "tool-stub-test", version: "1.0.0" }, { capabilities });
  const transport = new StdioClientTransport({ command, args, stderr: "pipe" });
  let stderr = "";
  transport.stderr.on("data", (chunk) => (stderr += chunk));
  await client.connect(transport);
  clients.push(client);
  return { client, stderr: () => stderr };
}

const direct = (server = FIXTURE, capabilities = {}) =>
  connect(server[0], server.slice(1), capabilities);
const proxied = (options = [], server = FIXTURE, capabilities = {}) =>
  connect(
    process.execPath,
    [CLI, "mcp-proxy", "--store", path.join(work, "store"), ...options, "--", ...server],
    capabilities,
  );

const refOf = (text) => text.match(/^ref: (\S+)$/m)?.[1];
const json = (result) => JSON.parse(result.content[0].text);

/** The whole stored output behind `ref`, read through the read tool in capped windows. */
async function readAll(client, ref, readTool = READ) {
  let content = "";
  for (let offset = 0; ; ) {
    const window = json(
      await client.callTool({ name: readTool, arguments: { ref, offset, limit: 20000 } }),
    );
    assert.equal(window.error, undefined, JSON.stringify(window.error));
    content += window.content;
    offset += [...window.content].length;
    if (!window.has_more) return content;
  }
}

after(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  rmSync(work, { recursive: true, force: true });
});

describe("the MCP entry", () => {
  it("is the only code that loads the MCP SDK, and only on demand", () => {
    for (const dir of ["pkg/js", "pkg/js/stores", "pkg/js/mcp"]) {
      for (const file of readdirSync(path.join(ROOT, dir)).filter((name) => name.endsWith(".js"))) {
        const source = readFileSync(path.join(ROOT, dir, file), "utf8");
        assert.doesNotMatch(
          source,
          /^import\s[^;]*?from\s*["']@modelcontextprotocol/m,
          `${dir}/${file} imports the SDK statically`,
        );
        if (dir !== "pkg/js/mcp")
          assert.doesNotMatch(source, /@modelcontextprotocol/, `${dir}/${file} names the SDK`);
      }
    }
  });
});

describe("the package without the MCP SDK installed", () => {
  it("runs the stdio proxy, and tool-stub mcp says what to install", async () => {
    // A copy of the package where no node_modules can be found above it.
    const alone = path.join(work, "alone");
    cpSync(path.join(ROOT, "pkg"), alone, { recursive: true });
    const cli = path.join(alone, "js/cli.js");
    const { client } = await connect(process.execPath, [
      cli,
      "mcp-proxy",
      "--store",
      path.join(work, "store"),
      "--",
      ...FIXTURE,
    ]);
    assert.match(
      (await client.callTool({ name: "big_text", arguments: { chars: 30_000 } })).content[0].text,
      /^ref: /m,
    );
    // Run from outside any project that has the SDK (the project is searched too).
    const server = spawnSync(process.execPath, [cli, "mcp", "--store", path.join(work, "store")], {
      encoding: "utf8",
      input: "",
      cwd: work,
    });
    assert.notEqual(server.status, 0);
    assert.match(
      server.stderr,
      /needs the MCP SDK next to tool-stub or in your project: npm install @modelcontextprotocol\/sdk/,
    );
  });
});

describe("the mcp commands' usage", () => {
  it("prints help on stdout, and refuses a proxy without a server", () => {
    const help = spawnSync(process.execPath, [CLI, "mcp-proxy", "--help"], { encoding: "utf8" });
    assert.equal(help.status, 0);
    assert.match(help.stdout, /mcp-proxy \[options\] -- COMMAND/);
    const bare = spawnSync(
      process.execPath,
      [CLI, "mcp-proxy", "--store", path.join(work, "store")],
      { encoding: "utf8", input: "" },
    );
    assert.equal(bare.status, 2);
    assert.match(bare.stderr, /INVALID_ARGUMENT: mcp-proxy needs the wrapped server/);
    assert.equal(bare.stdout, "");
  });
});

describe("mcp-proxy against the test server", () => {
  let viaProxy;
  let plain;
  before(async () => {
    [viaProxy, plain] = await Promise.all([proxied(), direct()]);
  });

  it("forwards initialize, resources, prompts, ping and small results unchanged", async () => {
    const [a, b] = [viaProxy.client, plain.client];
    assert.deepEqual(a.getServerCapabilities(), b.getServerCapabilities());
    assert.deepEqual(a.getServerVersion(), b.getServerVersion());
    assert.equal(a.getInstructions(), b.getInstructions());
    assert.deepEqual(await a.listResources(), await b.listResources());
    // A 30 KB resource is no tool result: it passes untouched.
    assert.deepEqual(
      await a.readResource({ uri: "test://readme" }),
      await b.readResource({ uri: "test://readme" }),
    );
    assert.deepEqual(await a.listPrompts(), await b.listPrompts());
    assert.deepEqual(
      await a.getPrompt({ name: "greet", arguments: { who: "you" } }),
      await b.getPrompt({ name: "greet", arguments: { who: "you" } }),
    );
    assert.deepEqual(await a.ping(), await b.ping());
    for (const [name, args] of [
      ["small_text", {}],
      ["fail", { chars: 100 }],
      ["structured", { rows: 3 }],
    ]) {
      assert.deepEqual(
        await a.callTool({ name, arguments: args }),
        await b.callTool({ name, arguments: args }),
        name,
      );
    }
  });

  it("lists the server's tools without output schemas, and the retrieval tools", async () => {
    const [{ tools: mine }, { tools: theirs }] = [
      await viaProxy.client.listTools(),
      await plain.client.listTools(),
    ];
    const withoutSchemas = theirs.map(({ outputSchema, ...tool }) => tool);
    assert.deepEqual(mine.slice(0, theirs.length), withoutSchemas);
    assert.deepEqual(
      mine.slice(theirs.length).map((tool) => tool.name),
      RETRIEVAL,
    );
    assert.ok(theirs.some((tool) => tool.outputSchema) && !mine.some((tool) => tool.outputSchema));
    assert.equal(mine.at(-4).inputSchema.type, "object");
  });

  it("replaces a large text result by a stub; read and search return exactly the original", async () => {
    const original = bigText(50_000, 4);
    const result = await viaProxy.client.callTool({
      name: "big_text",
      arguments: { chars: 50_000, seed: 4 },
    });
    assert.equal(result.content.length, 1);
    const stub = result.content[0].text;
    assert.match(
      stub,
      /^\[OpenViking tool result externalized\]\ntool_name: big_text\nkind: text\noriginal_chars: 50000\n/,
    );
    assert.ok(stub.length < 5000);
    const ref = refOf(stub);
    assert.equal(await readAll(viaProxy.client, ref), original);
    const needle = "000777 INFO";
    const found = json(
      await viaProxy.client.callTool({
        name: SEARCH,
        arguments: { ref, query: needle, context_chars: 10 },
      }),
    );
    assert.equal(found.matches.length, 1);
    assert.equal(found.matches[0].offset, original.indexOf(needle));
    assert.equal(
      found.matches[0].snippet,
      original.slice(original.indexOf(needle) - 10, original.indexOf(needle) + needle.length + 10),
    );
    const listed = json(
      await viaProxy.client.callTool({
        name: "openviking_tool_result_list",
        arguments: { tool_name: "big_text" },
      }),
    );
    assert.ok(listed.tool_results.some((entry) => entry.ref === ref));
    const bad = await viaProxy.client.callTool({
      name: READ,
      arguments: { ref: "tr_nope_0123456789abcdef" },
    });
    assert.equal(bad.isError, true);
    assert.equal(json(bad).error.code, "NOT_FOUND");
  });

  it("passes image content through untouched and stubs the text beside it", async () => {
    const [mine, theirs] = [
      await viaProxy.client.callTool({ name: "image" }),
      await plain.client.callTool({ name: "image" }),
    ];
    assert.deepEqual(mine.content[0], theirs.content[0]);
    assert.equal(mine.content[0].type, "image");
    assert.equal(
      await readAll(viaProxy.client, refOf(mine.content[1].text)),
      theirs.content[1].text,
    );
  });

  it("keeps an error an error, and stubs it only when oversized", async () => {
    const large = await viaProxy.client.callTool({ name: "fail", arguments: { chars: 30_000 } });
    assert.equal(large.isError, true);
    const ref = refOf(large.content[0].text);
    assert.equal(await readAll(viaProxy.client, ref), `failed: ${bigText(30_000, 2)}`);
  });

  it("stores oversized structured content as JSON and drops it, keeping the stub as text", async () => {
    const result = await viaProxy.client.callTool({
      name: "structured",
      arguments: { rows: 1000 },
    });
    assert.equal(result.structuredContent, undefined);
    assert.equal(result.content[0].text, "1000 items");
    assert.match(result.content[1].text, /^kind: json$/m);
    assert.deepEqual(
      JSON.parse(await readAll(viaProxy.client, refOf(result.content[1].text))),
      bigStructured(1000),
    );
    // When the text is the structured content's JSON, one stub covers both.
    const twin = await viaProxy.client.callTool({
      name: "structured_twin",
      arguments: { rows: 1000 },
    });
    assert.equal(twin.structuredContent, undefined);
    assert.equal(twin.content.length, 1);
    assert.deepEqual(
      JSON.parse(await readAll(viaProxy.client, refOf(twin.content[0].text))),
      bigStructured(1000),
    );
  });

  it("rewrites concurrent results, each to its own stored output", async () => {
    const seeds = [21, 22, 23, 24, 25];
    const stubs = await Promise.all(
      seeds.map((seed) =>
        viaProxy.client.callTool({ name: "big_text", arguments: { chars: 25_000, seed } }),
      ),
    );
    for (const [i, result] of stubs.entries())
      assert.equal(
        await readAll(viaProxy.client, refOf(result.content[0].text)),
        bigText(25_000, seeds[i]),
      );
  });

  it("forwards progress notifications and logging", async () => {
    const progress = async (client) => {
      const seen = [];
      await client.callTool({ name: "progress", arguments: { steps: 4 } }, undefined, {
        onprogress: (p) => seen.push(p),
      });
      return seen;
    };
    const seen = await progress(viaProxy.client);
    assert.equal(seen.length, 4);
    assert.deepEqual(seen, await progress(plain.client));
    const logs = [];
    viaProxy.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) =>
      logs.push(n.params),
    );
    await viaProxy.client.setLoggingLevel("debug");
    await viaProxy.client.callTool({ name: "log" });
    assert.deepEqual(logs, [{ level: "info", data: "a log line" }]);
  });

  it("forwards the server's requests to the host and their answers back, and list_changed", async () => {
    const roots = { roots: [{ uri: "file:///project", name: "project" }] };
    const rootsSeen = async ({ client }) => {
      client.setRequestHandler(ListRootsRequestSchema, async () => roots);
      return JSON.parse((await client.callTool({ name: "roots" })).content[0].text);
    };
    const [mine, theirs] = await Promise.all([
      proxied([], FIXTURE, { roots: {} }),
      direct(FIXTURE, { roots: {} }),
    ]);
    assert.deepEqual(await rootsSeen(mine), roots);
    assert.deepEqual(await rootsSeen(theirs), roots);
    let changed = 0;
    mine.client.setNotificationHandler(ToolListChangedNotificationSchema, () => changed++);
    await mine.client.callTool({ name: "change_tools" });
    for (let i = 0; i < 50 && changed === 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(changed, 1);
  });

  it("forwards cancellation to the server", async () => {
    const abort = new AbortController();
    const call = viaProxy.client.callTool({ name: "slow" }, undefined, { signal: abort.signal });
    setTimeout(() => abort.abort("enough"), 200);
    await assert.rejects(call);
    for (let i = 0; i < 50; i++) {
      const count = (await viaProxy.client.callTool({ name: "cancelled_count" })).content[0].text;
      if (count === "1") return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.fail("the server never saw the cancellation");
  });
});

describe("mcp-proxy options", () => {
  it("puts all text parts of one result in one turn (the turn budget applies)", async () => {
    const { client } = await proxied(["--threshold", "5000", "--turn-budget", "9000"]);
    const result = await client.callTool({ name: "multi", arguments: { count: 3, chars: 4000 } });
    const texts = result.content.map((item) => item.text);
    const stubbed = texts.filter(refOf);
    assert.ok(stubbed.length >= 1 && stubbed.length < 3, `${stubbed.length} of 3 went out`);
    for (const stub of stubbed) assert.match(stub, /^reason: turn_budget$/m);
    assert.ok(texts.join("").length <= 9000, `the turn is ${texts.join("").length} chars`);
    for (const [i, text] of texts.entries()) {
      const original = bigText(4000, 10 + i);
      assert.equal(refOf(text) ? await readAll(client, refOf(text)) : text, original);
    }
  });

  it("counts in tokens with --threshold-tokens, and refuses a bad token flag", async () => {
    // 12,000 chars: inline under the default 20,000-char threshold, over 1,000 tokens.
    const call = (client) =>
      client.callTool({ name: "big_text", arguments: { chars: 12_000, seed: 71 } });
    const chars = (await call((await proxied()).client)).content[0].text;
    assert.equal(refOf(chars), undefined);
    const { client } = await proxied(["--threshold-tokens", "1000", "--tokenizer", "o200k"]);
    const stub = (await call(client)).content[0].text;
    assert.ok(refOf(stub), stub.slice(0, 200));
    assert.match(stub, /\noriginal_tokens: \d+\n/);
    assert.equal(await readAll(client, refOf(stub)), bigText(12_000, 71));
    const bad = spawnSync(
      process.execPath,
      [
        CLI,
        "mcp-proxy",
        "--store",
        path.join(work, "store"),
        "--budget-unit",
        "words",
        "--",
        ...FIXTURE,
      ],
      { encoding: "utf8", input: "" },
    );
    assert.notEqual(bad.status, 0);
    assert.match(bad.stderr, /INVALID_ARGUMENT/);
    assert.match(bad.stderr, /--budget-unit takes chars or tokens/);
  });

  it("answers a result identical to one already stubbed with its one-line reference form", async () => {
    const { client } = await proxied();
    const call = () =>
      client.callTool({ name: "big_text", arguments: { chars: 30_000, seed: 61 } });
    const first = (await call()).content[0].text;
    const ref = refOf(first);
    assert.ok(ref, "the first answer is the whole stub");
    assert.match(first, /\nSynopsis:\n/);
    const again = await call();
    assert.equal(again.content.length, 1);
    const line = again.content[0].text;
    assert.equal(line.includes("\n"), false);
    assert.ok(
      line.startsWith(
        `[tool result cleared from context] ref: ${ref}; tool_name: big_text; kind: text; original_chars: 30000.`,
      ),
      line,
    );
    assert.match(line, /openviking_tool_result_search or openviking_tool_result_read with ref=/);
    assert.ok(line.length * 5 < first.length, `${line.length} chars against ${first.length}`);
    // The ref still reads the whole output; a different output still gets its whole stub.
    assert.equal(await readAll(client, ref), bigText(30_000, 61));
    const other = (
      await client.callTool({ name: "big_text", arguments: { chars: 30_000, seed: 62 } })
    ).content[0].text;
    assert.match(other, /^\[OpenViking tool result externalized\]\n/);
    assert.notEqual(refOf(other), ref);
  });

  it("gives a server without tools the retrieval tools (a tools capability added)", async () => {
    const [mine, theirs] = await Promise.all([
      proxied([], [...FIXTURE, "--no-tools"]),
      direct([...FIXTURE, "--no-tools"]),
    ]);
    assert.equal(theirs.client.getServerCapabilities().tools, undefined);
    assert.deepEqual(mine.client.getServerCapabilities(), {
      ...theirs.client.getServerCapabilities(),
      tools: {},
    });
    assert.deepEqual(
      (await mine.client.listTools()).tools.map((tool) => tool.name),
      RETRIEVAL,
    );
    assert.deepEqual(await mine.client.listPrompts(), await theirs.client.listPrompts());
  });

  it("names the retrieval tools by --tool-prefix, in tools/list and in the stubs", async () => {
    const { client } = await proxied(["--tool-prefix", "stored_"]);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    assert.deepEqual(names.slice(-4), [
      "stored_read",
      "stored_search",
      "stored_list",
      "stored_search_all",
    ]);
    const stub = (await client.callTool({ name: "big_text", arguments: { chars: 30_000 } }))
      .content[0].text;
    assert.match(stub, /Use stored_search with ref=/);
    assert.equal((await readAll(client, refOf(stub), "stored_read")).length, 30_000);
  });

  it("refuses tools/list when a wrapped tool has a retrieval tool's name (config file)", async () => {
    const config = path.join(work, "clash.json");
    writeFileSync(
      config,
      JSON.stringify({
        toolNames: { read: "small_text", search: "s2", list: "l2", searchAll: "a2" },
      }),
    );
    const { client } = await proxied(["--config", config]);
    await assert.rejects(client.listTools(), /small_text.*--tool-prefix/);
  });

  it("passes the raw result on when the store fails (failureMode preserve_raw), a stub without a ref under preview_only, an error under reject", async () => {
    const file = path.join(work, "not-a-directory");
    writeFileSync(file, "");
    const raw = await connect(process.execPath, [
      CLI,
      "mcp-proxy",
      "--store",
      file,
      "--",
      ...FIXTURE,
    ]);
    const result = await raw.client.callTool({ name: "big_text", arguments: { chars: 30_000 } });
    assert.deepEqual(result.content, [{ type: "text", text: bigText(30_000) }]);
    assert.match(raw.stderr(), /could not store a result of big_text, passed on raw: .*ENOTDIR/);
    const preview = await connect(process.execPath, [
      CLI,
      "mcp-proxy",
      "--store",
      file,
      "--failure-mode",
      "preview_only",
      "--",
      ...FIXTURE,
    ]);
    const stub = (await preview.client.callTool({ name: "big_text", arguments: { chars: 30_000 } }))
      .content[0].text;
    assert.match(stub, /^\[OpenViking tool result externalized\]\n/);
    assert.equal(refOf(stub), undefined);
    assert.match(
      preview.stderr(),
      /could not store a result of big_text, sent a stub without a ref: .*ENOTDIR/,
    );
    const strict = await connect(process.execPath, [
      CLI,
      "mcp-proxy",
      "--store",
      file,
      "--failure-mode",
      "reject",
      "--",
      ...FIXTURE,
    ]);
    await assert.rejects(
      strict.client.callTool({ name: "big_text", arguments: { chars: 30_000 } }),
      /could not store the result of big_text/,
    );
  });
});

describe("mcp-proxy when the wrapped server misbehaves", () => {
  it("answers with errors when the server writes garbage to stdout, hangs, or crashes", async () => {
    const { client } = await proxied(["--timeout-ms", "1500"]);
    const [noise, hang] = await Promise.allSettled([
      client.callTool({ name: "noise" }),
      client.callTool({ name: "hang" }),
    ]);
    assert.match(
      noise.reason.message,
      /did not answer tools\/call within 1500 ms.*not JSON-RPC.*this line is not JSON-RPC/s,
    );
    assert.match(hang.reason.message, /did not answer tools\/call within 1500 ms/);
    // A call that takes longer than the timeout but reports progress more often is not cut.
    const steps = [];
    const slowProgress = await client.callTool(
      { name: "progress", arguments: { steps: 4, delayMs: 600 } },
      undefined,
      { onprogress: (p) => steps.push(p.progress), timeout: 60_000 },
    );
    assert.equal(slowProgress.content[0].text, "done");
    assert.deepEqual(steps, [1, 2, 3, 4]);
    // Still usable after both.
    assert.equal((await client.callTool({ name: "small_text" })).content[0].text, "a small answer");
    await assert.rejects(
      client.callTool({ name: "crash" }),
      /exited with code 3.*crashing on purpose/s,
    );
    await assert.rejects(
      client.callTool({ name: "small_text" }),
      /exited with code 3.*cannot answer tools\/call/s,
    );
    // The retrieval tools still answer.
    assert.equal(
      json(await client.callTool({ name: READ, arguments: { ref: "tr_nope_0123456789abcdef" } }))
        .error.code,
      "NOT_FOUND",
    );
  });

  it("answers with an error when the server's command cannot be started", async () => {
    await assert.rejects(
      proxied([], [path.join(work, "no-such-server")]),
      /no-such-server\) could not be started \(ENOENT\)[;,] .*answer(ed)? initialize/,
    );
  });

  it("writes only protocol messages to stdout, and exits cleanly with the server when stdin closes or on SIGTERM", async () => {
    assert.deepEqual(await rawSession((proxy) => proxy.stdin.end()), { code: 0, signal: null });
    assert.deepEqual(await rawSession((proxy) => proxy.kill("SIGTERM")), { code: 0, signal: null });
  });
});

/**
 * A proxy spoken to in raw JSON-RPC lines: initialize, two calls, then `stop(proxy)`. Checks that
 * every stdout line is a JSON-RPC message and that the wrapped server is gone after the proxy
 * exits; returns how the proxy exited.
 */
async function rawSession(stop) {
  const proxy = spawn(
    process.execPath,
    [CLI, "mcp-proxy", "--store", path.join(work, "store"), "--", ...FIXTURE],
    { stdio: ["pipe", "pipe", "pipe"] },
  );
  let stdout = "";
  let stderr = "";
  proxy.stderr.on("data", (chunk) => (stderr += chunk));
  proxy.stdout.on("data", (chunk) => (stdout += chunk));
  const send = (message) => proxy.stdin.write(`${JSON.stringify(message)}\n`);
  const answered = (id) =>
    new Promise((resolve) => {
      const done = () =>
        stdout
          .split("\n")
          .slice(0, -1)
          .some((line) => JSON.parse(line).id === id);
      const check = () => (done() ? resolve() : setTimeout(check, 10));
      check();
    });
  send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "raw", version: "1" },
    },
  });
  await answered(1);
  send({ jsonrpc: "2.0", method: "notifications/initialized" });
  send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "pid", arguments: {} } });
  send({
    jsonrpc: "2.0",
    id: 3,
    method: "tools/call",
    params: { name: "big_text", arguments: { chars: 40_000 } },
  });
  await Promise.all([answered(2), answered(3)]);
  // The server writes a line that is not JSON-RPC: it goes to stderr, never to the host.
  send({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "noise", arguments: {} } });
  while (!stderr.includes("this line is not JSON-RPC"))
    await new Promise((resolve) => setTimeout(resolve, 10));
  const lines = stdout.trimEnd().split("\n");
  for (const line of lines) assert.equal(JSON.parse(line).jsonrpc, "2.0", line);
  const serverPid = Number(
    lines.map((line) => JSON.parse(line)).find((m) => m.id === 2).result.content[0].text,
  );
  const exited = new Promise((resolve) =>
    proxy.once("exit", (code, signal) => resolve({ code, signal })),
  );
  stop(proxy);
  const how = await exited;
  assert.throws(() => process.kill(serverPid, 0), { code: "ESRCH" });
  return how;
}

describe("mcp-proxy against a published server (@modelcontextprotocol/server-filesystem)", () => {
  const root = path.join(work, "files");
  let viaProxy;
  let plain;
  before(async () => {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    writeFileSync(path.join(root, "big.log"), bigText(120_000, 9));
    writeFileSync(path.join(root, "small.txt"), "hello\n");
    [viaProxy, plain] = await Promise.all([
      proxied([], [...FILESYSTEM, root]),
      direct([...FILESYSTEM, root]),
    ]);
  });

  it("stubs a large file read, and reads it back exactly", async () => {
    const result = await viaProxy.client.callTool({
      name: "read_text_file",
      arguments: { path: path.join(root, "big.log") },
    });
    assert.equal(result.structuredContent, undefined);
    const refs = result.content.map((item) => refOf(item.text));
    assert.ok(refs.every(Boolean), "every text part is a stub");
    assert.equal(await readAll(viaProxy.client, refs[0]), bigText(120_000, 9));
  });

  it("forwards everything else unchanged", async () => {
    const [a, b] = [viaProxy.client, plain.client];
    assert.deepEqual(a.getServerVersion(), b.getServerVersion());
    const [{ tools: mine }, { tools: theirs }] = [await a.listTools(), await b.listTools()];
    assert.deepEqual(
      mine.slice(0, theirs.length),
      theirs.map(({ outputSchema, ...tool }) => tool),
    );
    for (const [name, args] of [
      ["read_text_file", { path: path.join(root, "small.txt") }],
      ["list_directory", { path: root }],
      ["list_allowed_directories", {}],
      ["read_text_file", { path: path.join(root, "missing.txt") }],
    ]) {
      assert.deepEqual(
        await a.callTool({ name, arguments: args }),
        await b.callTool({ name, arguments: args }),
        name,
      );
    }
  });
});

describe("tool-stub mcp (the retrieval tools over a store)", () => {
  it("lists, reads and searches what the proxy stored", async () => {
    const { client } = await connect(process.execPath, [
      CLI,
      "mcp",
      "--store",
      path.join(work, "store"),
    ]);
    assert.deepEqual(
      (await client.listTools()).tools.map((tool) => tool.name),
      RETRIEVAL,
    );
    const listed = json(
      await client.callTool({
        name: "openviking_tool_result_list",
        arguments: { tool_name: "big_text" },
      }),
    );
    assert.ok(listed.tool_results.length >= 1);
    // The model's list tool gives lean entries (ref, tool_name, kind, chars, created_at, summary).
    const entry = listed.tool_results.find((r) => r.chars === 50_000);
    assert.equal(await readAll(client, entry.ref), bigText(50_000, 4));
    const result = await client.callTool({
      name: SEARCH,
      arguments: { ref: entry.ref, query: "000123 INFO" },
    });
    assert.deepEqual(result.structuredContent, JSON.parse(result.content[0].text));
    assert.equal(result.structuredContent.matches.length, 1);
  });
});

describe("mcp-proxy over Streamable HTTP", () => {
  let http;
  let url;
  before(async () => {
    // One server and transport per MCP session: a request without a session id starts one.
    const sessions = new Map();
    http = createServer(async (req, res) => {
      let transport = sessions.get(req.headers["mcp-session-id"]);
      if (!transport) {
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => sessions.set(id, transport),
        });
        await createTestServer().connect(transport);
      }
      await transport.handleRequest(req, res);
    });
    await new Promise((resolve) => http.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${http.address().port}/mcp`;
  });
  after(() => {
    http?.closeAllConnections();
    http?.close();
  });

  it("stubs large results and forwards the rest", async () => {
    const { client } = await proxied(["--url", url], []);
    assert.equal((await client.callTool({ name: "small_text" })).content[0].text, "a small answer");
    const stub = (
      await client.callTool({ name: "big_text", arguments: { chars: 60_000, seed: 3 } })
    ).content[0].text;
    assert.equal(await readAll(client, refOf(stub)), bigText(60_000, 3));
    const seen = [];
    await client.callTool({ name: "progress", arguments: { steps: 2 } }, undefined, {
      onprogress: (p) => seen.push(p.progress),
    });
    assert.deepEqual(seen, [1, 2]);
  });

  it("forwards resources, prompts and small results as the server sends them", async () => {
    const [{ client: a }, { client: b }] = await Promise.all([
      proxied(["--url", url], []),
      direct(),
    ]);
    assert.deepEqual(
      await a.readResource({ uri: "test://readme" }),
      await b.readResource({ uri: "test://readme" }),
    );
    assert.deepEqual(
      await a.getPrompt({ name: "greet", arguments: { who: "x" } }),
      await b.getPrompt({ name: "greet", arguments: { who: "x" } }),
    );
    assert.deepEqual(
      await a.callTool({ name: "image", arguments: {} }).then((r) => r.content[0]),
      await b.callTool({ name: "image" }).then((r) => r.content[0]),
    );
  });

  it("gives the host an error when the server is unreachable", async () => {
    // Port 9 (discard) on loopback: nothing listens there.
    await assert.rejects(
      proxied(["--url", "http://127.0.0.1:9/mcp"], []),
      /did not take initialize: .*fetch failed/,
    );
  });
});
