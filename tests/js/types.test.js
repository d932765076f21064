// The declarations against the SDKs' own types: `tsc --strict` compiles a consumer that hands
// toolDefinitions()'s results to the openai, @anthropic-ai/sdk and ai packages' types, branches on
// handleToolCall's results, and uses externalizingTool's result as the string it is. Run under
// `module: nodenext` and under `moduleResolution: bundler`. RedisStore is typed against ioredis's own types. The SDKs are dev dependencies; a
// missing one makes the check fail (it would otherwise pass for the wrong reason).
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, symlinkSync, writeFileSync, existsSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { ROOT } from "./pkg.js";

const SDKS = ["openai", "@anthropic-ai/sdk", "ai", "typescript", "ioredis"];

const CONSUMER_TS = `
import { ToolStub, MemoryStore, type ToolCallResult } from "tool-stub";
import { aiSdkTools, externalizingTool } from "tool-stub/ai-sdk";
import type { ChatCompletionTool } from "openai/resources/chat/completions";
import type { FunctionTool } from "openai/resources/responses/responses";
import type { Tool as AnthropicTool } from "@anthropic-ai/sdk/resources/messages";
import { jsonSchema, tool, type ToolSet } from "ai";
import { Cluster, Redis } from "ioredis";
import { RedisStore } from "tool-stub/redis";

const ts = new ToolStub({
  sessionId: "s",
  store: new MemoryStore(),
  config: { toolNames: { read: "r", search: "s", list: "l", searchAll: "a" }, maxResults: null },
});

const chatTools: ChatCompletionTool[] = ts.toolDefinitions({ format: "openai" });
const chatToolsByDefault: ChatCompletionTool[] = ts.toolDefinitions();
const responsesTools: FunctionTool[] = ts.toolDefinitions({ format: "openai-responses" });
const anthropicTools: AnthropicTool[] = ts.toolDefinitions({ format: "anthropic" });
const aiTools: ToolSet = aiSdkTools(ts, { jsonSchema });
const names: string[] = ts.toolDefinitions({ format: "json-schema" }).map((d) => d.name);

async function branch(): Promise<string> {
  const r: ToolCallResult = await ts.handleToolCall("r", { ref: "x" });
  if ("error" in r) return r.error.code;
  if ("tool_results" in r) return r.tool_results.map((t) => t.tool_result_id).join();
  if ("results" in r) return String(r.total_results);
  if ("matches" in r) return r.matches[0]?.snippet ?? "";
  return r.content;
}

const weather = externalizingTool(ts, "weather", tool({
  description: "weather",
  inputSchema: jsonSchema<{ city: string }>({ type: "object", properties: { city: { type: "string" } }, required: ["city"] }),
  execute: async ({ city }) => ({ city, temperature: 20 }),
}));
async function stubText(): Promise<number> {
  const text: string = await weather.execute({ city: "Oslo" }, { toolCallId: "c1", messages: [] } as unknown as Parameters<typeof weather.execute>[1]);
  return text.length;
}
const description = weather.description; // the wrapped tool's other fields are kept

// Refs as arguments: a marked tool, grants between sessions, resolution in any loop.
const writeFile = externalizingTool(ts, "write_file", tool({
  description: "write",
  inputSchema: jsonSchema<{ path: string; content: string }>({ type: "object", properties: { path: { type: "string" }, content: { type: "string" } } }),
  execute: async ({ content }) => content.length,
}), { acceptsRefs: true, jsonSchema, maxResolvedChars: 500_000 });
const child = new ToolStub({ sessionId: "child", readableSessions: [ts.readGrant(), "other"] });
async function resolved(): Promise<string> {
  const args = await child.resolveRefs({ path: "a", content: "viking://x/tool-results/tr_a" }, { maxResolvedChars: 10 });
  return args.content + child.refArguments({ type: "object" }).note;
}
// @ts-expect-error: a grant is a session id or a grant object
new ToolStub({ sessionId: "c", readableSessions: [3] });

// RedisStore over either ioredis client, as a ToolStub's store.
const redisStore = new RedisStore({ client: new Redis({ lazyConnect: true }), keyPrefix: "app", ttlSeconds: 3600 });
const clusterStore = new RedisStore({ client: new Cluster([{ host: "127.0.0.1", port: 7000 }], { lazyConnect: true }) });
const onRedis = new ToolStub({ sessionId: "s", store: clusterStore });
const byteSlices: "utf8" = redisStore.sliceUnit;
// @ts-expect-error: the client is required
new RedisStore({ keyPrefix: "app" });

// @ts-expect-error: the formats are a closed set
ts.toolDefinitions({ format: "gemini" });
// @ts-expect-error: an Anthropic definition is not a chat-completions tool
const wrong: ChatCompletionTool[] = ts.toolDefinitions({ format: "anthropic" });

void [chatTools, responsesTools, chatToolsByDefault, anthropicTools, aiTools, names, branch, stubText, description, wrong, onRedis, byteSlices, writeFile, resolved];
`;

/** A throwaway project whose node_modules links the built package and the SDKs. */
function project() {
  const dir = mkdtempSync(path.join(tmpdir(), "tool-stub-types-"));
  mkdirSync(path.join(dir, "node_modules/@anthropic-ai"), { recursive: true });
  symlinkSync(path.join(ROOT, "pkg"), path.join(dir, "node_modules/tool-stub"), "dir");
  for (const sdk of SDKS)
    symlinkSync(path.join(ROOT, "node_modules", sdk), path.join(dir, "node_modules", sdk), "dir");
  writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name: "consumer", private: true, type: "module" }),
  );
  writeFileSync(path.join(dir, "consumer.ts"), CONSUMER_TS);
  return dir;
}

function tsc(dir, compilerOptions) {
  writeFileSync(
    path.join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: "es2022",
        lib: ["es2022", "dom"],
        types: [],
        skipLibCheck: true,
        ...compilerOptions,
      },
      files: ["consumer.ts"],
    }),
  );
  return spawnSync(
    process.execPath,
    [path.join(ROOT, "node_modules/typescript/bin/tsc"), "-p", dir],
    { encoding: "utf8" },
  );
}

describe("TypeScript declarations against the SDKs' types", () => {
  for (const sdk of SDKS) {
    it(`has the dev dependency ${sdk}`, () => {
      assert.ok(
        existsSync(path.join(ROOT, "node_modules", sdk, "package.json")),
        `${sdk} is not installed: run npm ci`,
      );
    });
  }
  for (const [label, options] of [
    ["module nodenext", { module: "nodenext", moduleResolution: "nodenext" }],
    ["moduleResolution bundler", { module: "esnext", moduleResolution: "bundler" }],
  ]) {
    it(`compiles with tsc --strict under ${label}`, () => {
      const dir = project();
      try {
        const result = tsc(dir, options);
        assert.equal(result.stdout + result.stderr, "", "tsc reported errors");
        assert.equal(result.status, 0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
