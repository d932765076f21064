// `tool-stub/mcp`: the Model Context Protocol side of tool-stub (Node only). The MCP SDK
// (`@modelcontextprotocol/sdk`, an optional peer dependency) is needed by createRetrievalServer,
// runRetrievalServer and HttpConnection only.
import type { ToolStub } from "../index.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";

/** An MCP tool as tools/list gives it. */
export interface McpTool {
  name: string;
  description?: string;
  inputSchema: { type: "object"; [key: string]: unknown };
  outputSchema?: { type: "object"; [key: string]: unknown };
  [key: string]: unknown;
}

/** An MCP CallToolResult. */
export interface McpToolResult {
  content: Array<{ type: string; [key: string]: unknown }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  [key: string]: unknown;
}

/** The retrieval tools (read, search, list, search_all) as MCP tools, named by the config's toolNames. */
export declare function retrievalTools(toolStub: ToolStub): McpTool[];
/** One call of a retrieval tool: the result as JSON text and as structuredContent; isError when it failed. */
export declare function callRetrievalTool(
  toolStub: ToolStub,
  name: string,
  args: unknown,
): Promise<McpToolResult>;

/**
 * Externalizes the oversized text and structured content of one tool result (one turn). `result`
 * is undefined when nothing changed; `errors` are the store failures under failureMode preserve_raw.
 * With `sentRefs` (the refs of the stubs sent so far), a stub already sent goes as its one-line
 * reference form (`toolStub.referenceForm`), and each new stub's ref is added.
 */
export declare function externalizeToolResult(
  toolStub: ToolStub,
  call: { toolName: string; messageId: string; result: McpToolResult; sentRefs?: Set<string> },
): Promise<{ result: McpToolResult | undefined; errors: Array<{ message: string; raw: boolean }> }>;
/** A tools/list result with the retrieval tools added (first page) and output schemas dropped; throws on a name clash. */
export declare function rewriteToolList(
  result: { tools: McpTool[]; [key: string]: unknown },
  retrieval: McpTool[],
  options: { firstPage: boolean },
): { tools: McpTool[]; [key: string]: unknown };

/** An MCP SDK `Server` (not connected) serving the retrieval tools: `await server.connect(transport)`. */
export declare function createRetrievalServer(toolStub: ToolStub): Promise<Server>;
/** Serves the retrieval tools on this process's stdio until stdin closes (`tool-stub mcp`). */
export declare function runRetrievalServer(toolStub: ToolStub): Promise<void>;

/** What a wrapped server's connection reports to the proxy. */
export interface ConnectionHandlers {
  onLine(line: string): void;
  onEnd(description: string): void;
  onSendError(message: unknown, error: unknown): void;
  /** The HTTP stream that was to carry the answers to `ids` ended or broke without them. */
  onStreamLost?(ids: unknown[], reason: string): void;
}
/** The wrapped server's connection. */
export interface WrappedConnection {
  describe: string;
  send(line: string, message: unknown): void;
  setProtocolVersion?(version: string): void;
  /** Stop and start reading the server (the host's pipe is full; it drained). */
  pause?(): void;
  resume?(): void;
  /** Whether the server's input is full; `whenDrained` calls back once it has room. */
  congested?(): boolean;
  whenDrained?(callback: () => void): void;
  close(): Promise<void>;
}
/**
 * A server started as a child process on stdio, in a process group of its own (POSIX) that
 * close() and kill() end whole.
 */
export declare class StdioConnection implements WrappedConnection {
  constructor(
    command: string,
    args: string[],
    handlers: ConnectionHandlers,
    options?: { env?: Record<string, string | undefined> },
  );
  describe: string;
  readonly pid: number | undefined;
  send(line: string): void;
  pause(): void;
  resume(): void;
  congested(): boolean;
  whenDrained(callback: () => void): void;
  /** Its stdin closed, then SIGTERM and SIGKILL to its group: 1.5 s at most. */
  close(): Promise<void>;
  /** SIGTERM to its group now, SIGKILL 0.5 s later. */
  kill(): Promise<void>;
  /** SIGKILL to whatever is left of its group, synchronously (at exit). */
  killNow(): void;
}
export declare class HttpConnection implements WrappedConnection {
  static open(
    url: string,
    headers: Record<string, string>,
    handlers: ConnectionHandlers,
  ): Promise<HttpConnection>;
  describe: string;
  send(line: string, message: unknown): void;
  setProtocolVersion(version: string): void;
  pause(): void;
  resume(): void;
  close(): Promise<void>;
}

/** The relay between a host (lines in and out) and a wrapped server (`tool-stub mcp-proxy`). */
export declare class McpProxy {
  constructor(options: {
    toolStub: ToolStub;
    writeHost: (line: string) => void;
    timeoutMs: number;
    /** Wrapped tools whose ref arguments are resolved before the call reaches the server. */
    refTools?: string[];
    /** What one call's resolved refs may add up to (default 1,000,000 chars). */
    maxResolvedChars?: number;
  });
  readonly serverHandlers: ConnectionHandlers;
  connect(server: WrappedConnection): void;
  fromHost(line: string): void;
  fromServer(line: string): void;
  serverEnded(description: string): void;
  close(): Promise<void>;
}
/** Runs the proxy on this process's stdio until the host closes stdin. */
export declare function runProxy(options: {
  toolStub: ToolStub;
  timeoutMs: number;
  signal?: AbortSignal;
  refTools?: string[];
  maxResolvedChars?: number;
  connect: (handlers: ConnectionHandlers) => WrappedConnection | Promise<WrappedConnection>;
}): Promise<void>;
