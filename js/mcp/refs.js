import { caught } from "../stores/errors.js";
// Refs as arguments of the wrapped server's tools that the user marked (`mcp-proxy
// --accepts-refs NAME,...`): tools/list tells the model it may pass refs (a sentence in each
// marked tool's description, its input schema taking the ref form), and a call of a marked tool
// reaches the server with its refs resolved by the library (ToolStub.resolveRefs). A call whose
// refs cannot be resolved is answered here, as a tool error the model reads.

/**
 * A tools/list result with the marked tools' descriptions and input schemas widened for refs.
 * @template {{ [field: string]: unknown }} R
 * @param {R} result the wrapped server's tools/list result (rewritten: see rewrite.js)
 * @param {ReadonlySet<unknown>} marked the names of the tools that accept refs
 * @param {import("../index.js").ToolStub} toolStub
 * @returns {R}
 */
export function withRefArguments(result, marked, toolStub) {
  if (marked.size === 0 || !Array.isArray(result?.tools)) return result;
  const tools = /** @type {unknown[]} */ (result.tools).map((item) => {
    // A tool is an object in a well-formed list; anything else has no name and stays as it is.
    const tool = /** @type {{ [field: string]: unknown } | null | undefined} */ (item);
    if (!tool || !marked.has(tool?.name)) return tool;
    const inputSchema = /** @type {object | undefined} */ (tool.inputSchema);
    const { note, schema } = toolStub.refArguments(inputSchema ?? { type: "object" });
    return {
      ...tool,
      description: tool.description ? `${tool.description}\n\n${note}` : note,
      inputSchema: schema,
    };
  });
  return { ...result, tools };
}

/**
 * A tools/call request of a marked tool with its arguments' refs resolved: `{ message }` (the
 * same object when there was no ref), or `{ error }`, the tool result telling the model why not.
 * @param {import("./framing.js").JsonRpcCall} message a tools/call request
 * @param {import("../index.js").ToolStub} toolStub
 * @param {number | undefined} maxResolvedChars
 * @returns {Promise<{ message: import("./framing.js").JsonRpcCall, error?: undefined } | { error: import("./index.js").McpToolResult, message?: undefined }>}
 */
export async function resolvedToolCall(message, toolStub, maxResolvedChars) {
  const args = message.params?.arguments;
  try {
    const resolved = await toolStub.resolveRefs(
      args,
      maxResolvedChars === undefined ? undefined : { maxResolvedChars },
    );
    if (resolved === args) return { message };
    return { message: { ...message, params: { ...message.params, arguments: resolved } } };
  } catch (error) {
    const code = caught(error)?.code ?? "INTERNAL";
    return {
      error: {
        content: [
          {
            type: "text",
            text: `tool-stub could not resolve a ref argument (${String(code)}): ${String(caught(error)?.message ?? error)}`,
          },
        ],
        isError: true,
      },
    };
  }
}
