import type { FitContextOptions, ToolStub } from "../index.js";

type Options = Omit<FitContextOptions, "format">;

/** The AI SDK's `prepareStep`: fits the step's messages (format "ai-sdk"). */
export declare function fitContextPrepareStep(
  ts: ToolStub,
  options: Options,
): (step: { messages: unknown[] }) => Promise<{ messages?: unknown[] }>;

/** The OpenAI Agents SDK's `callModelInputFilter` (format "openai-agents"). */
export declare function fitContextInputFilter(
  ts: ToolStub,
  options: Options,
): (args: { modelData: { input: unknown[]; instructions?: string } }) => Promise<{
  input: unknown[];
  instructions?: string;
}>;

/** A LangChain createAgent middleware's definition, for `createMiddleware(...)` (format "langchain"). */
export declare function fitContextMiddleware(
  ts: ToolStub,
  options: Options,
): {
  name: string;
  wrapModelCall: (
    request: { messages: unknown[] },
    handler: (request: unknown) => unknown,
  ) => Promise<unknown>;
};
