// The retrieval tools (read, search, list, search_all) as MCP tools, answered by a ToolStub.
// Shared by the retrieval server (`tool-stub mcp`) and the proxy (`tool-stub mcp-proxy`); it needs
// no MCP SDK: the schemas come from `toolDefinitions`, the answers from `handleToolCall`.

/**
 * The retrieval tools in the shape of MCP's tools/list (`{ name, description, inputSchema }`).
 * @param {import("../index.js").ToolStub} toolStub
 * @returns {import("./index.js").McpTool[]}
 */
export function retrievalTools(toolStub) {
  return toolStub.toolDefinitions({ format: "json-schema" }).map((definition) => ({
    name: definition.name,
    description: definition.description,
    inputSchema: definition.parameters,
  }));
}

/**
 * Runs one call of a retrieval tool and returns an MCP CallToolResult: the result as JSON text
 * (what every host shows the model) and as `structuredContent`; a failed call (bad arguments, an
 * unknown ref) is an `isError` result whose text says why, never a protocol error.
 * @param {import("../index.js").ToolStub} toolStub
 * @param {string} name
 * @param {unknown} args
 * @returns {Promise<import("./index.js").McpToolResult>}
 */
export async function callRetrievalTool(toolStub, name, args) {
  const result = await toolStub.handleToolCall(name, args ?? {});
  /** @type {import("./index.js").McpToolResult} */
  const answer = {
    content: [{ type: "text", text: JSON.stringify(result) }],
    // A tool's result is a JSON object (its interfaces have no index signature to say so).
    structuredContent: /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (result)),
  };
  if (/** @type {{ error?: unknown }} */ (result)?.error) answer.isError = true;
  return answer;
}
