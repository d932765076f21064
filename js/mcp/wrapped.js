// The wrapped MCP server, as the proxy sees it: something to send message lines to, which calls
// back with the lines it sends, its non-protocol output, and its end. Two transports: a child
// process on stdio (no SDK: our own framing keeps lines byte for byte) and Streamable HTTP (the
// SDK's client transport, loaded only for --url: sessions, SSE streams and resumption are its job).

import { spawn } from "node:child_process";
import { readLines } from "./framing.js";

const STDERR_TAIL = 2000;
const GRACE_MS = 2000;

/**
 * A server started as `command args` with its stdin and stdout as the MCP connection. Its stderr
 * goes to ours (the host logs it), and its last lines are kept to explain a crash.
 * Handlers: onLine(text), onEnd(description).
 */
export class StdioConnection {
  #child;
  #stderrTail = "";
  #ended = false;
  #handlers;

  constructor(command, args, handlers) {
    this.#handlers = handlers;
    this.describe = [command, ...args].join(" ");
    this.#child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"] });
    this.#child.on("error", (error) =>
      this.#end(`could not be started (${error.code ?? error.message})`),
    );
    this.#child.stdin.on("error", () => {}); // a write after it died: its exit reports that
    this.#child.stderr.on("data", (chunk) => {
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

  #end(how) {
    if (this.#ended) return;
    this.#ended = true;
    const tail = this.#stderrTail.trim();
    this.#handlers.onEnd(
      `the wrapped MCP server (${this.describe}) ${how}${tail ? `; its stderr ended with: ${tail.slice(-500)}` : ""}`,
    );
  }

  send(line) {
    if (!this.#ended && this.#child.stdin.writable) this.#child.stdin.write(`${line}\n`);
  }

  /** Closes its stdin (MCP's stdio shutdown), then SIGTERM, then SIGKILL, each after a grace period. */
  async close() {
    const child = this.#child;
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    const within = (ms) =>
      Promise.race([exited.then(() => true), new Promise((r) => setTimeout(r, ms, false).unref())]);
    child.stdin.end();
    if (await within(GRACE_MS)) return;
    child.kill("SIGTERM");
    if (await within(GRACE_MS)) return;
    child.kill("SIGKILL");
    await exited;
  }
}

/**
 * A server at a Streamable HTTP endpoint, through the SDK's client transport. The transport parses
 * what it receives, so lines are re-serialized. `send` never throws: a request the server could
 * not take (refused connection, HTTP error) is reported through onSendError(message, error).
 */
export class HttpConnection {
  #transport;
  #handlers;
  #ended = false;

  static async open(url, headers, handlers) {
    let module;
    try {
      module = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
    } catch (error) {
      throw new Error(
        `--url needs the MCP SDK: npm install @modelcontextprotocol/sdk (${error.message})`,
      );
    }
    const connection = new HttpConnection();
    connection.describe = url;
    connection.#handlers = handlers;
    const transport = new module.StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers },
    });
    transport.onmessage = (message) => handlers.onLine(JSON.stringify(message));
    transport.onerror = (error) =>
      process.stderr.write(`tool-stub mcp-proxy: ${url}: ${error?.message ?? error}\n`);
    transport.onclose = () => connection.#end("closed the connection");
    await transport.start();
    connection.#transport = transport;
    return connection;
  }

  #end(how) {
    if (this.#ended) return;
    this.#ended = true;
    this.#handlers.onEnd(`the wrapped MCP server (${this.describe}) ${how}`);
  }

  /** MCP over HTTP sends the negotiated version as a header on every later request. */
  setProtocolVersion(version) {
    if (typeof version === "string") this.#transport.setProtocolVersion?.(version);
  }

  send(line, message) {
    this.#transport.send(message).catch((error) => this.#handlers.onSendError(message, error));
  }

  async close() {
    try {
      await this.#transport.terminateSession?.();
    } catch {
      // A server that does not end sessions (405) or is gone: nothing left to end.
    }
    await this.#transport.close();
  }
}
