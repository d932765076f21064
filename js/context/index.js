// Where agents run the context governor (`ts.fitContext`): a hook for each SDK, each only a
// shape adapter. Nothing here imports the SDKs: each hook is a plain function or object the SDK
// takes.

/** @typedef {import("../index.js").ToolStub} ToolStub */
/** @typedef {Omit<import("../index.js").FitContextOptions, "format">} HookOptions */

/**
 * Whether `input` starts with every message of `seen`, unchanged.
 * @param {readonly unknown[]} seen
 * @param {readonly unknown[]} input
 */
function extendsSeen(seen, input) {
  if (input.length < seen.length) return false;
  for (let i = 0; i < seen.length; i++)
    if (seen[i] !== input[i] && JSON.stringify(seen[i]) !== JSON.stringify(input[i])) return false;
  return true;
}

/**
 * Fits the full history an SDK hands over at every call while keeping what earlier calls fitted:
 * when the history extends the one seen last, the last fitted messages stand for that part and
 * only the new messages are added before fitting. The prompt then changes only when a clearing
 * is made, as when the host keeps the fitted messages itself (the AI SDK does); fitting the full
 * history afresh each time would move the cleared set whenever the history grows.
 * @param {ToolStub} ts
 * @param {import("../index.js").FitContextOptions} options
 */
function carriedFit(ts, options) {
  /** @type {unknown[]} */
  let seen = [];
  /** @type {unknown[]} */
  let fitted = [];
  /** @param {unknown[]} input */
  return async (input) => {
    const carried = extendsSeen(seen, input) ? fitted.concat(input.slice(seen.length)) : input;
    const result = await ts.fitContext(carried, options);
    seen = input;
    fitted = result.messages;
    return result;
  };
}

/**
 * The AI SDK's `prepareStep` (generateText / streamText / ToolLoopAgent): fits the step's
 * `ModelMessage`s; the AI SDK carries the returned messages to later steps, so a clearing is made
 * once and the prompt prefix stays as it is until the next.
 * @param {ToolStub} ts
 * @param {HookOptions} options
 */
export function fitContextPrepareStep(ts, options) {
  /** @param {{ messages: unknown[] }} step */
  return async ({ messages }) => {
    const fitted = await ts.fitContext(messages, { ...options, format: "ai-sdk" });
    return fitted.changed ? { messages: fitted.messages } : {};
  };
}

/**
 * The OpenAI Agents SDK's `callModelInputFilter` (a run's config): fits the model input items
 * the runner is about to send. The runner keeps none of what the filter returns, so the filter
 * keeps it (one filter per conversation).
 * @param {ToolStub} ts
 * @param {HookOptions} options
 */
export function fitContextInputFilter(ts, options) {
  const fit = carriedFit(ts, { ...options, format: "openai-agents" });
  /** @param {{ modelData: { input: unknown[], instructions?: string } }} args */
  return async ({ modelData }) => {
    const fitted = await fit(modelData.input);
    return { ...modelData, input: fitted.messages };
  };
}

/**
 * A LangChain `createAgent` middleware's definition, for `createMiddleware(...)`: its
 * `wrapModelCall` hands the model the fitted messages. The agent's state keeps the full history;
 * the middleware keeps what it fitted (one middleware per conversation).
 * @param {ToolStub} ts
 * @param {HookOptions} options
 */
export function fitContextMiddleware(ts, options) {
  const fit = carriedFit(ts, { ...options, format: "langchain" });
  return {
    name: "ToolStubContextGovernor",
    /**
     * @param {{ messages: unknown[] }} request
     * @param {(request: unknown) => unknown} handler
     */
    wrapModelCall: async (request, handler) => {
      const fitted = await fit(request.messages);
      return handler({ ...request, messages: fitted.messages });
    },
  };
}
