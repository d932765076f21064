// `tool-stub/ai-sdk`: wiring for the Vercel AI SDK (`ai` package), without depending on it: the
// caller passes the SDK's own `jsonSchema` helper.

import { acceptingRefs } from "./ai-sdk-refs.js";

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
 * The open step of each ToolStub: the calls that started together. The AI SDK starts the tool
 * calls of one step together (in one tick), so calls that start before a macrotask has passed are
 * one turn: their outputs go through one `externalize`, and the turn budget applies to them all.
 * @type {WeakMap<object, { calls: Array<{ part: Promise<object> }>, closed: boolean, done: Promise<Array<string | null>> }>}
 */
const openSteps = new WeakMap();

/** The step a call starting now belongs to; a new one (closing after this tick) if none is open. */
function currentStep(toolStub) {
  let step = openSteps.get(toolStub);
  if (step && !step.closed) return step;
  let close;
  const done = new Promise((resolve) => (close = resolve));
  const calls = [];
  step = { calls, closed: false, done };
  openSteps.set(toolStub, step);
  // Closed by a macrotask: every call started in this tick (and its microtasks) has joined.
  setTimeout(() => {
    step.closed = true;
    if (openSteps.get(toolStub) === step) openSteps.delete(toolStub);
    close(externalizeStep(toolStub, calls));
  }, 0);
  return step;
}

/** One `externalize` for the parts of a step's calls that succeeded; the outputs in call order. */
async function externalizeStep(toolStub, calls) {
  const parts = await Promise.all(calls.map((call) => call.part.catch(() => null)));
  const present = parts.filter((part) => part !== null);
  if (present.length === 0) return parts;
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
 * @param {{ execute: Function }} aiTool
 * @param {{ acceptsRefs?: boolean, jsonSchema?: Function, maxResolvedChars?: number }} [options]
 */
export function externalizingTool(toolStub, toolName, aiTool, options = {}) {
  if (typeof aiTool?.execute !== "function")
    throw new TypeError(`tool ${toolName} has no execute function to wrap`);
  const refs = options.acceptsRefs ? acceptingRefs(toolStub, toolName, aiTool, options) : undefined;
  return {
    ...aiTool,
    ...(refs && { description: refs.description, inputSchema: refs.inputSchema }),
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
