// The retrieval tools served over MCP from your own process: here to an in-process client through
// the SDK's in-memory transport; any transport (stdio, Streamable HTTP) connects the same way.
// Run: `node examples/mcp-retrieval-server.mjs` (needs @modelcontextprotocol/sdk).
// @ts-check
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { MemoryStore, ToolStub } from "tool-stub";
import { createRetrievalServer } from "tool-stub/mcp";
import { fetchOrders } from "./orders.mjs";

const ts = new ToolStub({ store: new MemoryStore(), sessionId: "chat-42" });
const [part] = await ts.externalize(
  [{ toolId: "call_1", toolName: "fetch_orders", output: await fetchOrders() }],
  { messageId: "m1" },
);

const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
const server = await createRetrievalServer(ts);
await server.connect(serverTransport);
const client = new Client({ name: "example", version: "1.0.0" });
await client.connect(clientTransport);

const { tools } = await client.listTools();
console.log(`tools: ${tools.map((tool) => tool.name).join(", ")}`);
const result = await client.callTool({
  name: "openviking_tool_result_search",
  arguments: { ref: part.outputRef, query: "NEEDLE" },
});
console.log(JSON.stringify(result.structuredContent));
await client.close();
await server.close();
