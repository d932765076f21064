// `tool-stub mcp-proxy`: sits between an MCP host and an MCP server and stubs the server's
// oversized tool results.
//
// Why a JSON-RPC relay and not the SDK's high-level Server and Client: a proxy built from them
// re-implements every method (resources, prompts, completion, logging, sampling, elicitation,
// roots, tasks, whatever the next protocol version adds) and re-serializes every message after the
// SDK's schemas have parsed it, so anything they do not know is lost or refused. The relay
// forwards each message line as it came, byte for byte, and touches only what it must: the
// responses to tools/call (results rewritten), to tools/list (retrieval tools added) and to
// initialize (a tools capability added when the server has none), and the calls of the retrieval
// tools (answered here). It never sends a request of its own, so request ids need no mapping. It
// keeps a table of the host's pending requests to answer them when the server crashes, exits,
// hangs or writes garbage, and to know which response answers what: a response that answers no
// pending request (a second answer, an answer after a cancel or a timeout) is dropped, never
// passed on raw. Flow control: `writeHost` says when the host's pipe is full, and the caller stops
// reading the server until it drains (and the other way round), so memory stays bounded by a line.

import {
  frame,
  parseMessage,
  isRequest,
  isNotification,
  isResponse,
  readLines,
} from "./framing.js";
import { retrievalTools, callRetrievalTool } from "./retrieval.js";
import { externalizeToolResult, rewriteToolList } from "./rewrite.js";
import { resolvedToolCall, withRefArguments } from "./refs.js";
import { caught } from "../stores/errors.js";

/** @typedef {import("./framing.js").JsonRpcMessage} JsonRpcMessage */
/** @typedef {import("./framing.js").JsonRpcCall} JsonRpcCall */
/** @typedef {import("./index.js").WrappedConnection} WrappedConnection */
/** @typedef {import("./index.js").ConnectionHandlers} ConnectionHandlers */
/** @typedef {{ [field: string]: unknown }} Fields */
/**
 * What the proxy knows of a request of the host the server has not answered.
 * @typedef {object} PendingRequest
 * @property {unknown} id
 * @property {string} method
 * @property {unknown} toolName the called tool's name (tools/call)
 * @property {boolean} firstPage no `cursor` (tools/list)
 * @property {unknown} progressToken
 * @property {number} noiseBefore the server's non-protocol lines before it was sent
 * @property {ReturnType<typeof setTimeout> | undefined} timer
 */

/** JSON-RPC error codes: the standard ones and the MCP SDK's own. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  InternalError: -32603,
  ConnectionClosed: -32000,
  RequestTimeout: -32001,
};

// How many given-up ids are remembered to drop their late answers.
const MAX_ABANDONED = 10_000;

/** @param {string} text */
const log = (text) => process.stderr.write(`tool-stub mcp-proxy: ${text}\n`);
/** @param {string} text */
const preview = (text) => JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}...` : text);

export class McpProxy {
  /** @type {import("../index.js").ToolStub} */
  #toolStub;
  /** @type {import("./index.js").McpTool[]} */
  #retrieval;
  /** @type {Set<unknown>} */
  #retrievalNames;
  /** @type {WrappedConnection | undefined} */
  #server;
  /** @type {(line: string) => void} */
  #writeHost;
  /** @type {number} */
  #timeoutMs;
  /**
   * The host's requests the server has not answered: JSON of the id -> what is known of them, in
   * the order sent (more than one only when a host reuses an id that is still pending).
   * @type {Map<string, PendingRequest[]>}
   */
  #pending = new Map();
  /**
   * Ids the host gave up on (cancelled) or the proxy answered itself (timed out), oldest first:
   * a late answer from the server is dropped. Bounded: a server that never answers them cannot
   * grow it without end.
   * @type {Set<string>}
   */
  #abandoned = new Set();
  /** @type {string | undefined} how the server ended */
  #serverEnded;
  #serverHasTools = true;
  /** The server's last non-protocol stdout line. */
  #lastNoise = "";
  /** Non-protocol stdout lines of the server so far: a call's own are those since it was sent. */
  #noiseLines = 0;
  /** @type {Set<Promise<unknown>>} */
  #inFlight = new Set();
  #closing = false;
  /**
   * The wrapped tools whose calls get their ref arguments resolved (see refs.js).
   * @type {Set<unknown>}
   */
  #refTools;
  /** @type {number | undefined} */
  #maxResolvedChars;
  /**
   * The refs of the stubs sent to the host so far: one sent again goes as its reference form.
   * @type {Set<string>}
   */
  #sentRefs = new Set();

  /**
   * @param {object} options
   * @param {import("../index.js").ToolStub} options.toolStub  where results go, with the config
   * @param {(line: string) => void} options.writeHost  sends one message line to the host
   * @param {number} options.timeoutMs  how long a request may go unanswered (0: no limit); a
   *   progress notification for it starts the time again
   * @param {string[]} [options.refTools] wrapped tools that accept refs as arguments
   * @param {number} [options.maxResolvedChars] what one call's resolved refs may add up to
   */
  constructor({ toolStub, writeHost, timeoutMs, refTools = [], maxResolvedChars }) {
    this.#refTools = new Set(refTools);
    this.#maxResolvedChars = maxResolvedChars;
    this.#toolStub = toolStub;
    this.#writeHost = writeHost;
    this.#timeoutMs = timeoutMs;
    this.#retrieval = retrievalTools(toolStub);
    this.#retrievalNames = new Set(this.#retrieval.map((tool) => tool.name));
  }

  /**
   * The wrapped server's connection (see wrapped.js); its handlers are this proxy's.
   * @param {WrappedConnection} server
   */
  connect(server) {
    this.#server = server;
  }

  /** The wrapped server's connection, once connect() has given it. */
  get #wrapped() {
    if (this.#server === undefined) throw new Error("McpProxy: connect() the wrapped server first");
    return this.#server;
  }

  /** @returns {ConnectionHandlers} */
  get serverHandlers() {
    return {
      onLine: (line) => this.fromServer(line),
      onEnd: (description) => this.serverEnded(description),
      onSendError: (message, error) => this.#sendFailed(message, error),
      onStreamLost: (ids, reason) => this.#streamLost(ids, reason),
    };
  }

  // --- host -> server --------------------------------------------------------------------------

  /** @param {string} line */
  fromHost(line) {
    const parsed = parseMessage(line);
    if (parsed === undefined) {
      log(`the host sent a line that is not JSON-RPC: ${preview(line)}`);
      this.#writeHost(
        frame({
          jsonrpc: "2.0",
          id: null,
          error: {
            code: ErrorCode.ParseError,
            message: "tool-stub mcp-proxy: not a JSON-RPC message",
          },
        }),
      );
      return;
    }
    // Batches (allowed by MCP before 2025-06-18) are taken apart: each message is handled alone.
    if (Array.isArray(parsed)) {
      for (const message of parsed) this.#hostMessage(JSON.stringify(message), message);
      return;
    }
    this.#hostMessage(line, parsed);
  }

  /**
   * @param {string} line
   * @param {JsonRpcMessage} message
   */
  #hostMessage(line, message) {
    if (isRequest(message)) {
      if (message.method === "tools/call" && this.#retrievalNames.has(message.params?.name)) {
        this.#answerRetrieval(message);
        return;
      }
      if (message.method === "tools/list" && !this.#serverHasTools) {
        this.#reply(message.id, { tools: this.#retrieval });
        return;
      }
      if (this.#serverEnded) {
        this.#fail(
          message.id,
          ErrorCode.ConnectionClosed,
          `${this.#serverEnded}; it cannot answer ${message.method}`,
        );
        return;
      }
      if (message.method === "tools/call" && this.#refTools.has(message.params?.name)) {
        this.#finishBeforeClose(this.#forwardResolved(line, message));
        return;
      }
      this.#track(message);
    } else if (isNotification(message) && message.method === "notifications/cancelled") {
      // The host ignores an answer after its cancel (MCP says it should): so does the proxy.
      const id = message.params?.requestId;
      if (this.#forget(id) && !this.#pending.has(JSON.stringify(id))) this.#abandon(id);
    }
    if (!this.#serverEnded) this.#wrapped.send(line, message);
  }

  /**
   * Forwards a call of a tool that accepts refs with them resolved, or answers why it cannot.
   * @param {string} line
   * @param {JsonRpcCall} message
   */
  async #forwardResolved(line, message) {
    const resolved = await resolvedToolCall(message, this.#toolStub, this.#maxResolvedChars);
    if (resolved.error) return this.#reply(message.id, resolved.error);
    if (this.#serverEnded) {
      return this.#fail(
        message.id,
        ErrorCode.ConnectionClosed,
        `${this.#serverEnded}; it cannot answer ${message.method}`,
      );
    }
    this.#track(message);
    const forwarded = resolved.message;
    this.#wrapped.send(forwarded === message ? line : JSON.stringify(forwarded), forwarded);
  }

  /** @param {JsonRpcCall} message */
  #track(message) {
    const key = JSON.stringify(message.id);
    /** @type {PendingRequest} */
    const entry = {
      id: message.id,
      method: message.method,
      toolName: message.method === "tools/call" ? message.params?.name : undefined,
      firstPage: message.params?.cursor === undefined,
      progressToken: caught(message.params?._meta)?.progressToken,
      noiseBefore: this.#noiseLines,
      timer: undefined,
    };
    const same = this.#pending.get(key);
    if (same) {
      log(
        `the host sent request id ${key} again while it is pending: answers to it cannot be told apart`,
      );
      same.push(entry);
    } else {
      this.#pending.set(key, [entry]);
    }
    this.#arm(entry);
  }

  /** @param {unknown} id */
  #abandon(id) {
    const key = JSON.stringify(id);
    this.#abandoned.delete(key);
    this.#abandoned.add(key);
    const oldest = this.#abandoned.values().next().value;
    if (this.#abandoned.size > MAX_ABANDONED && oldest !== undefined)
      this.#abandoned.delete(oldest);
  }

  /** Every pending request, in no particular order. */
  *#pendingEntries() {
    for (const entries of this.#pending.values()) yield* entries;
  }

  /** @param {PendingRequest} entry */
  #arm(entry) {
    if (!this.#timeoutMs) return;
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => this.#timedOut(entry), this.#timeoutMs);
    entry.timer.unref?.();
  }

  /**
   * Removes one pending request with this id (`entry`, or the oldest): what was known of it.
   * @param {unknown} id
   * @param {PendingRequest} [entry]
   * @returns {PendingRequest | undefined}
   */
  #forget(id, entry = undefined) {
    const key = JSON.stringify(id);
    const entries = this.#pending.get(key);
    if (!entries) return undefined;
    const index = entry ? entries.indexOf(entry) : 0;
    if (index === -1) return undefined;
    const [removed] = entries.splice(index, 1);
    if (entries.length === 0) this.#pending.delete(key);
    clearTimeout(removed.timer);
    return removed;
  }

  /** @param {PendingRequest} entry */
  #timedOut(entry) {
    this.#forget(entry.id, entry);
    if (!this.#pending.has(JSON.stringify(entry.id))) this.#abandon(entry.id);
    const own = this.#noiseLines - entry.noiseBefore;
    const noise = own
      ? ` While it was pending, the server wrote ${own} line(s) to stdout that are not JSON-RPC (the last: ${preview(this.#lastNoise)}): its answer may have been lost among them.`
      : "";
    this.#fail(
      entry.id,
      ErrorCode.RequestTimeout,
      `the wrapped MCP server did not answer ${entry.method} within ${this.#timeoutMs} ms (tool-stub mcp-proxy --timeout-ms).${noise}`,
    );
    // Tell the server too, as a host would.
    const cancel = {
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: entry.id, reason: "tool-stub mcp-proxy: timed out" },
    };
    if (!this.#serverEnded) this.#wrapped.send(JSON.stringify(cancel), cancel);
  }

  /** @param {JsonRpcCall} message a call of a retrieval tool (its name is one of theirs) */
  #answerRetrieval(message) {
    const params = /** @type {Fields} */ (message.params);
    const name = /** @type {string} */ (params.name);
    const answer = callRetrievalTool(this.#toolStub, name, params.arguments);
    this.#finishBeforeClose(answer.then((result) => this.#reply(message.id, result)));
  }

  /**
   * @param {unknown} id
   * @param {unknown} result
   */
  #reply(id, result) {
    this.#writeHost(frame({ jsonrpc: "2.0", id, result }));
  }

  /**
   * @param {unknown} id
   * @param {number} code
   * @param {string} message
   */
  #fail(id, code, message) {
    this.#writeHost(frame({ jsonrpc: "2.0", id, error: { code, message } }));
  }

  // --- server -> host --------------------------------------------------------------------------

  /** @param {string} line */
  fromServer(line) {
    const parsed = parseMessage(line);
    if (parsed === undefined) {
      this.#noiseLines++;
      this.#lastNoise = line;
      log(
        `the wrapped server wrote a line to stdout that is not JSON-RPC (MCP servers must log to stderr): ${preview(line)}`,
      );
      return;
    }
    if (Array.isArray(parsed)) {
      for (const message of parsed) this.#serverMessage(JSON.stringify(message), message);
      return;
    }
    this.#serverMessage(line, parsed);
  }

  /**
   * @param {string} line
   * @param {JsonRpcMessage} message
   */
  #serverMessage(line, message) {
    if (isResponse(message)) {
      const key = JSON.stringify(message.id);
      const candidates = this.#pending.get(key);
      if (!candidates) {
        // An answer to nothing pending (a second answer, or one after a cancel or a timeout):
        // the host would drop it or fail on it, and a raw result must never reach the model.
        const why = this.#abandoned.delete(key)
          ? "a request the host cancelled or the proxy timed out"
          : "no pending request (answered already?)";
        log(`dropped an answer of the wrapped server to id ${preview(key)}: ${why}`);
        return;
      }
      // Ids reused by the host: the oldest request takes the answer. Whatever they were, a tool
      // result among them is stubbed, under a tool name only when they all agree on it.
      // Pending under its id (candidates holds it).
      const entry = /** @type {PendingRequest} */ (this.#forget(message.id));
      if (message.result === undefined) return this.#writeHost(frame(line));
      const calls = candidates.length ? [entry, ...candidates] : [entry];
      const toolCall = calls.find((c) => c.method === "tools/call");
      if (calls.length > 1 && toolCall) {
        const names = new Set(calls.map((c) => c.toolName));
        const toolName = names.size === 1 ? toolCall.toolName : "unknown_tool";
        return this.#finishBeforeClose(this.#toolResult(line, message, { ...toolCall, toolName }));
      }
      if (calls.length > 1) return this.#writeHost(frame(line));
      if (entry.method === "tools/call")
        return this.#finishBeforeClose(this.#toolResult(line, message, entry));
      if (entry.method === "tools/list") return this.#toolList(message, entry);
      if (entry.method === "initialize") return this.#initialized(line, message);
    } else if (isNotification(message) && message.method === "notifications/progress") {
      const token = message.params?.progressToken;
      for (const entry of this.#pendingEntries())
        if (entry.progressToken !== undefined && entry.progressToken === token) this.#arm(entry);
    }
    this.#writeHost(frame(line));
  }

  /**
   * Keeps an answer being made until it is written; close() waits for it. Never rejects.
   * @param {Promise<unknown>} promise
   */
  #finishBeforeClose(promise) {
    /** @type {Promise<unknown>} */
    const settled = promise
      .catch((error) => log(`internal error (a bug): ${String(caught(error)?.stack ?? error)}`))
      .finally(() => this.#inFlight.delete(settled));
    this.#inFlight.add(settled);
  }

  /**
   * @param {string} line
   * @param {JsonRpcMessage} message the answer to initialize
   */
  #initialized(line, message) {
    // The server's InitializeResult, read field by field; an answer that is no object (null, say)
    // has neither field and goes to the host as it came.
    const result = caught(message.result);
    const version = result?.protocolVersion;
    if (typeof version === "string") this.#wrapped.setProtocolVersion?.(version);
    const capabilities = result?.capabilities;
    if (
      capabilities &&
      typeof capabilities === "object" &&
      /** @type {Fields} */ (capabilities).tools === undefined
    ) {
      // A server without tools still gets the retrieval tools (answered here, tools/list too).
      this.#serverHasTools = false;
      this.#writeHost(
        frame({
          ...message,
          result: { ...result, capabilities: { ...capabilities, tools: {} } },
        }),
      );
      return;
    }
    this.#writeHost(frame(line));
  }

  /**
   * @param {JsonRpcMessage} message the answer to tools/list
   * @param {PendingRequest} entry
   */
  #toolList(message, entry) {
    try {
      this.#writeHost(
        frame({
          ...message,
          result: withRefArguments(
            // The server's ListToolsResult, read field by field.
            rewriteToolList(/** @type {Fields} */ (message.result), this.#retrieval, entry),
            this.#refTools,
            this.#toolStub,
          ),
        }),
      );
    } catch (error) {
      log(String(caught(error)?.message));
      this.#fail(
        message.id,
        ErrorCode.InternalError,
        `tool-stub mcp-proxy: ${caught(error)?.message}`,
      );
    }
  }

  /**
   * @param {string} line
   * @param {JsonRpcMessage} message the answer to tools/call
   * @param {PendingRequest} entry
   */
  async #toolResult(line, message, entry) {
    /** @type {Fields | undefined} */
    let rewritten;
    try {
      const { result, errors } = await externalizeToolResult(this.#toolStub, {
        toolName: String(entry.toolName),
        messageId: `mcp_${typeof entry.id === "string" ? entry.id : JSON.stringify(entry.id)}`,
        result: message.result,
        sentRefs: this.#sentRefs,
      });
      for (const error of errors) {
        log(
          `could not store a result of ${String(entry.toolName)}, ${error.raw ? "passed on raw" : "sent a stub without a ref"}: ${error.message}`,
        );
      }
      rewritten = result;
    } catch (error) {
      // Thrown only under failureMode "reject" (or by a bug): the host gets an error, not the raw result.
      if (caught(error)?.code === "STORE_FAILED" || caught(error)?.code === "TOO_LARGE") {
        log(`could not store a result of ${String(entry.toolName)}: ${caught(error)?.message}`);
        this.#fail(
          message.id,
          ErrorCode.InternalError,
          `tool-stub could not store the result of ${String(entry.toolName)}: ${caught(error)?.message}`,
        );
        return;
      }
      log(
        `could not externalize a result of ${String(entry.toolName)}, passed on raw: ${String(caught(error)?.stack ?? error)}`,
      );
    }
    this.#writeHost(
      rewritten === undefined ? frame(line) : frame({ ...message, result: rewritten }),
    );
  }

  /**
   * A message the HTTP transport could not deliver: a request of it gets the reason.
   * @param {unknown} sent the message as it was given to the connection's send
   * @param {unknown} error
   */
  #sendFailed(sent, error) {
    const message = /** @type {JsonRpcMessage} */ (sent);
    if (!isRequest(message) || !this.#forget(message.id)) return;
    this.#fail(
      message.id,
      ErrorCode.ConnectionClosed,
      `the wrapped MCP server (${this.#wrapped.describe}) did not take ${message.method}: ${String(caught(error)?.message ?? error)}`,
    );
  }

  /**
   * The HTTP stream that was to carry the answers to `ids` ended (or broke) without them, and will
   * not be resumed: those requests get the reason at once instead of waiting out the timeout.
   * @param {unknown[]} ids
   * @param {string} reason
   */
  #streamLost(ids, reason) {
    for (const id of ids) {
      if (!this.#forget(id)) continue;
      this.#abandon(id);
      this.#fail(
        id,
        ErrorCode.ConnectionClosed,
        `the wrapped MCP server (${this.#wrapped.describe}) ${reason} before it answered request ${JSON.stringify(id)}`,
      );
    }
  }

  /**
   * The server is gone: every request waiting for it, and every later one, gets an error.
   * @param {string} description
   */
  serverEnded(description) {
    this.#serverEnded = description;
    if (!this.#closing) log(description);
    for (const entry of [...this.#pendingEntries()]) {
      this.#forget(entry.id, entry);
      this.#fail(
        entry.id,
        ErrorCode.ConnectionClosed,
        `${description}, before it answered ${entry.method}`,
      );
    }
  }

  /** The host closed its side: finish the answers being made, then stop the server. */
  async close() {
    this.#closing = true;
    await Promise.allSettled([...this.#inFlight]);
    for (const entry of this.#pendingEntries()) clearTimeout(entry.timer);
    await this.#server?.close();
  }
}

/**
 * Runs the proxy on this process's stdio until the host closes stdin (or `signal` aborts). Flow
 * control both ways: while the host's pipe is full the server is not read, and while the server's
 * stdin is full the host is not read, so neither side's flood piles up in the proxy.
 * @param {{ toolStub: import("../index.js").ToolStub, timeoutMs: number, connect: (handlers: ConnectionHandlers) => WrappedConnection | Promise<WrappedConnection>, signal?: AbortSignal, refTools?: string[], maxResolvedChars?: number }} options
 */
export async function runProxy({
  toolStub,
  timeoutMs,
  connect,
  signal,
  refTools,
  maxResolvedChars,
}) {
  // A host that went away closes the pipe: answers still pending at shutdown have nowhere to go.
  process.stdout.on("error", (error) => log(`cannot write to the host: ${error.message}`));
  /** @type {WrappedConnection | undefined} */
  let server;
  let hostFull = false;
  const proxy = new McpProxy({
    toolStub,
    timeoutMs,
    refTools,
    maxResolvedChars,
    writeHost: (text) => {
      if (process.stdout.write(text) || hostFull) return;
      hostFull = true;
      server?.pause?.();
      process.stdout.once("drain", () => {
        hostFull = false;
        server?.resume?.();
      });
    },
  });
  const connected = await connect(proxy.serverHandlers);
  server = connected;
  proxy.connect(connected);
  let serverFull = false;
  /** @type {Promise<void>} */
  const hostDone = new Promise((resolve) => {
    readLines(
      process.stdin,
      (line) => {
        proxy.fromHost(line);
        // A connection that tells when it is congested also tells when it drained.
        if (serverFull || !connected.congested?.() || !connected.whenDrained) return;
        serverFull = true;
        process.stdin.pause();
        connected.whenDrained(() => {
          serverFull = false;
          process.stdin.resume();
        });
      },
      resolve,
    );
    signal?.addEventListener("abort", () => resolve(), { once: true });
  });
  await hostDone;
  await proxy.close();
}
