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
  { description: string; inputSchema: Schema; execute: (input: any) => Promise<ToolCallResult> }
>;

/**
 * Wraps an AI SDK tool so its output is externalized before the model sees it: `execute` resolves
 * to the text the model gets (the output itself, JSON-serialized if it was not a string, or its
 * stub), whatever the wrapped tool returned.
 */
export declare function externalizingTool<T extends { execute: (...args: any[]) => any }>(
  toolStub: ToolStub,
  toolName: string,
  aiTool: T,
): Omit<T, "execute"> & { execute: (...args: Parameters<T["execute"]>) => Promise<string> };
