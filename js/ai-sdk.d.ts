import type { ToolStub, ToolCallResult, JsonSchemaToolDefinition } from "./index.js";

/**
 * The retrieval tools as AI SDK tools (pass `jsonSchema` from "ai"); the result is assignable to
 * the AI SDK's `ToolSet`.
 */
export declare function aiSdkTools<Schema>(
  toolStub: ToolStub,
  sdk: { jsonSchema: (schema: JsonSchemaToolDefinition["parameters"]) => Schema },
): Record<
  string,
  { description: string; inputSchema: Schema; execute: (input: unknown) => Promise<ToolCallResult> }
>;

/**
 * Wraps an AI SDK tool so its output is externalized before the model sees it: `execute` resolves
 * to the text the model gets (the output itself, JSON-serialized if it was not a string, or its
 * stub), whatever the wrapped tool returned.
 */
export declare function externalizingTool<T extends { execute?: (...args: never[]) => unknown }>(
  toolStub: ToolStub,
  toolName: string,
  aiTool: T,
  options?: {
    /**
     * The model may pass refs of stored results as arguments (the tool's description and schema
     * say so); the tool gets the stored content. Never for a tool that sends data off the machine.
     * Needs `jsonSchema` from "ai".
     */
    acceptsRefs?: boolean;
    jsonSchema?: (schema: JsonSchemaToolDefinition["parameters"]) => unknown;
    /** What one call's resolved refs may add up to (default 1,000,000 chars). */
    maxResolvedChars?: number;
  },
): ExternalizingTool<T>;

/**
 * The wrapped tool's type: the same tool, whose `execute` resolves to the text the model gets.
 * Distributes over a union of tool shapes (the AI SDK's `Tool` is one), so the result stays
 * assignable to the AI SDK's `ToolSet`.
 */
export type ExternalizingTool<T> = T extends { execute?: (...args: infer A) => unknown }
  ? Omit<T, "execute"> & { execute: (...args: A) => Promise<string> }
  : never;
