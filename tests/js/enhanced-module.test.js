// Enhanced mode's analyzers are a wasm module of their own (wasm/tool_stub_enhanced_bg.wasm),
// loaded on demand: reference mode never loads it, Node loads it by itself on the first enhanced
// synopsis, a host that compiles wasm only asynchronously (browsers, simulated here in Node as
// runtimes.test.js does) needs `await loadEnhancedMode()` before the synchronous calls, and a
// module that fails to load fails the call with NOT_READY, never a reference synopsis in its place.
// Each case runs in a fresh process: whether the module is loaded is a property of the process.
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { inFreshNode } from "./pkg.js";

/** Runs `body` (an async function's body, in a module) in a fresh Node and returns what it printed as JSON. */
function inFreshProcess(body) {
  const script = `
    import * as api from "./pkg/js/node.js";
    import { runtime } from "./pkg/js/node-runtime.js";
    const enhancedModuleLoaded = () => runtime.enhanced.isLoaded();
    const useEnhancedLoader = (load, loadNow) => runtime.enhanced.useLoader(load, loadNow);
    const log = "2024-01-01T00:00:00Z ERROR payment failed for order 1\\n2024-01-01T00:00:01Z INFO ok\\n".repeat(400);
    const out = {};
    ${body}
    console.log(JSON.stringify(out));`;
  return inFreshNode(script);
}

/** Installs a browser's kind of loader: it compiles the module asynchronously, with no synchronous form. */
const ASYNC_ONLY_LOADER = `
  const glue = await import("./pkg/wasm/tool_stub_enhanced.js");
  const { readFileSync } = await import("node:fs");
  useEnhancedLoader(async () => {
    await glue.default({ module_or_path: readFileSync("pkg/wasm/tool_stub_enhanced_bg.wasm") });
    return glue;
  });`;

describe("enhanced mode's module", () => {
  it("is never loaded in reference mode", () => {
    const out = inFreshProcess(`
      out.synopsis = api.synopsis(log).kind;
      out.preview = api.makePreview(log, { synopsisMode: "reference" }).synopsis.kind;
      const ts = new api.ToolStub({ sessionId: "s", config: { synopsisMode: "reference" } });
      const [part] = await ts.externalize([{ toolId: "t", toolName: "x", output: log }], { messageId: "m" });
      out.stored = part.truncated;
      out.found = (await ts.search(part.outputRef, { query: "error", ignoreCase: true })).matches.length > 0;
      // A failed write's preview (failureMode "preview_only") is a synopsis too.
      const down = new api.MemoryStore();
      down.save = async () => { throw new Error("down"); };
      const failing = new api.ToolStub({ sessionId: "f", store: down, config: { failureMode: "preview_only" } });
      const [preview] = await failing.externalize([{ toolId: "t", toolName: "x", output: log }], { messageId: "m" });
      out.previewOnly = preview.externalizationError !== "" && preview.truncated;
      out.loaded = enhancedModuleLoaded();`);
    assert.deepEqual(out, {
      synopsis: "text",
      preview: "text",
      stored: true,
      found: true,
      previewOnly: true,
      loaded: false,
    });
  });

  it("loads by itself in Node on the first enhanced synopsis", () => {
    const out = inFreshProcess(`
      out.before = enhancedModuleLoaded();
      out.kind = api.synopsis(log, { synopsisMode: "enhanced" }).kind;
      out.after = enhancedModuleLoaded();
      out.preview = api.makePreview(log, { synopsisMode: "enhanced" }).synopsis.kind;`);
    assert.deepEqual(out, { before: false, kind: "log", after: true, preview: "log" });
  });

  it("is loaded by a ToolStub configured for enhanced synopses", () => {
    const out = inFreshProcess(`
      const ts = new api.ToolStub({ sessionId: "s", config: { synopsisMode: "enhanced" } });
      const [part] = await ts.externalize([{ toolId: "t", toolName: "x", output: log }], { messageId: "m" });
      out.kind = part.output.split("\\n")[2];
      out.loaded = enhancedModuleLoaded();`);
    assert.deepEqual(out, { kind: "kind: log", loaded: true });
  });

  it("where wasm compiles only asynchronously, the synchronous calls need loadEnhancedMode() first", () => {
    const out = inFreshProcess(`
      ${ASYNC_ONLY_LOADER}
      const error = (fn) => { try { fn(); return "none"; } catch (e) { return { name: e.name, code: e.code, message: e.message }; } };
      out.synopsis = error(() => api.synopsis(log, { synopsisMode: "enhanced" }));
      out.preview = error(() => api.makePreview(log, { synopsisMode: "enhanced" }));
      out.reference = api.synopsis(log).kind;
      out.loadedBefore = enhancedModuleLoaded();
      await api.loadEnhancedMode();
      out.kind = api.synopsis(log, { synopsisMode: "enhanced" }).kind;`);
    for (const call of ["synopsis", "preview"]) {
      assert.equal(out[call].name, "ToolStubError", call);
      assert.equal(out[call].code, "NOT_READY", call);
      assert.match(out[call].message, /await loadEnhancedMode\(\)/, call);
    }
    assert.deepEqual([out.reference, out.loadedBefore, out.kind], ["text", false, "log"]);
  });

  it("where wasm compiles only asynchronously, ToolStub's methods load it themselves", () => {
    const out = inFreshProcess(`
      ${ASYNC_ONLY_LOADER}
      const ts = new api.ToolStub({ sessionId: "s", config: { synopsisMode: "enhanced" } });
      const [part] = await ts.externalize([{ toolId: "t", toolName: "x", output: log }], { messageId: "m" });
      out.kind = part.output.split("\\n")[2];`);
    assert.deepEqual(out, { kind: "kind: log" });
  });

  it("that traps is reset and the call fails with INTERNAL; the main module keeps working", () => {
    const out = inFreshProcess(`
      const glue = await import("./pkg/wasm/tool_stub_enhanced.js");
      const { readFileSync } = await import("node:fs");
      glue.initSync({ module: readFileSync("pkg/wasm/tool_stub_enhanced_bg.wasm") });
      let resets = 0;
      let trap = true;
      // The real module, but its first call traps as a bug in an analyzer would.
      const module = {
        enhancedSynopsis: (...args) => {
          if (trap) { trap = false; throw new WebAssembly.RuntimeError("unreachable"); }
          return glue.enhancedSynopsis(...args);
        },
        memoryBytes: () => glue.memoryBytes(),
        __wbg_reset_state: () => { resets++; glue.__wbg_reset_state(); },
      };
      useEnhancedLoader(async () => module, () => module);
      const ts = new api.ToolStub({ sessionId: "s", config: { synopsisMode: "enhanced" } });
      try { await ts.externalize([{ toolId: "t", toolName: "x", output: log }], { messageId: "m" }); out.first = "stored"; }
      catch (e) { out.first = { name: e.name, code: e.code, message: e.message }; }
      out.resets = resets;
      out.listed = (await ts.list()).toolResults.length;
      const [part] = await ts.externalize([{ toolId: "t", toolName: "x", output: log }], { messageId: "m" });
      out.kind = part.output.split("\\n")[2];
      out.reference = api.synopsis(log).kind;`);
    assert.equal(out.first.name, "ToolStubError");
    assert.equal(out.first.code, "INTERNAL");
    assert.match(out.first.message, /enhanced mode's module \(module reset\): unreachable/);
    assert.deepEqual(
      [out.resets, out.listed, out.kind, out.reference],
      [1, 0, "kind: log", "text"],
    );
  });

  it("that fails to load fails the call with NOT_READY, never a reference synopsis", () => {
    const out = inFreshProcess(`
      const failing = () => { throw new Error("wasm file missing"); };
      useEnhancedLoader(async () => failing(), failing);
      const error = (e) => ({ name: e.name, code: e.code, message: e.message });
      try { out.synopsis = api.synopsis(log, { synopsisMode: "enhanced" }); } catch (e) { out.synopsis = error(e); }
      const store = new api.MemoryStore();
      const ts = new api.ToolStub({ sessionId: "s", store, config: { synopsisMode: "enhanced" } });
      try { out.externalize = await ts.externalize([{ toolId: "t", toolName: "x", output: log }], { messageId: "m" }); } catch (e) { out.externalize = error(e); }
      out.listed = (await ts.list()).toolResults.length;
      // Once a load works, the same ToolStub makes enhanced stubs.
      const glue = await import("./pkg/wasm/tool_stub_enhanced.js");
      const { readFileSync } = await import("node:fs");
      const loadNow = () => (glue.initSync({ module: readFileSync("pkg/wasm/tool_stub_enhanced_bg.wasm") }), glue);
      useEnhancedLoader(async () => loadNow(), loadNow);
      const [part] = await ts.externalize([{ toolId: "t", toolName: "x", output: log }], { messageId: "m" });
      out.kind = part.output.split("\\n")[2];`);
    for (const call of ["synopsis", "externalize"]) {
      assert.equal(out[call].name, "ToolStubError", call);
      assert.equal(out[call].code, "NOT_READY", call);
      assert.match(
        out[call].message,
        /tool_stub_enhanced_bg\.wasm.*could not be loaded: wasm file missing/,
        call,
      );
    }
    assert.equal(out.listed, 0, "nothing stored by the failed turn");
    assert.equal(out.kind, "kind: log");
  });
});
