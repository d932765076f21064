// The built package as a user gets it: `npm pack` holds no test or build leftovers, and
// `npm install ./pkg` into an empty project imports as ESM from every entry point.
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { execFileSync } from "node:child_process";
import { ROOT } from "./pkg.js";
import { tempDir } from "./temp.js";

const npm = (args, cwd) =>
  execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

const CONSUMER_TS = `
import { synopsis, makePreview, ToolStub, MemoryStore, ToolStubError, type ToolPart, type Synopsis, type SynopsisKind } from "tool-stub";
import { NodeFsStore } from "tool-stub/node";
import { IndexedDbStore, loadEnhancedMode } from "tool-stub/browser";
import { aiSdkTools } from "tool-stub/ai-sdk";
import { retrievalTools, type McpTool } from "tool-stub/mcp";

const s: Synopsis = synopsis("{}", { mimeType: "application/json" });
// Kinds stay open (enhanced mode adds its own) yet a literal still narrows and autocompletes.
const kind: SynopsisKind = s.kind;
const isTable: boolean = kind === "csv" || kind === "tsv";
const { stub } = makePreview("x", { previewChars: 10, ref: "r" });
const ts = new ToolStub({ sessionId: "s", store: new NodeFsStore("dir"), config: { thresholdChars: 10, failureMode: "reject" } });
async function use(): Promise<void> {
  await loadEnhancedMode();
  const parts: ToolPart[] = await ts.externalize([{ toolId: "a", output: stub }], { messageId: "m" });
  const read = await ts.read(parts[0].outputRef ?? "", { offset: 0, limit: -1 });
  const hits = await ts.search("ref", { query: "q" });
  const records = await ts.list({ toolName: "t" });
  const n: number = read.totalChars + hits.matches.length + records.toolResults[0].original_chars;
  const defs = ts.toolDefinitions({ format: "anthropic" });
  const result = await ts.handleToolCall("x", { ref: "r" });
  const usage = await ts.usage();
  const mcpTools: McpTool[] = retrievalTools(ts);
  void [n, defs, result, usage, kind, isTable, new MemoryStore(), IndexedDbStore, aiSdkTools, mcpTools];
}
try { void use(); } catch (e) { if (e instanceof ToolStubError) console.log(e.code); }
`;

describe("the npm package", () => {
  it("packs only the runtime files", () => {
    const [pack] = JSON.parse(npm(["pack", "--dry-run", "--json"], path.join(ROOT, "pkg")));
    const files = pack.files.map((f) => f.path).sort();
    for (const required of [
      "package.json",
      "README.md",
      "LICENSE",
      "wasm/tool_stub_bg.wasm",
      "wasm/tool_stub.js",
      "wasm/tool_stub_grep_bg.wasm",
      "wasm/tool_stub_grep.js",
      "wasm/tool_stub_enhanced_bg.wasm",
      "wasm/tool_stub_enhanced.js",
      "wasm/tool_stub_extras_bg.wasm",
      "wasm/tool_stub_extras.js",
      "js/index-node.js",
      "js/index-browser.js",
      "js/cli.js",
      "js/stores/node-fs.js",
      "js/index.d.ts",
    ]) {
      assert.ok(files.includes(required), `missing ${required}`);
    }
    for (const file of files) {
      assert.doesNotMatch(
        file,
        /test|\.rs$|Cargo|target\/|node_modules|\.tmp$|\.map$/,
        `leftover ${file}`,
      );
    }
  });

  it("installs into an empty project and imports from every entry point", () => {
    const project = tempDir("tool-stub-install-");
    writeFileSync(
      path.join(project, "package.json"),
      JSON.stringify({ name: "consumer", private: true, type: "module" }),
    );
    npm(["install", "--no-audit", "--no-fund", "--offline", path.join(ROOT, "pkg")], project);
    const check = `
      import { synopsis, ToolStub, MemoryStore, ToolStubError } from "tool-stub";
      import { NodeFsStore } from "tool-stub/node";
      import { RedisStore } from "tool-stub/redis";
      // ioredis is an optional peer dependency: not installed here, and no entry point needs it.
      const ioredis = await import("ioredis").then(() => "installed", (e) => e.code);
      const kinds = [synopsis('{"a":1}').kind, synopsis("a,b\\n1,2\\n3,4").kind];
      // Enhanced mode's module is in the package (loaded on demand).
      kinds.push(synopsis("2026-12-01T10:00:00Z ERROR failed\\n".repeat(50), { synopsisMode: "enhanced" }).kind);
      const ts = new ToolStub({ sessionId: "p", store: new MemoryStore() });
      const [out] = await ts.externalize([{ toolId: "t", toolName: "x", output: "y ".repeat(20000) }], { messageId: "m" });
      console.log(JSON.stringify({ kinds, truncated: out.truncated, fs: typeof NodeFsStore, err: typeof ToolStubError, redis: typeof RedisStore, ioredis }));
    `;
    const result = JSON.parse(
      execFileSync(process.execPath, ["--input-type=module", "-e", check], {
        cwd: project,
        encoding: "utf8",
      }),
    );
    assert.deepEqual(result, {
      kinds: ["json", "csv", "log"],
      truncated: true,
      fs: "function",
      err: "function",
      redis: "function",
      ioredis: "ERR_MODULE_NOT_FOUND",
    });
    // The declarations type-check a consumer under strict settings.
    writeFileSync(path.join(project, "consumer.ts"), CONSUMER_TS);
    writeFileSync(
      path.join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: "nodenext",
          moduleResolution: "nodenext",
          target: "es2022",
          lib: ["es2022", "dom"],
          types: [],
        },
        files: ["consumer.ts"],
      }),
    );
    execFileSync(
      process.execPath,
      [path.join(ROOT, "node_modules/typescript/bin/tsc"), "-p", project],
      { encoding: "utf8" },
    );
    const bin = execFileSync(path.join(project, "node_modules/.bin/tool-stub"), ["stub", "-"], {
      cwd: project,
      input: "x: 1\ny:\n  z: 2\n",
      encoding: "utf8",
    });
    assert.match(bin, /kind: yaml/);
  });
});
