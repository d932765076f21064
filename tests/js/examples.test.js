// The examples as a new user meets them: every code sample of the README and docs/ is an excerpt of
// a file under examples/, each example type-checks under `tsc --strict` against the built package
// and the SDKs' own types, and each runs as written: the agent loops against a scripted model (the
// AI SDK's mock model, local OpenAI- and Anthropic-compatible servers on 127.0.0.1), the Redis
// example against a redis-server of its own, the browser page in headless Chromium.
import { after, before, describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import * as http from "node:http";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "./pkg.js";
import { SKIP_REDIS, startRedis } from "./redis-servers.js";
import { textStep, toolCallStep } from "./fixtures/mock-steps.mjs";

const EXAMPLES = path.join(ROOT, "examples");
const DOCS = [
  path.join(ROOT, "README.md"),
  ...readdirSync(path.join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => path.join(ROOT, "docs", name)),
];
const CODE_FENCE = /^```(js|javascript|mjs|ts|typescript|html)\s*$/;
const EXAMPLE_MARK = /^<!-- example: (examples\/\S+) -->$/;

/** The JS/TS/HTML code blocks of a Markdown file, each with the example file it says it is from. */
function codeBlocks(file) {
  const lines = readFileSync(file, "utf8").split("\n");
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    if (!CODE_FENCE.test(lines[i])) continue;
    const mark = EXAMPLE_MARK.exec(lines[i - 1] ?? "");
    const end = lines.indexOf("```", i + 1);
    blocks.push({ line: i + 1, source: mark?.[1], body: lines.slice(i + 1, end) });
    i = end;
  }
  return blocks;
}

/** A consumer project: `tool-stub` is the built package, every dev dependency is linked in. */
function makeProject() {
  const project = mkdtempSync(path.join(tmpdir(), "tool-stub-examples-"));
  writeFileSync(
    path.join(project, "package.json"),
    JSON.stringify({ name: "examples", private: true, type: "module" }),
  );
  const modules = path.join(project, "node_modules");
  mkdirSync(modules);
  for (const name of readdirSync(path.join(ROOT, "node_modules"))) {
    if (name.startsWith(".") || name === "tool-stub") continue;
    symlinkSync(path.join(ROOT, "node_modules", name), path.join(modules, name));
  }
  symlinkSync(path.join(ROOT, "pkg"), path.join(modules, "tool-stub"));
  cpSync(EXAMPLES, path.join(project, "examples"), { recursive: true });
  return project;
}

/** Runs an example with node in the project; resolves to its stdout (rejects with its stderr). */
function runExample(project, file, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join("examples", file)], {
      cwd: project,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else reject(new Error(`${file} exited ${code}:\n${stderr}`));
    });
  });
}

/** A scripted model server on 127.0.0.1: `answer(body, step)` gives each POST's JSON answer. */
async function scriptedServer(answer) {
  const requests = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      const parsed = JSON.parse(body);
      requests.push({ url: req.url, body: parsed });
      const reply = answer(parsed, requests.length - 1, req.url);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(reply));
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    requests,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

const refIn = (text) => /ref: (\S+)/.exec(text)?.[1];

describe("code samples in the README and docs", () => {
  for (const file of DOCS) {
    for (const block of codeBlocks(file)) {
      const where = `${path.relative(ROOT, file)}:${block.line}`;
      it(`${where} is an excerpt of a file under examples/`, () => {
        assert.ok(
          block.source,
          `${where}: no <!-- example: examples/... --> line before the block`,
        );
        // Compared without whitespace and commas, so the formatter may wrap the example's lines.
        const squeeze = (text) => text.replace(/[\s,]+/g, "");
        const example = squeeze(readFileSync(path.join(ROOT, block.source), "utf8"));
        // A line `// ...` marks code left out of the excerpt.
        const excerpt = block.body.filter((l) => l.trim() && !l.trim().startsWith("// ..."));
        let at = 0;
        for (const line of excerpt) {
          const found = example.indexOf(squeeze(line), at);
          assert.ok(
            found >= 0,
            `${where}: "${line.trim()}" is not in ${block.source} (in this order)`,
          );
          at = found + squeeze(line).length;
        }
      });
    }
  }
});

describe("docs/agents.md", () => {
  it("names every tool and every argument the model sees", async () => {
    const { ToolStub, MemoryStore } = await import("./pkg.js");
    const page = readFileSync(path.join(ROOT, "docs/agents.md"), "utf8");
    const ts = new ToolStub({ store: new MemoryStore(), sessionId: "s" });
    const definitions = ts.toolDefinitions({ format: "json-schema" });
    assert.ok(definitions.length >= 4);
    for (const { name, parameters } of definitions) {
      assert.ok(page.includes(`\`${name}\``), `docs/agents.md does not name ${name}`);
      for (const argument of Object.keys(parameters.properties)) {
        assert.ok(
          page.includes(`\`${argument}\``),
          `docs/agents.md does not list ${name}'s ${argument}`,
        );
      }
    }
  });
});

describe("the examples", () => {
  let project;
  before(() => {
    project = makeProject();
  });
  after(() => {
    if (project) rmSync(project, { recursive: true, force: true });
  });

  it("type-check under tsc --strict against the package and the SDKs", () => {
    writeFileSync(
      path.join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          allowJs: true,
          checkJs: true,
          strict: true,
          noEmit: true,
          module: "nodenext",
          moduleResolution: "nodenext",
          target: "es2022",
          lib: ["es2023", "dom"],
          types: ["node"],
          skipLibCheck: true,
        },
        include: ["examples/**/*.mjs", "examples/**/*.d.ts"],
      }),
    );
    const tsc = spawnSync(
      process.execPath,
      [path.join(ROOT, "node_modules/typescript/bin/tsc"), "-p", project],
      { encoding: "utf8" },
    );
    assert.equal(tsc.status, 0, `tsc found errors:\n${tsc.stdout}${tsc.stderr}`);
  });

  it("bundlers/esbuild-app.mjs bundles with the wasm inlined", async () => {
    const esbuild = await import("esbuild");
    const dir = path.join(project, "examples/bundlers");
    // The command in the example's first comment, with --format=esm.
    await esbuild.build({
      absWorkingDir: dir,
      entryPoints: ["esbuild-app.mjs"],
      bundle: true,
      format: "esm",
      loader: { ".wasm": "binary" },
      outfile: path.join(dir, "out.js"),
      logLevel: "silent",
    });
    const bundle = readFileSync(path.join(dir, "out.js"), "utf8");
    assert.ok(bundle.length > 500_000, `the three modules are inlined (${bundle.length} chars)`);
  });

  it("bundlers/rollup.config.mjs emits the app, the search worker and the wasm", () => {
    const dir = path.join(project, "examples/bundlers");
    const built = spawnSync(
      process.execPath,
      [path.join(ROOT, "node_modules/rollup/dist/bin/rollup"), "-c", "rollup.config.mjs"],
      { cwd: dir, encoding: "utf8" },
    );
    assert.equal(built.status, 0, built.stderr);
    const emitted = readdirSync(path.join(dir, "dist"), { recursive: true }).map(String);
    assert.ok(emitted.includes("app.js") && emitted.includes("search-worker.js"), `${emitted}`);
    assert.ok(
      emitted.some((name) => name.endsWith(".wasm")),
      `a .wasm file is emitted: ${emitted}`,
    );
  });

  it("context-governor.mjs fits a conversation under its trigger, cleared results searchable", async () => {
    const out = await runExample(project, "context-governor.mjs");
    const [, before, after] = /changed: true, (\d+) tokens before, (\d+) after/.exec(out) ?? [];
    assert.ok(Number(before) > 0.75 * 128_000, `before: ${before}`);
    assert.ok(Number(after) <= 0.45 * 128_000, `after: ${after}`);
    assert.match(
      out,
      /\n\[tool result cleared from context\] ref: viking:\/\/\S+; tool_name: list_orders/,
    );
    assert.match(out, /still searchable: 1 match at offset \d+/);
    assert.match(out, /function function ToolStubContextGovernor/);
  });

  it("token-budget.mjs stubs an output over the token threshold, under the char one", async () => {
    const out = await runExample(project, "token-budget.mjs");
    const [, chars, tokens] = /original_chars: (\d+)\noriginal_tokens: (\d+)/.exec(out) ?? [];
    assert.ok(Number(chars) < 20_000 && Number(tokens) > 5_000, `${chars} chars, ${tokens} tokens`);
    assert.match(out, /^true tool_name: fetch_logs/);
    assert.match(out, new RegExp(`\\n${chars} ${tokens}\\n$`));
  });

  it("node-quickstart.mjs stores a large output and reads it back", async () => {
    const out = await runExample(project, "node-quickstart.mjs");
    assert.match(out, /^\[OpenViking tool result externalized\]\ntool_name: http_get\nkind: json/);
    assert.match(out, /read 2000 chars back/);
    assert.ok(
      existsSync(path.join(project, ".tool-stub")),
      "the filesystem store holds the output",
    );
  });

  it("ai-sdk-agent.mjs: the model sees a stub, searches and reads it by ref", async () => {
    const { MockLanguageModelV3 } = await import("ai/test");
    const { answer } = await import(
      pathToFileURL(path.join(project, "examples/ai-sdk-agent.mjs")).href
    );
    const lastToolResult = (prompt) => {
      const part = prompt.at(-1).content.find((c) => c.type === "tool-result");
      return part.output.value;
    };
    let ref;
    let longest = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async ({ prompt }) => {
        longest = Math.max(longest, JSON.stringify(prompt).length);
        const step = prompt.filter((m) => m.role === "tool").length;
        if (step === 0) return toolCallStep("c1", "fetch_orders", {});
        if (step === 1) {
          ref = refIn(lastToolResult(prompt));
          return toolCallStep("c2", "openviking_tool_result_search", { ref, query: "NEEDLE" });
        }
        const hit = lastToolResult(prompt).matches[0];
        return textStep(`held: ${hit.snippet}`);
      },
    });
    const text = await answer(model, "Which order is held?");
    assert.ok(ref, "the first tool result was a stub with a ref");
    assert.match(text, /held at customs/);
    assert.ok(longest < 10_000, `the model saw at most ${longest} chars, not the 200 KB output`);
  });

  it("openai-chat-loop.mjs against a scripted Chat Completions server", async () => {
    const toolCall = (id, name, args) => ({
      id: `chatcmpl-${id}`,
      object: "chat.completion",
      created: 0,
      model: "scripted",
      choices: [
        {
          index: 0,
          finish_reason: "tool_calls",
          message: {
            role: "assistant",
            content: null,
            tool_calls: [
              { id, type: "function", function: { name, arguments: JSON.stringify(args) } },
            ],
          },
        },
      ],
    });
    const server = await scriptedServer((body, step) => {
      if (step === 0) return toolCall("c1", "fetch_orders", {});
      const last = body.messages.at(-1).content;
      if (step === 1) {
        return toolCall("c2", "openviking_tool_result_search", {
          ref: refIn(last),
          query: "NEEDLE",
        });
      }
      return {
        id: "chatcmpl-end",
        object: "chat.completion",
        created: 0,
        model: "scripted",
        choices: [
          {
            index: 0,
            finish_reason: "stop",
            message: { role: "assistant", content: `held: ${JSON.parse(last).matches[0].snippet}` },
          },
        ],
      };
    });
    try {
      const out = await runExample(project, "openai-chat-loop.mjs", {
        OPENAI_BASE_URL: `${server.url}/v1`,
        OPENAI_API_KEY: "test-key",
      });
      assert.match(out, /held at customs/);
      assert.equal(server.requests.length, 3);
      for (const { body } of server.requests) {
        assert.ok(JSON.stringify(body.messages).length < 10_000, "no request carried the output");
      }
    } finally {
      await server.close();
    }
  });

  it("openai-responses.mjs against a scripted Responses server", async () => {
    const response = (id, output) => ({
      id,
      object: "response",
      created_at: 0,
      status: "completed",
      model: "scripted",
      output,
    });
    const server = await scriptedServer((body, step) => {
      if (step === 0) {
        const ref = refIn(body.input[0].content);
        return response("resp_1", [
          {
            type: "function_call",
            id: "fc_1",
            call_id: "call_1",
            name: "openviking_tool_result_search",
            arguments: JSON.stringify({ ref, query: "NEEDLE" }),
            status: "completed",
          },
        ]);
      }
      const hit = JSON.parse(body.input.at(-1).output).matches[0];
      return response("resp_2", [
        {
          type: "message",
          id: "msg_1",
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: `held: ${hit.snippet}`, annotations: [] }],
        },
      ]);
    });
    try {
      const out = await runExample(project, "openai-responses.mjs", {
        OPENAI_BASE_URL: `${server.url}/v1`,
        OPENAI_API_KEY: "test-key",
      });
      assert.match(out, /held at customs/);
      assert.equal(server.requests.length, 2);
      assert.ok(server.requests[0].body.tools.every((t) => t.strict === true));
    } finally {
      await server.close();
    }
  });

  it("anthropic-loop.mjs against a scripted Messages server", async () => {
    const message = (id, content, stop) => ({
      id,
      type: "message",
      role: "assistant",
      model: "scripted",
      content,
      stop_reason: stop,
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    });
    const server = await scriptedServer((body, step) => {
      if (step === 0) {
        return message(
          "msg_1",
          [{ type: "tool_use", id: "tu_1", name: "fetch_orders", input: {} }],
          "tool_use",
        );
      }
      const result = body.messages.at(-1).content[0].content;
      if (step === 1) {
        const input = { ref: refIn(result), query: "NEEDLE" };
        return message(
          "msg_2",
          [{ type: "tool_use", id: "tu_2", name: "openviking_tool_result_search", input }],
          "tool_use",
        );
      }
      const hit = JSON.parse(result).matches[0];
      return message("msg_3", [{ type: "text", text: `held: ${hit.snippet}` }], "end_turn");
    });
    try {
      const out = await runExample(project, "anthropic-loop.mjs", {
        ANTHROPIC_BASE_URL: server.url,
        ANTHROPIC_API_KEY: "test-key",
      });
      assert.match(out, /held at customs/);
      assert.equal(server.requests.length, 3);
      for (const { body } of server.requests) {
        assert.ok(JSON.stringify(body.messages).length < 10_000, "no request carried the output");
      }
    } finally {
      await server.close();
    }
  });

  it("redact-secrets.mjs: stubs mask the secrets in both modes, the stored output keeps them", async () => {
    const out = await runExample(project, "redact-secrets.mjs");
    const lines = out.trim().split("\n");
    assert.equal(lines.length, 2, out);
    for (const line of lines) {
      assert.equal(line, "stub masks the secrets: true; stored output intact: true");
    }
  });

  it("mcp-retrieval-server.mjs serves the retrieval tools to an MCP client", async () => {
    const out = await runExample(project, "mcp-retrieval-server.mjs");
    assert.match(out, /^tools: openviking_tool_result_read, /);
    assert.match(out, /NEEDLE shipment held at customs/);
  });

  it("redis-store.mjs against a redis-server of its own", { skip: SKIP_REDIS }, async () => {
    const redis = await startRedis();
    try {
      const out = await runExample(project, "redis-store.mjs", {
        REDIS_URL: `redis://127.0.0.1:${redis.port}`,
      });
      assert.match(out, /stored as viking:\/\/\S+; NEEDLE at offset \d+/);
    } finally {
      await redis.stop();
    }
  });

  it("browser/index.html stubs, stores in IndexedDB and searches in headless Chromium", async () => {
    const { launchChromium } = await import("../browser/harness.mjs");
    const site = path.join(project, "examples/browser");
    symlinkSync(path.join(project, "node_modules"), path.join(site, "node_modules"));
    const types = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm" };
    const server = http.createServer((req, res) => {
      const urlPath = decodeURIComponent(new URL(req.url, "http://x").pathname);
      const file = path.join(site, path.normalize(urlPath === "/" ? "/index.html" : urlPath));
      if (!file.startsWith(site) || !existsSync(file)) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { "content-type": types[path.extname(file)] ?? "text/plain" });
      res.end(readFileSync(file));
    });
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${server.address().port}/`);
      await page.waitForFunction(() => document.querySelector("#hits")?.textContent, null, {
        timeout: 60_000,
      });
      const stub = await page.textContent("#stub");
      assert.match(stub, /^\[OpenViking tool result externalized\]\ntool_name: fetch\n/);
      const hits = JSON.parse(await page.textContent("#hits"));
      assert.equal(hits.length, 1);
      assert.match(hits[0].snippet, /ERROR disk full/);
    } finally {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
