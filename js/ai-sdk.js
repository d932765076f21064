// `tool-stub/ai-sdk`: wiring for the Vercel AI SDK (`ai` package), without depending on it: the
// caller passes the SDK's own `jsonSchema` helper.

/**
 * The retrieval tools as AI SDK tools, for `generateText` / `streamText({ tools })`.
 * @param {import("./index.js").ToolStub} toolStub
 * @param {{ jsonSchema: (schema: object) => unknown }} sdk  `import { jsonSchema } from "ai"`
 */
export function aiSdkTools(toolStub, { jsonSchema }) {
  if (typeof jsonSchema !== "function") throw new TypeError("aiSdkTools needs the AI SDK's jsonSchema helper: aiSdkTools(ts, { jsonSchema })");
  const tools = {};
  for (const definition of toolStub.toolDefinitions({ format: "json-schema" })) {
    tools[definition.name] = {
      description: definition.description,
      inputSchema: jsonSchema(definition.parameters),
      execute: (input) => toolStub.handleToolCall(definition.name, input),
    };
  }
  return tools;
}

/**
 * Wraps an AI SDK tool so that its output goes through `externalize` before the model sees it:
 * a large output comes back as a stub with a ref; a small one unchanged (as text).
 * @param {import("./index.js").ToolStub} toolStub
 * @param {string} toolName the name the tool is registered under
 * @param {{ execute: Function }} aiTool
 */
export function externalizingTool(toolStub, toolName, aiTool) {
  if (typeof aiTool?.execute !== "function") throw new TypeError(`tool ${toolName} has no execute function to wrap`);
  return {
    ...aiTool,
    async execute(input, options) {
      const result = await aiTool.execute(input, options);
      const isText = typeof result === "string";
      const callId = options?.toolCallId ?? `${toolName}_${Date.now()}`;
      const [part] = await toolStub.externalize(
        [
          {
            toolId: callId,
            toolName,
            toolInput: input,
            output: isText ? result : JSON.stringify(result, null, 2),
            mimeType: isText ? "text/plain" : "application/json",
          },
        ],
        { messageId: callId },
      );
      return part.output;
    },
  };
}
