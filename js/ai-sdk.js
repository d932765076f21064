// `tool-stub/ai-sdk`: wiring for the Vercel AI SDK (`ai` package), without depending on it: the
// caller passes the SDK's own `jsonSchema` helper.

import { acceptingRefs } from "./ai-sdk-refs.js";

/** @typedef {import("./index.js").ToolStub} ToolStub */
/**
 * A wrapped tool call's output as a part of the step's turn.
 * @typedef {{ toolId: string, toolName: string, toolInput: unknown, output: string, mimeType: string }} StepPart
 */
/**
 * The calls that started together, and the outputs the model gets once their turn is externalized.
 * @typedef {{ calls: Array<{ part: Promise<StepPart> }>, closed: boolean, done: Promise<Array<string | null>> }} Step
 */

/**
 * The retrieval tools as AI SDK tools, for `generateText` / `streamText({ tools })`.
 * @param {import("./index.js").ToolStub} toolStub
 * @param {{ jsonSchema: (schema: object) => unknown }} sdk  `import { jsonSchema } from "ai"`
 */
export function aiSdkTools(toolStub, { jsonSchema }) {
  if (typeof jsonSchema !== "function")
    throw new TypeError(
      "aiSdkTools needs the AI SDK's jsonSchema helper: aiSdkTools(ts, { jsonSchema })",
    );
  /** @type {Record<string, { description: string, inputSchema: unknown, execute: (input: unknown) => Promise<import("./index.js").ToolCallResult> }>} */
  const tools = {};
  for (const definition of toolStub.toolDefinitions({ format: "json-schema" })) {
    tools[definition.name] = {
      description: definition.description,
      inputSchema: jsonSchema(definition.parameters),
      execute: (/** @type {unknown} */ input) => toolStub.handleToolCall(definition.name, input),
    };
  }
  return tools;
}

/**
 * The open step of each ToolStub: the calls that started together. The AI SDK starts the tool
 * calls of one step together (in one tick), so calls that start before a macrotask has passed are
 * one turn: their outputs go through one `externalize`, and the turn budget applies to them all.
 * @type {WeakMap<object, Step>}
 */
const openSteps = new WeakMap();

/**
 * The step a call starting now belongs to; a new one (closing after this tick) if none is open.
 * @param {ToolStub} toolStub
 * @returns {Step}
 */
function currentStep(toolStub) {
  const open = openSteps.get(toolStub);
  if (open && !open.closed) return open;
  /** @type {(outputs: Promise<Array<string | null>>) => void} */
  let close = () => {};
  /** @type {Promise<Array<string | null>>} */
  const done = new Promise((resolve) => (close = resolve));
  /** @type {Step["calls"]} */
  const calls = [];
  /** @type {Step} */
  const step = { calls, closed: false, done };
  openSteps.set(toolStub, step);
  // Closed by a macrotask: every call started in this tick (and its microtasks) has joined.
  setTimeout(() => {
    step.closed = true;
    if (openSteps.get(toolStub) === step) openSteps.delete(toolStub);
    close(externalizeStep(toolStub, calls));
  }, 0);
  return step;
}

/**
 * One `externalize` for the parts of a step's calls that succeeded; the outputs in call order.
 * @param {ToolStub} toolStub
 * @param {Step["calls"]} calls
 * @returns {Promise<Array<string | null>>}
 */
async function externalizeStep(toolStub, calls) {
  const parts = await Promise.all(calls.map((call) => call.part.catch(() => null)));
  const present = parts.filter((part) => part !== null);
  // Every call failed: no output.
  if (present.length === 0) return /** @type {null[]} */ (parts);
  const out = await toolStub.externalize(present, { messageId: present[0].toolId });
  let next = 0;
  return parts.map((part) => (part === null ? null : out[next++].output));
}

/**
 * Wraps an AI SDK tool so that its output goes through `externalize` before the model sees it:
 * a large output comes back as a stub with a ref; a small one unchanged (as text). The calls of
 * one step (those started in the same tick, whatever wrapped tool they call) are externalized
 * together as one turn, so the turn budget applies across them.
 *
 * With `acceptsRefs: true` (and the SDK's `jsonSchema`), the model may pass refs of stored
 * results as arguments: the tool gets the stored content (see ToolStub.resolveRefs). Never mark a
 * tool that sends data off the machine.
 * @param {import("./index.js").ToolStub} toolStub
 * @param {string} toolName the name the tool is registered under
 * @param {import("./ai-sdk-refs.js").AiToolLike} aiTool
 * @param {{ acceptsRefs?: boolean, jsonSchema?: (schema: object) => unknown, maxResolvedChars?: number }} [options]
 */
export function externalizingTool(toolStub, toolName, aiTool, options = {}) {
  if (typeof aiTool?.execute !== "function")
    throw new TypeError(`tool ${toolName} has no execute function to wrap`);
  const refs = options.acceptsRefs ? acceptingRefs(toolStub, toolName, aiTool, options) : undefined;
  return {
    ...aiTool,
    ...(refs && { description: refs.description, inputSchema: refs.inputSchema }),
    /**
     * @param {unknown} input
     * @param {{ toolCallId?: string }} [options]
     */
    async execute(input, options) {
      const step = currentStep(toolStub);
      const callId = options?.toolCallId ?? `${toolName}_${Date.now()}_${step.calls.length}`;
      const part = (async () => {
        const args = refs ? await refs.resolve(input) : input;
        const result = await aiTool.execute(args, options);
        const isText = typeof result === "string";
        return {
          toolId: callId,
          toolName,
          toolInput: input,
          output: isText ? result : JSON.stringify(result, null, 2),
          mimeType: isText ? "text/plain" : "application/json",
        };
      })();
      const index = step.calls.push({ part }) - 1;
      await part; // this call's own failure is its own, not the step's
      return (await step.done)[index];
    },
  };
}
