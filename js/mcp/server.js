// `tool-stub mcp`: an MCP server over stdio whose tools are the retrieval tools over a store
// (read, search, list, search_all). Built on the MCP SDK's Server, imported here only.

import { readFileSync } from "node:fs";
import { retrievalTools, callRetrievalTool } from "./retrieval.js";
import { importSdk } from "./sdk.js";

export const VERSION = JSON.parse(
  readFileSync(new URL("../../package.json", import.meta.url), "utf8"),
).version;

/**
 * An SDK Server (not yet connected) whose tools are `toolStub`'s retrieval tools.
 * @param {import("../index.js").ToolStub} toolStub
 */
export async function createRetrievalServer(toolStub) {
  const [{ Server }, { ListToolsRequestSchema, CallToolRequestSchema }] =
    /** @type {[typeof import("@modelcontextprotocol/sdk/server/index.js"), typeof import("@modelcontextprotocol/sdk/types.js")]} */ (
      await importSdk("server/index.js", "types.js")
    );
  const server = new Server(
    { name: "tool-stub", version: VERSION },
    {
      capabilities: { tools: {} },
      instructions:
        "Tool outputs too large for the context were stored, and a stub with a ref was shown in their place. These tools read, search and list the stored outputs by ref.",
    },
  );
  const tools = retrievalTools(toolStub);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request) =>
    callRetrievalTool(toolStub, request.params.name, request.params.arguments),
  );
  return server;
}

/**
 * Serves the retrieval tools on this process's stdio until the host closes stdin.
 * @param {import("../index.js").ToolStub} toolStub
 */
export async function runRetrievalServer(toolStub) {
  const [{ StdioServerTransport }] =
    /** @type {[typeof import("@modelcontextprotocol/sdk/server/stdio.js")]} */ (
      await importSdk("server/stdio.js")
    );

  const server = await createRetrievalServer(toolStub);
  const closed = new Promise((resolve) => process.stdin.once("end", resolve));
  await server.connect(new StdioServerTransport());
  await closed;
  await server.close();
}
