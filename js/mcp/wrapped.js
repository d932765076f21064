// The wrapped MCP server, as the proxy sees it: something to send message lines to, which calls
// back with the lines it sends, its non-protocol output, and its end. Two transports: a child
// process on stdio (no SDK: our own framing keeps lines byte for byte) and Streamable HTTP (the
// SDK's client transport, loaded only for --url: sessions, SSE streams and resumption are its job).

import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { readLines } from "./framing.js";
import { importSdk } from "./sdk.js";
import { caught } from "../stores/errors.js";

/** @typedef {import("./index.js").ConnectionHandlers} ConnectionHandlers */

const STDERR_TAIL = 2000;
// How long the server may take to exit once its stdin is closed, then once it has SIGTERM. The
// two together stay under a host's own grace (the MCP SDK's client waits 2 s after closing our
// stdin before it sends SIGTERM, then 2 s before SIGKILL), so the server is gone before the host
// can kill the proxy, which could then no longer stop it.
const GRACE_AFTER_EOF_MS = 1000;
const GRACE_AFTER_TERM_MS = 500;
const POLL_MS = 25;
// POSIX process groups: the server runs in its own group, and the whole group is ended (a server
// started through `npx` is a grandchild, under `npm exec`). Not on Windows, where the child alone is.
const GROUPS = process.platform !== "win32";

/**
 * A server started as `command args` with its stdin and stdout as the MCP connection. Its stderr
 * goes to ours (the host logs it), and its last lines are kept to explain a crash. It runs in a
 * process group of its own, which close() and kill() end whole.
 * Handlers: onLine(text), onEnd(description).
 */
export class StdioConnection {
  #child;
  #stderrTail = "";
  #ended = false;
  /** @type {ConnectionHandlers} */
  #handlers;
  /** @type {(() => void)[]} */
  #drainWaiters = [];
  /** @type {Promise<void> | undefined} */
  #killing;
  /** Set once the group was seen empty: its id may be reused, so it is never signalled again. */
  #groupGone = false;

  /** What the wrapped server is, for messages: its command line or its URL. */
  describe = "";

  /**
   * @param {string} command
   * @param {string[]} args
   * @param {ConnectionHandlers} handlers
   * @param {{ env?: NodeJS.ProcessEnv }} [options]
   */
  constructor(command, args, handlers, { env } = {}) {
    this.#handlers = handlers;
    this.describe = [command, ...args].join(" ");
    this.#child = spawn(command, args, {
      stdio: ["pipe", "pipe", "pipe"],
      detached: GROUPS,
      ...(env ? { env } : {}),
    });
    this.#child.on("error", (/** @type {NodeJS.ErrnoException} */ error) =>
      this.#end(`could not be started (${error.code ?? error.message})`),
    );
    this.#child.stdin.on("error", () => {}); // a write after it died: its exit reports that
    this.#child.stdin.on("drain", () => this.#drained());
    this.#child.stdin.on("close", () => this.#drained());
    this.#child.stderr.on("data", (/** @type {Buffer} */ chunk) => {
      process.stderr.write(chunk);
      this.#stderrTail = (this.#stderrTail + chunk.toString("utf8")).slice(-STDERR_TAIL);
    });
    readLines(
      this.#child.stdout,
      (line) => handlers.onLine(line),
      () => {},
    );
    this.#child.on("exit", (code, signal) => {
      // Let the last stdout lines and stderr arrive first.
      setImmediate(() =>
        this.#end(signal ? `was killed by ${signal}` : `exited with code ${code}`),
      );
    });
  }

  /** The server's process id (its group's id too). */
  get pid() {
    return this.#child.pid;
  }

  /** @param {string} how */
  #end(how) {
    if (this.#ended) return;
    this.#ended = true;
    this.#drained();
    const tail = this.#stderrTail.trim();
    this.#handlers.onEnd(
      `the wrapped MCP server (${this.describe}) ${how}${tail ? `; its stderr ended with: ${tail.slice(-500)}` : ""}`,
    );
  }

  /** @param {string} line */
  send(line) {
    if (!this.#ended && this.#child.stdin.writable) this.#child.stdin.write(`${line}\n`);
  }

  /** Whether the server's stdin is full: stop sending until whenDrained. */
  congested() {
    return !this.#ended && this.#child.stdin.writableNeedDrain;
  }

  /**
   * Calls `callback` once the server's stdin has room again (or the server is gone).
   * @param {() => void} callback
   */
  whenDrained(callback) {
    if (this.#ended || !this.#child.stdin.writableNeedDrain) callback();
    else this.#drainWaiters.push(callback);
  }

  #drained() {
    const waiters = this.#drainWaiters;
    this.#drainWaiters = [];
    for (const callback of waiters) callback();
  }

  /** Stops reading the server's stdout (the host's pipe is full); it then blocks on its writes. */
  pause() {
    this.#child.stdout.pause();
  }

  resume() {
    this.#child.stdout.resume();
  }

  /**
   * Sends `signal` to the server's process group; false when nothing is left of it.
   * @param {NodeJS.Signals | 0} signal
   */
  #signal(signal) {
    const pid = this.#child.pid;
    if (pid === undefined || this.#groupGone) return false;
    try {
      if (GROUPS) process.kill(-pid, signal);
      else if (this.#child.exitCode === null && this.#child.signalCode === null)
        this.#child.kill(signal);
      else return false;
      return true;
    } catch {
      this.#groupGone = true; // ESRCH: the group is empty
      return false;
    }
  }

  /** Whether any process of the server's group is alive (its leader may have exited before it). */
  #alive() {
    if (!this.#signal(0)) return false;
    // A group left with only zombies (killed, waiting for a parent to reap them: orphans wait for
    // PID 1, which in some containers never does) is gone: there is nothing to wait for.
    if (GROUPS && this.#child.pid !== undefined && onlyZombies(this.#child.pid)) {
      this.#groupGone = true;
      return false;
    }
    return true;
  }

  /**
   * Resolves true once the group is gone, false after `ms` (or as soon as kill() takes over).
   * @param {number} ms
   */
  async #gone(ms) {
    const until = Date.now() + ms;
    while (this.#alive()) {
      if (Date.now() >= until || this.#killing) return false;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    return true;
  }

  /**
   * Closes its stdin (MCP's stdio shutdown), then SIGTERM, then SIGKILL to its whole process
   * group, each after a grace period: 1.5 s at most in all.
   */
  async close() {
    if (this.#child.pid === undefined) return;
    this.#child.stdin.end();
    if (this.#killing || (await this.#gone(GRACE_AFTER_EOF_MS))) return this.#killing;
    this.#signal("SIGTERM");
    if (this.#killing || (await this.#gone(GRACE_AFTER_TERM_MS))) return this.#killing;
    this.#signal("SIGKILL");
    await this.#gone(GRACE_AFTER_TERM_MS);
  }

  /**
   * The proxy was told to stop (SIGTERM, SIGHUP, SIGINT): SIGTERM to the group now, SIGKILL
   * after a short grace. A close() in progress leaves the rest to this.
   */
  kill() {
    this.#killing ??= (async () => {
      if (!this.#signal("SIGTERM")) return;
      const until = Date.now() + GRACE_AFTER_TERM_MS;
      while (this.#alive() && Date.now() < until)
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      this.#signal("SIGKILL");
    })();
    return this.#killing;
  }

  /** The proxy is exiting (synchronously): whatever is left of the group gets SIGKILL. */
  killNow() {
    this.#signal("SIGKILL");
  }
}

/**
 * Whether every process of group `pgid` is a zombie, as Linux's /proc shows it (false where it
 * cannot be told: no /proc).
 * @param {number} pgid
 */
function onlyZombies(pgid) {
  let names;
  try {
    names = readdirSync("/proc");
  } catch {
    return false;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${name}/stat`, "latin1");
    } catch {
      continue; // gone meanwhile
    }
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(pgrp) === pgid && state !== "Z") return false;
  }
  return true;
}

/**
 * A server at a Streamable HTTP endpoint, through the SDK's client transport. The transport parses
 * what it receives, so lines are re-serialized. `send` never throws: a request the server could
 * not take (refused connection, HTTP error) is reported through onSendError(message, error).
 *
 * The transport is given a fetch that watches each response body: when the stream of a POST that
 * carried requests ends or breaks, the requests it did not answer are reported through
 * onStreamLost(ids, reason) at once (unless the SDK will resume that stream, which it does when the
 * server gave its events ids; then they are reported when resuming fails). The same fetch stops
 * reading response bodies while the proxy is paused: the host's backpressure reaches the server.
 */
export class HttpConnection {
  /** @type {import("@modelcontextprotocol/sdk/client/streamableHttp.js").StreamableHTTPClientTransport | undefined} */
  #transport;
  /** @type {ConnectionHandlers | undefined} */
  #handlers;
  #ended = false;
  /** @type {Promise<unknown> | undefined} */
  #paused;
  /** @type {(value?: unknown) => void} */
  #resumeReading = () => {};
  /**
   * Requests whose stream ended with event ids: the SDK is resuming it.
   * @type {Set<unknown>}
   */
  #resuming = new Set();
  /** What the wrapped server is, for messages: its URL. */
  describe = "";

  /**
   * @param {string} url
   * @param {Record<string, string>} headers
   * @param {ConnectionHandlers} handlers
   */
  static async open(url, headers, handlers) {
    const [sdk] =
      /** @type {[typeof import("@modelcontextprotocol/sdk/client/streamableHttp.js")]} */ (
        await importSdk("client/streamableHttp.js")
      );
    const connection = new HttpConnection();
    connection.describe = url;
    connection.#handlers = handlers;
    const transport = new sdk.StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers },
      fetch: (input, init) => connection.#fetch(input, init),
    });
    transport.onmessage = (parsed) => {
      // Any JSON-RPC message, read field by field.
      const message = /** @type {{ method?: unknown, id?: unknown }} */ (parsed);
      // An answer that came on a resumed stream: nothing left to wait for under its id.
      if (message && typeof message.method !== "string") connection.#resuming.delete(message.id);
      handlers.onLine(JSON.stringify(message));
    };
    transport.onerror = (error) => {
      const text = String(error?.message ?? error);
      process.stderr.write(`tool-stub mcp-proxy: ${url}: ${text}\n`);
      // The SDK gave up resuming a stream: what it was to carry will not come.
      if (/Maximum reconnection attempts/.test(text) && connection.#resuming.size) {
        const ids = [...connection.#resuming];
        connection.#resuming.clear();
        handlers.onStreamLost?.(ids, "dropped its stream and could not be reconnected");
      }
    };
    transport.onclose = () => connection.#end("closed the connection");
    await transport.start();
    connection.#transport = transport;
    return connection;
  }

  /** The started transport: a connection is used once `HttpConnection.open` has made it. */
  get #opened() {
    if (this.#transport === undefined) throw new Error("HttpConnection: use HttpConnection.open");
    return this.#transport;
  }

  /** The proxy's handlers, given to `HttpConnection.open`. */
  get #reporting() {
    if (this.#handlers === undefined) throw new Error("HttpConnection: use HttpConnection.open");
    return this.#handlers;
  }

  /**
   * fetch, with each response body watched (see the class comment).
   * @param {string | URL} input
   * @param {RequestInit} [init]
   * @returns {Promise<Response>}
   */
  async #fetch(input, init) {
    const response = await fetch(input, init);
    if (!response.body) return response;
    const ids = init?.method === "POST" ? requestIds(init.body) : [];
    const reader = response.body.getReader();
    let sawEventId = false;
    /** @param {unknown} [error] */
    const ended = (error) => {
      if (!ids.length) return;
      // After the SDK has handled the stream's last events (it parses them in later microtasks).
      setTimeout(() => {
        if (sawEventId && !error) {
          for (const id of ids) this.#resuming.add(id);
          return;
        }
        if (sawEventId) for (const id of ids) this.#resuming.add(id);
        else
          this.#reporting.onStreamLost?.(
            ids,
            error
              ? `dropped the connection (${String(caught(caught(error)?.cause)?.code ?? caught(error)?.message ?? error)})`
              : "ended its response stream",
          );
      }, 0);
    };
    const body = new ReadableStream({
      pull: async (controller) => {
        await this.#paused;
        let chunk;
        try {
          chunk = await reader.read();
        } catch (error) {
          controller.error(error);
          ended(error);
          return;
        }
        if (chunk.done) {
          controller.close();
          ended();
          return;
        }
        if (
          !sawEventId &&
          ids.length &&
          /(^|\n)id:/.test(Buffer.from(chunk.value).toString("latin1"))
        )
          sawEventId = true;
        controller.enqueue(chunk.value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }

  /** @param {string} how */
  #end(how) {
    if (this.#ended) return;
    this.#ended = true;
    this.#resumeReading();
    this.#reporting.onEnd(`the wrapped MCP server (${this.describe}) ${how}`);
  }

  /**
   * MCP over HTTP sends the negotiated version as a header on every later request.
   * @param {unknown} version
   */
  setProtocolVersion(version) {
    if (typeof version === "string") this.#opened.setProtocolVersion?.(version);
  }

  /**
   * @param {string} _line
   * @param {import("./framing.js").JsonRpcMessage} message
   */
  send(_line, message) {
    // A request answered on a new stream is not resuming.
    if (message && "id" in message && "method" in message) this.#resuming.delete(message.id);
    // Passed on as the host sent it: the SDK's transport only serializes it.
    const sent = /** @type {import("@modelcontextprotocol/sdk/types.js").JSONRPCMessage} */ (
      /** @type {unknown} */ (message)
    );
    this.#opened.send(sent).catch((error) => this.#reporting.onSendError(message, error));
  }

  /** Stops reading response bodies until resume() (the host's pipe is full). */
  pause() {
    if (this.#paused || this.#ended) return;
    this.#paused = new Promise((resolve) => {
      this.#resumeReading = resolve;
    });
  }

  resume() {
    this.#paused = undefined;
    this.#resumeReading();
  }

  async close() {
    this.resume();
    try {
      await this.#opened.terminateSession?.();
    } catch {
      // A server that does not end sessions (405) or is gone: nothing left to end.
    }
    await this.#opened.close();
  }
}

/**
 * The ids of the requests in a POST body (one JSON-RPC message or a batch).
 * @param {unknown} body
 * @returns {unknown[]}
 */
function requestIds(body) {
  if (typeof body !== "string") return [];
  try {
    const parsed = JSON.parse(body);
    /** @type {({ method?: unknown, id?: unknown } | null)[]} JSON values, read field by field */
    const messages = Array.isArray(parsed) ? parsed : [parsed];
    return messages
      .filter((m) => m && typeof m.method === "string" && m.id !== undefined && m.id !== null)
      .map((m) => m?.id);
  } catch {
    return [];
  }
}
