// The calls few sessions make (resolving refs, reads by lines/JSON pointer/rows, fitContext,
// restore, searchAll) are a wasm module of their own (wasm/tool_stub_extras_bg.wasm), loaded on
// their first use: a session that only externalizes, reads, searches and lists never loads it;
// each of those calls loads it by itself, in Node and where wasm compiles only asynchronously
// (browsers, simulated here in Node as runtimes.test.js does); a module that fails to load fails
// the call with NOT_READY and a later call loads it. Each case runs in a fresh process: whether the
// module is loaded is a property of the process.
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { inFreshNode } from "./pkg.js";

/** Runs `body` (an async function's body, in a module) in a fresh Node and returns what it printed as JSON. */
function inFreshProcess(body) {
  const script = `
    import * as api from "./pkg/js/node.js";
    import { runtime } from "./pkg/js/node-runtime.js";
    const extrasLoaded = () => runtime.extras.isLoaded();
    const useExtrasLoader = (load) => runtime.extras.useLoader(load);
    const output = JSON.stringify({ items: Array.from({ length: 400 }, (_, i) => ({ i, note: i === 321 ? "NEEDLE" : "ok" })) }, null, 1);
    const ts = new api.ToolStub({ sessionId: "s", config: { thresholdChars: 1000 } });
    const [part] = await ts.externalize([{ toolId: "t", toolName: "x", output }], { messageId: "m" });
    const out = {};
    ${body}
    console.log(JSON.stringify(out));`;
  return inFreshNode(script);
}

/** Installs a browser's kind of loader: it compiles the module asynchronously. */
const ASYNC_ONLY_LOADER = `
  const glue = await import("./pkg/wasm/tool_stub_extras.js");
  const { readFileSync } = await import("node:fs");
  let loads = 0;
  useExtrasLoader(async () => {
    loads++;
    await glue.default({ module_or_path: readFileSync("pkg/wasm/tool_stub_extras_bg.wasm") });
    return glue;
  });`;

describe("the extras module", () => {
  it("is never loaded by externalize, read, search, list and usage", () => {
    const out = inFreshProcess(`
      out.stored = part.truncated;
      out.read = (await ts.read(part.outputRef, { offset: 0, limit: 5 })).content;
      out.found = (await ts.search(part.outputRef, { query: "NEEDLE" })).matches.length;
      out.listed = (await ts.list()).toolResults.length;
      out.usage = (await ts.usage()).results;
      out.loaded = extrasLoaded();`);
    assert.deepEqual(out, {
      stored: true,
      read: '{\n "i',
      found: 1,
      listed: 1,
      usage: 1,
      loaded: false,
    });
  });

  it("loads by itself in Node on the first call that needs it", () => {
    const out = inFreshProcess(`
      out.before = extrasLoaded();
      const hits = await ts.searchAll({ query: "NEEDLE" });
      out.totalMatches = hits.totalMatches;
      out.after = extrasLoaded();
      out.pointer = (await ts.read(part.outputRef, { jsonPointer: "/items/321/note" })).content;
      const resolved = await ts.resolveRefs({ text: { ref: part.outputRef, pointer: "/items/321/note" } });
      out.resolved = resolved.text;`);
    assert.deepEqual(out, {
      before: false,
      totalMatches: 1,
      after: true,
      pointer: '"NEEDLE"',
      resolved: '"NEEDLE"',
    });
  });

  it("where wasm compiles only asynchronously, the calls load it themselves, once", () => {
    const out = inFreshProcess(`
      ${ASYNC_ONLY_LOADER}
      out.totalMatches = (await ts.searchAll({ query: "NEEDLE" })).totalMatches;
      out.lines = (await ts.read(part.outputRef, { line: 2, lines: 1 })).content;
      out.loads = loads;`);
    assert.deepEqual(out, { totalMatches: 1, lines: ' "items": [', loads: 1 });
  });

  it("that fails to load fails the call with NOT_READY; a later call loads it", () => {
    const out = inFreshProcess(`
      useExtrasLoader(async () => { throw new Error("wasm file missing"); });
      try { await ts.searchAll({ query: "NEEDLE" }); out.first = "answered"; }
      catch (e) { out.first = { name: e.name, code: e.code, message: e.message }; }
      out.listed = (await ts.list()).toolResults.length;
      ${ASYNC_ONLY_LOADER}
      out.totalMatches = (await ts.searchAll({ query: "NEEDLE" })).totalMatches;`);
    assert.equal(out.first.name, "ToolStubError");
    assert.equal(out.first.code, "NOT_READY");
    assert.match(
      out.first.message,
      /tool_stub_extras_bg\.wasm.*could not be loaded: wasm file missing/,
    );
    assert.deepEqual([out.listed, out.totalMatches], [1, 1]);
  });

  it("that traps is reset and the call fails with INTERNAL; the next call works", () => {
    const out = inFreshProcess(`
      const glue = await import("./pkg/wasm/tool_stub_extras.js");
      const { readFileSync } = await import("node:fs");
      glue.initSync({ module: readFileSync("pkg/wasm/tool_stub_extras_bg.wasm") });
      let resets = 0;
      let trap = true;
      // The real module, but its first call traps as a bug would.
      const module = new Proxy(glue, {
        get: (target, name) => {
          if (name === "__wbg_reset_state") return () => { resets++; target.__wbg_reset_state(); };
          if (name === "searchAllPlan" && trap) return () => { trap = false; throw new WebAssembly.RuntimeError("unreachable"); };
          return target[name];
        },
      });
      useExtrasLoader(async () => module);
      try { await ts.searchAll({ query: "NEEDLE" }); out.first = "answered"; }
      catch (e) { out.first = { name: e.name, code: e.code, message: e.message }; }
      out.resets = resets;
      out.totalMatches = (await ts.searchAll({ query: "NEEDLE" })).totalMatches;`);
    assert.equal(out.first.code, "INTERNAL");
    assert.match(out.first.message, /the extras module \(module reset\): unreachable/);
    assert.deepEqual([out.resets, out.totalMatches], [1, 1]);
  });
});
