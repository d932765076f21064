// The built package as a user gets it: `npm pack` holds no test or build leftovers, and
// `npm install ./pkg` into an empty project imports as ESM from every entry point.
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { execFileSync } from "node:child_process";
import { ROOT } from "./pkg.js";

const npm = (args, cwd) => execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

describe("the npm package", () => {
  it("packs only the runtime files", () => {
    const [pack] = JSON.parse(npm(["pack", "--dry-run", "--json"], path.join(ROOT, "pkg")));
    const files = pack.files.map((f) => f.path).sort();
    for (const required of ["package.json", "README.md", "LICENSE", "wasm/tool_stub_bg.wasm", "wasm/tool_stub.js", "js/index-node.js", "js/index-browser.js", "js/cli.js", "js/stores/node-fs.js", "js/index.d.ts"]) {
      assert.ok(files.includes(required), `missing ${required}`);
    }
    for (const file of files) {
      assert.doesNotMatch(file, /test|\.rs$|Cargo|target\/|node_modules|\.tmp$|\.map$/, `leftover ${file}`);
    }
  });

  it("installs into an empty project and imports from every entry point", () => {
    const project = mkdtempSync(path.join(tmpdir(), "tool-stub-install-"));
    writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
    npm(["install", "--no-audit", "--no-fund", "--offline", path.join(ROOT, "pkg")], project);
    const check = `
      import { synopsis, ToolStub, MemoryStore, ToolStubError } from "tool-stub";
      import { NodeFsStore } from "tool-stub/node";
      const kinds = [synopsis('{"a":1}').kind, synopsis("a,b\\n1,2\\n3,4").kind];
      const ts = new ToolStub({ sessionId: "p", store: new MemoryStore() });
      const [out] = await ts.externalize([{ toolId: "t", toolName: "x", output: "y ".repeat(20000) }], { messageId: "m" });
      console.log(JSON.stringify({ kinds, truncated: out.truncated, fs: typeof NodeFsStore, err: typeof ToolStubError }));
    `;
    const result = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", check], { cwd: project, encoding: "utf8" }));
    assert.deepEqual(result, { kinds: ["json", "csv"], truncated: true, fs: "function", err: "function" });
    const bin = execFileSync(path.join(project, "node_modules/.bin/tool-stub"), ["stub", "-"], { cwd: project, input: "x: 1\ny:\n  z: 2\n", encoding: "utf8" });
    assert.match(bin, /kind: yaml/);
  });
});
