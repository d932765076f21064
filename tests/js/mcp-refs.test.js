// `tool-stub mcp-proxy --accepts-refs write_file` over a published server
// (@modelcontextprotocol/server-filesystem), with the MCP SDK client on stdio: the marked tool's
// definition says it takes refs, and a ref passed to it reaches the server as the stored content.
import { after, before, describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ROOT } from "./pkg.js";

const CLI = path.join(ROOT, "pkg/js/cli.js");
const FILESYSTEM = path.join(
  ROOT,
  "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js",
);
const work = mkdtempSync(path.join(tmpdir(), "tool-stub-mcp-refs-"));
const root = path.join(work, "files");
const refOf = (text) => text.match(/^ref: (\S+)$/m)?.[1];

const page = Array.from(
  { length: 4_000 },
  (_, i) => `<p id="p${i}">paragraph ${i}: état ✓ 🎉</p>`,
).join("\n");

describe("mcp-proxy resolves refs for the tools it is told accept them", () => {
  let client;
  before(async () => {
    mkdirSync(root, { recursive: true });
    writeFileSync(path.join(root, "page.html"), page);
    client = new Client({ name: "tool-stub-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [
          CLI,
          "mcp-proxy",
          "--store",
          path.join(work, "store"),
          "--accepts-refs",
          "write_file",
          "--",
          process.execPath,
          FILESYSTEM,
          root,
        ],
        stderr: "pipe",
      }),
    );
  });
  after(async () => {
    await client?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it("says so in the marked tool's definition only", async () => {
    const { tools } = await client.listTools();
    const write = tools.find((t) => t.name === "write_file");
    const read = tools.find((t) => t.name === "read_text_file");
    assert.match(write.description, /may be a ref of a stored tool result/);
    assert.deepEqual(write.inputSchema.properties.content.anyOf[1].required, ["ref"]);
    assert.doesNotMatch(read.description, /ref of a stored tool result/);
  });

  it("writes the stored content of a ref, whole or in part, byte for byte", async () => {
    const result = await client.callTool({
      name: "read_text_file",
      arguments: { path: path.join(root, "page.html") },
    });
    const ref = refOf(result.content[0].text);
    assert.ok(ref, "the large read came back as a stub with a ref");
    const copy = path.join(root, "copy.html");
    const wrote = await client.callTool({
      name: "write_file",
      arguments: { path: copy, content: ref },
    });
    assert.equal(wrote.isError, undefined, JSON.stringify(wrote));
    assert.equal(readFileSync(copy, "utf8"), page, "the server wrote the stored page");
    const part = path.join(root, "part.html");
    await client.callTool({
      name: "write_file",
      arguments: { path: part, content: { ref, lines: { start: 2, count: 2 } } },
    });
    assert.equal(readFileSync(part, "utf8"), `${page.split("\n").slice(1, 3).join("\n")}\n`);
  });

  it("answers a call with a ref it may not resolve as a tool error, and the server is not called", async () => {
    const target = path.join(root, "never.html");
    const result = await client.callTool({
      name: "write_file",
      arguments: {
        path: target,
        content: "viking://user/default/sessions/elsewhere/tool-results/tr_x_0011",
      },
    });
    assert.equal(result.isError, true);
    assert.match(result.content[0].text, /FORBIDDEN/);
    assert.equal(existsSync(target), false);
  });
});
