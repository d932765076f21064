// Cloudflare Workers through workerd (npm): a worker bundled by esbuild imports the browser entry,
// hands it the wasm as the WebAssembly.Module workerd gives a `wasm` module (init({ module })),
// and externalizes, reads and searches with MemoryStore inside a request; enhanced mode's module
// and the extras module (searchAll's) likewise (init({ enhancedModule, extrasModule })).
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, symlinkSync, writeFileSync, copyFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { spawn, spawnSync } from "node:child_process";
import { ROOT } from "./pkg.js";

const WORKER = `
import { init, ToolStub, MemoryStore } from "tool-stub/browser";
import core from "./core.wasm";
import enhanced from "./enhanced.wasm";
import extras from "./extras.wasm";
export default {
  async fetch() {
    try {
      await init({ module: core, enhancedModule: enhanced, extrasModule: extras });
      const ts = new ToolStub({ sessionId: "w", store: new MemoryStore() });
      const output = "x".repeat(30000) + "NEEDLE";
      const [part] = await ts.externalize([{ toolId: "a", toolName: "t", output }], { messageId: "m" });
      const read = await ts.read(part.outputRef, { offset: 30000, limit: 6 });
      const hits = await ts.search(part.outputRef, { query: "NEEDLE" });
      // searchAll plans and ranks in the extras module, handed over as a wasm module too.
      const everywhere = await ts.searchAll({ query: "NEEDLE" });
      // Enhanced synopses: enhanced mode's module, handed over as a wasm module too.
      const enhancedStub = new ToolStub({ sessionId: "e", store: new MemoryStore(), config: { synopsisMode: "enhanced" } });
      const log = Array.from({ length: 800 }, (_, i) => "2026-12-01T10:00:00Z " + (i % 40 ? "INFO" : "ERROR") + " request " + i).join("\\n");
      const [logPart] = await enhancedStub.externalize([{ toolId: "b", toolName: "t", output: log }], { messageId: "m" });
      return Response.json({ truncated: part.truncated, content: read.content, at: hits.matches[0].offset, everywhere: everywhere.totalMatches, kind: logPart.output.split("\\n")[2] });
    } catch (e) {
      return Response.json({ error: String(e?.code) + ": " + e?.message });
    }
  },
};
`;

const CONFIG = `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .w) ],
  sockets = [ (name = "http", address = "127.0.0.1:0", http = (), service = "main") ],
);
const w :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "out/worker.js"), (name = "core.wasm", wasm = embed "out/core.wasm"), (name = "enhanced.wasm", wasm = embed "out/enhanced.wasm"), (name = "extras.wasm", wasm = embed "out/extras.wasm") ],
  compatibilityDate = "2025-01-01",
);
`;

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

describe("Cloudflare Workers (workerd)", () => {
  it("a bundled worker loads the wasm with init({ module }) and externalizes, reads and searches", async () => {
    const project = mkdtempSync(path.join(tmpdir(), "tool-stub-workerd-"));
    let workerd;
    try {
      mkdirSync(path.join(project, "node_modules"));
      mkdirSync(path.join(project, "out"));
      symlinkSync(path.join(ROOT, "pkg"), path.join(project, "node_modules/tool-stub"), "dir");
      writeFileSync(path.join(project, "worker.js"), WORKER);
      writeFileSync(path.join(project, "config.capnp"), CONFIG);
      copyFileSync(
        path.join(ROOT, "pkg/wasm/tool_stub_bg.wasm"),
        path.join(project, "out/core.wasm"),
      );
      copyFileSync(
        path.join(ROOT, "pkg/wasm/tool_stub_enhanced_bg.wasm"),
        path.join(project, "out/enhanced.wasm"),
      );
      copyFileSync(
        path.join(ROOT, "pkg/wasm/tool_stub_extras_bg.wasm"),
        path.join(project, "out/extras.wasm"),
      );
      const build = spawnSync(
        path.join(ROOT, "node_modules/.bin/esbuild"),
        [
          "worker.js",
          "--bundle",
          "--format=esm",
          "--platform=neutral",
          "--main-fields=module,main",
          "--conditions=workerd,worker,browser",
          "--external:./core.wasm",
          "--external:./enhanced.wasm",
          "--external:./extras.wasm",
          "--outfile=out/worker.js",
          "--log-level=error",
        ],
        { cwd: project, encoding: "utf8" },
      );
      assert.equal(build.status, 0, build.stderr);
      const port = await freePort();
      let log = "";
      workerd = spawn(
        path.join(ROOT, "node_modules/.bin/workerd"),
        ["serve", "config.capnp", "--socket-addr", `http=127.0.0.1:${port}`],
        { cwd: project },
      );
      workerd.stdout.on("data", (d) => (log += d));
      workerd.stderr.on("data", (d) => (log += d));
      let body;
      for (let attempt = 0; attempt < 100 && body === undefined; attempt++) {
        try {
          body = await (await fetch(`http://127.0.0.1:${port}/`)).json();
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
      assert.deepEqual(
        body,
        { truncated: true, content: "NEEDLE", at: 30000, everywhere: 1, kind: "kind: log" },
        log,
      );
    } finally {
      workerd?.kill();
      rmSync(project, { recursive: true, force: true });
    }
  });
});
