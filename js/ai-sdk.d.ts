import type { ToolStub } from "./index.js";

/** The retrieval tools as AI SDK tools (pass `jsonSchema` from "ai"). */
export declare function aiSdkTools(
  toolStub: ToolStub,
  sdk: { jsonSchema: (schema: object) => unknown },
): Record<string, { description: string; inputSchema: unknown; execute: (input: unknown) => Promise<unknown> }>;

/** Wraps an AI SDK tool so its output is externalized before the model sees it. */
export declare function externalizingTool<T extends { execute: (...args: any[]) => any }>(
  toolStub: ToolStub,
  toolName: string,
  aiTool: T,
): T;
