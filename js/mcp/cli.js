// The `tool-stub mcp` and `tool-stub mcp-proxy` commands: their options, the ToolStub they serve,
// and the wrapped server's connection. Loaded by the CLI for these commands only.

import { readFileSync } from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { ToolStub, NodeFsStore, ToolStubError } from "../node.js";
import { caught } from "../stores/errors.js";
import { TOKEN_FLAG_OPTIONS, tokenConfigOf } from "../token-flags.js";

export const MCP_USAGE = `  mcp [--store DIR] [--session S] [--config FILE] [--tool-prefix P]
                                an MCP server (stdio) with the retrieval tools over the store
  mcp-proxy [options] -- COMMAND [ARGS...]
  mcp-proxy [options] --url URL [--header "Name: value"]...
                                an MCP server (stdio) that runs COMMAND as an MCP server (or
                                connects to URL over Streamable HTTP), forwards everything, stores
                                its oversized tool results and shows stubs, and adds the
                                retrieval tools. Options: --store DIR --session S --config FILE
                                (JSON: the library's config) --threshold N --preview-chars N
                                --turn-budget N --failure-mode M --tool-prefix P --timeout-ms N
                                --budget-unit chars|tokens --threshold-tokens N
                                --turn-budget-tokens N --tokenizer o200k|cl100k (budgets in
                                tokens: a token flag alone means tokens)
                                --enhanced (enhanced synopses: config.synopsisMode "enhanced")
                                --accepts-refs NAME[,NAME...] (wrapped tools that take refs of
                                stored results as arguments: never a tool that sends data off
                                the machine) --max-resolved-chars N`;

/** @type {import("node:util").ParseArgsOptionsConfig} */
const OPTIONS = {
  store: { type: "string", default: ".tool-stub" },
  session: { type: "string", default: "default" },
  config: { type: "string" },
  threshold: { type: "string" },
  "preview-chars": { type: "string" },
  "turn-budget": { type: "string" },
  "failure-mode": { type: "string" },
  enhanced: { type: "boolean" },
  "tool-prefix": { type: "string" },
  "timeout-ms": { type: "string", default: "300000" },
  url: { type: "string" },
  header: { type: "string", multiple: true, default: [] },
  "accepts-refs": { type: "string", multiple: true, default: [] },
  "max-resolved-chars": { type: "string" },
  help: { type: "boolean", default: false },
  ...TOKEN_FLAG_OPTIONS,
};

/**
 * The flags as OPTIONS declares them (parseArgs types them by a config it cannot see as literals).
 * @typedef {{
 *   store: string,
 *   session: string,
 *   config?: string,
 *   threshold?: string,
 *   "preview-chars"?: string,
 *   "turn-budget"?: string,
 *   "failure-mode"?: string,
 *   enhanced?: boolean,
 *   "tool-prefix"?: string,
 *   "timeout-ms": string,
 *   url?: string,
 *   header: string[],
 *   "accepts-refs": string[],
 *   "max-resolved-chars"?: string,
 *   help: boolean,
 *   "budget-unit"?: string,
 *   "threshold-tokens"?: string,
 *   "turn-budget-tokens"?: string,
 *   tokenizer?: string,
 * }} McpFlags
 */

/** @param {string} message */
function invalid(message) {
  return new ToolStubError("INVALID_ARGUMENT", message);
}

/**
 * @param {string | undefined} value
 * @param {string} name
 */
function integer(value, name) {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw invalid(`--${name} takes a non-negative integer (got ${value})`);
  return Number(value);
}

/**
 * The library config: the --config file, then the flags over it (unset flags change nothing).
 * @param {McpFlags} values
 * @returns {import("../index.js").ToolStubConfig}
 */
function configOf(values) {
  /** @type {unknown} the --config file's JSON */
  let config = {};
  if (values.config !== undefined) {
    try {
      config = JSON.parse(readFileSync(values.config, "utf8"));
    } catch (error) {
      throw invalid(`--config ${values.config}: ${caught(error)?.message}`);
    }
    if (config === null || typeof config !== "object" || Array.isArray(config))
      throw invalid(`--config ${values.config} must hold a JSON object`);
  }
  const prefix = values["tool-prefix"];
  const flags = {
    thresholdChars: integer(values.threshold, "threshold"),
    previewChars: integer(values["preview-chars"], "preview-chars"),
    assistantTurnInlineBudgetChars: integer(values["turn-budget"], "turn-budget"),
    failureMode: values["failure-mode"],
    synopsisMode: values.enhanced ? "enhanced" : undefined,
    ...tokenConfigOf(
      values,
      ["threshold", "turn-budget"],
      /** @type {{ budgetUnit?: unknown }} */ (config).budgetUnit,
    ),
    toolNames:
      prefix === undefined
        ? undefined
        : {
            read: `${prefix}read`,
            search: `${prefix}search`,
            list: `${prefix}list`,
            searchAll: `${prefix}search_all`,
          },
  };
  // The object the check above let through; the library checks its fields.
  const fromFile = /** @type {object} */ (config);
  return {
    ...fromFile,
    ...Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined)),
  };
}

/**
 * The wrapped server's environment: ours without what `npm exec` (npx) sets for its own package.
 * Run as `npx -p tool-stub tool-stub mcp-proxy -- npx -y SERVER`, the outer npx leaves
 * npm_config_package=tool-stub behind, and the inner npx would then look for SERVER's command
 * in tool-stub (exit 127).
 * @param {NodeJS.ProcessEnv} env
 */
export function childEnv(env) {
  const { npm_config_package, npm_config_call, ...rest } = env;
  return rest;
}

/** @param {string[]} list */
function headersOf(list) {
  return Object.fromEntries(
    list.map((header) => {
      const colon = header.indexOf(":");
      if (colon < 1) throw invalid(`--header takes "Name: value" (got ${header})`);
      return [header.slice(0, colon).trim(), header.slice(colon + 1).trim()];
    }),
  );
}

/**
 * Runs `tool-stub mcp ...` or `tool-stub mcp-proxy ...` (argv without "tool-stub"); the exit code.
 * @param {string[]} argv
 */
export async function runMcpCommand(argv) {
  const [command, ...rest] = argv;
  const dashes = rest.indexOf("--");
  const optionArgs = dashes === -1 ? rest : rest.slice(0, dashes);
  const wrapped = dashes === -1 ? [] : rest.slice(dashes + 1);
  const parsed = parseArgs({
    args: optionArgs,
    options: OPTIONS,
    allowPositionals: true,
  });
  // The flags as OPTIONS declares them: strings and booleans, checked where they are used.
  const values = /** @type {McpFlags} */ (parsed.values);
  const positionals = parsed.positionals;
  if (values.help) {
    process.stdout.write(`Usage: tool-stub\n${MCP_USAGE}\n`);
    return 0;
  }
  if (positionals.length)
    throw invalid(
      `unexpected ${positionals.join(" ")}: the wrapped server's command goes after --`,
    );
  const toolStub = new ToolStub({
    store: new NodeFsStore(values.store),
    sessionId: values.session,
    config: configOf(values),
  });
  process.stderr.write(
    `tool-stub ${command}: store ${path.resolve(values.store)}, session ${values.session}\n`,
  );

  if (command === "mcp") {
    if (wrapped.length || values.url !== undefined)
      throw invalid("tool-stub mcp serves the store only: use mcp-proxy to wrap a server");
    const { runRetrievalServer } = await import("./server.js");
    await runRetrievalServer(toolStub);
    return 0;
  }
  if (wrapped.length > 0 === (values.url !== undefined)) {
    throw invalid(
      "mcp-proxy needs the wrapped server: -- COMMAND [ARGS...] or --url URL (one of them)",
    );
  }
  // A host that stops the proxy by a signal instead of closing stdin (or a terminal that hangs
  // up): the server's process group is ended first, within the host's own grace.
  const stop = new AbortController();
  /** @type {import("./wrapped.js").StdioConnection | import("./wrapped.js").HttpConnection | undefined} */
  let connection;
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) {
    process.once(signal, () => {
      if (connection && "kill" in connection) connection.kill();
      stop.abort();
    });
  }
  // However the proxy exits, nothing of the server outlives it.
  process.once("exit", () => {
    if (connection && "killNow" in connection) connection.killNow();
  });
  const { runProxy } = await import("./proxy.js");
  const { StdioConnection, HttpConnection } = await import("./wrapped.js");
  await runProxy({
    toolStub,
    signal: stop.signal,
    // Always a number: the option has a default.
    timeoutMs: /** @type {number} */ (integer(values["timeout-ms"], "timeout-ms")),
    refTools: values["accepts-refs"].flatMap((names) => names.split(",")).filter(Boolean),
    maxResolvedChars: integer(values["max-resolved-chars"], "max-resolved-chars"),
    /** @param {import("./index.js").ConnectionHandlers} handlers */
    connect: async (handlers) => {
      connection =
        values.url !== undefined
          ? await HttpConnection.open(values.url, headersOf(values.header), handlers)
          : new StdioConnection(wrapped[0], wrapped.slice(1), handlers, {
              env: childEnv(process.env),
            });
      return connection;
    },
  });
  // Done: the server is stopped and every answer written. What may still hold the event loop (an
  // HTTP keep-alive socket, stdin after a signal) must not keep the process.
  setTimeout(() => process.exit(process.exitCode ?? 0), 500).unref();
  return 0;
}
