// `tool-stub/mcp`: the Model Context Protocol side of tool-stub, for Node. The only entry that
// loads the MCP SDK (an optional peer dependency), and only when a server is created or --url is
// used; the rest of the package never imports it.

export { retrievalTools, callRetrievalTool } from "./retrieval.js";
export { externalizeToolResult, rewriteToolList } from "./rewrite.js";
export { createRetrievalServer, runRetrievalServer } from "./server.js";
export { McpProxy, runProxy } from "./proxy.js";
export { StdioConnection, HttpConnection } from "./wrapped.js";
