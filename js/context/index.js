// Where agents run the context governor (`ts.fitContext`): a hook for each SDK, each only a
// shape adapter. Nothing here imports the SDKs: each hook is a plain function or object the SDK
// takes.

/**
 * The AI SDK's `prepareStep` (generateText / streamText / ToolLoopAgent): fits the step's
 * `ModelMessage`s; the AI SDK carries the returned messages to later steps, so a clearing is made
 * once and the prompt prefix stays as it is until the next.
 */
export function fitContextPrepareStep(ts, options) {
  return async ({ messages }) => {
    const fitted = await ts.fitContext(messages, { ...options, format: "ai-sdk" });
    return fitted.changed ? { messages: fitted.messages } : {};
  };
}

/**
 * The OpenAI Agents SDK's `callModelInputFilter` (a run's config): fits the model input items
 * the runner is about to send. The runner does not keep what the filter returns: each turn fits
 * the full history again, and clearing in batches (`clearAtLeast`) keeps the result, and so the
 * prompt prefix, the same until the history has grown by a batch.
 */
export function fitContextInputFilter(ts, options) {
  return async ({ modelData }) => {
    const fitted = await ts.fitContext(modelData.input, { ...options, format: "openai-agents" });
    return { ...modelData, input: fitted.messages };
  };
}

/**
 * A LangChain `createAgent` middleware's definition, for `createMiddleware(...)`: its
 * `wrapModelCall` hands the model the fitted messages (the agent's state keeps the full history;
 * see `fitContextInputFilter` on batches).
 */
export function fitContextMiddleware(ts, options) {
  return {
    name: "ToolStubContextGovernor",
    wrapModelCall: async (request, handler) => {
      const fitted = await ts.fitContext(request.messages, { ...options, format: "langchain" });
      return handler(fitted.changed ? { ...request, messages: fitted.messages } : request);
    },
  };
}
