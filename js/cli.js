#!/usr/bin/env node
// The `tool-stub` command: stub, externalize, read, search and list tool outputs in a
// filesystem store (./.tool-stub unless --store says otherwise).

import { createReadStream, readdirSync, existsSync, statSync, lstatSync } from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { makePreview, ToolStub, ToolStubError, NodeFsStore } from "./node.js";
import { runtime } from "./node-runtime.js";
import { caught } from "./stores/errors.js";
import { RESULTS_DIR } from "./core-constants.js";
import { TOKEN_FLAG_OPTIONS, tokenConfigOf } from "./token-flags.js";

const USAGE = `Usage: tool-stub <command> [options]

Commands:
  stub [FILE|-]                 print the stub of an output without storing it
  externalize [FILE|-]          store an output and print its stub and ref
      --session S --tool-name N [--tool-id I] [--mime M] [--threshold N]
      [--budget-unit chars|tokens] [--threshold-tokens N] [--turn-budget-tokens N]
      [--tokenizer o200k|cl100k]  (token budgets: a token flag alone means tokens)
      (both) --enhanced          enhanced synopses (config.synopsisMode "enhanced")
  read REF [--offset N] [--limit N]
  read REF --line N [--lines N] [--column N] [--numbered] [--max-chars N]
  read REF --pointer /json/pointer [--max-chars N]
  read REF --rows START[:COUNT] [--max-chars N]
  search REF QUERY [--limit N] [--context N | --context-lines N] [--regex] [-i] [-w]
  search-all QUERY [--tool-name N] [--limit N] [--per-result N] [--regex] [-i] [-w]
                                (without --session: every session's results)
  list [--tool-name N] [--limit N]      (without --session: every session's results)
  delete REF                    delete one stored result
  delete --all                  delete every result of the session
  usage                         results, chars and bytes the session stores
                                (without --session: each session's, and the total)
  prune [--max-results N] [--max-bytes N] [--max-age-ms N]
                                delete the oldest results beyond these limits
  mcp, mcp-proxy                MCP server and proxy (tool-stub mcp-proxy --help)

Options everywhere:
  --store DIR      the filesystem store (default ./.tool-stub)
  --session S      the session (default "default"; a REF's own session for read,
                   search and delete)
  --json           machine-readable output (errors too, on stderr)
  --help           this text`;

/** @type {import("node:util").ParseArgsOptionsConfig} */
const OPTIONS = {
  store: { type: "string", default: ".tool-stub" },
  session: { type: "string" },
  "tool-name": { type: "string" },
  "tool-id": { type: "string" },
  mime: { type: "string", default: "text/plain" },
  threshold: { type: "string" },
  offset: { type: "string" },
  limit: { type: "string" },
  context: { type: "string" },
  "context-lines": { type: "string" },
  line: { type: "string" },
  lines: { type: "string" },
  column: { type: "string" },
  numbered: { type: "boolean" },
  "max-chars": { type: "string" },
  pointer: { type: "string" },
  rows: { type: "string" },
  regex: { type: "boolean" },
  "ignore-case": { type: "boolean", short: "i" },
  "whole-word": { type: "boolean", short: "w" },
  "per-result": { type: "string" },
  "preview-chars": { type: "string" },
  enhanced: { type: "boolean" },
  json: { type: "boolean", default: false },
  all: { type: "boolean", default: false },
  "max-results": { type: "string" },
  "max-bytes": { type: "string" },
  "max-age-ms": { type: "string" },
  help: { type: "boolean", default: false },
  ...TOKEN_FLAG_OPTIONS,
};

/**
 * The flags as OPTIONS declares them (parseArgs types them by a config it cannot see as literals).
 * @typedef {{
 *   store: string,
 *   session?: string,
 *   "tool-name"?: string,
 *   "tool-id"?: string,
 *   mime: string,
 *   threshold?: string,
 *   offset?: string,
 *   limit?: string,
 *   context?: string,
 *   "context-lines"?: string,
 *   line?: string,
 *   lines?: string,
 *   column?: string,
 *   numbered?: boolean,
 *   "max-chars"?: string,
 *   pointer?: string,
 *   rows?: string,
 *   regex?: boolean,
 *   "ignore-case"?: boolean,
 *   "whole-word"?: boolean,
 *   "per-result"?: string,
 *   "preview-chars"?: string,
 *   enhanced?: boolean,
 *   json: boolean,
 *   all: boolean,
 *   "max-results"?: string,
 *   "max-bytes"?: string,
 *   "max-age-ms"?: string,
 *   help: boolean,
 *   "budget-unit"?: string,
 *   "threshold-tokens"?: string,
 *   "turn-budget-tokens"?: string,
 *   tokenizer?: string,
 * }} CliFlags
 */
/** @typedef {import("./index.js").LineReadResult | import("./index.js").JsonPointerReadResult | import("./index.js").RowsReadResult} StructuredRead */
/** @typedef {import("./index.js").SearchAllResult} SearchAllResult */

/**
 * @param {string | undefined} value
 * @param {string} name
 */
function integer(value, name) {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value))
    throw new ToolStubError("INVALID_ARGUMENT", `--${name} takes an integer (got ${value})`);
  return Number(value);
}

/**
 * The options that are set (a read takes the options of one mode only; config keys must be known values).
 * @template {object} T
 * @param {T} options
 * @returns {Partial<T>}
 */
function withoutUnset(options) {
  return /** @type {Partial<T>} */ (
    Object.fromEntries(
      Object.entries(/** @type {object} */ (options)).filter(([, value]) => value !== undefined),
    )
  );
}

/**
 * The search flags shared by search and search-all.
 * @param {CliFlags} values
 */
function grepFlags(values) {
  return {
    regex: values.regex,
    ignoreCase: values["ignore-case"],
    wholeWord: values["whole-word"],
    contextLines: integer(values["context-lines"], "context-lines"),
  };
}

/**
 * The header line of a line, pointer or rows read.
 * @param {StructuredRead} result
 */
function describeRead(result) {
  if (result.mode === "lines") {
    const next = result.next
      ? `; next: --line ${result.next.line} --column ${result.next.column}`
      : "";
    return `lines ${result.startLine}..${result.endLine} of ${result.totalLines}${next}`;
  }
  if (result.mode === "jsonPointer") {
    return `${result.pointer || "(root)"}: ${result.type} of size ${result.size}${result.truncated ? `, ${result.totalCuts} cut(s)` : ""}`;
  }
  return `rows ${result.startRow}..${result.endRow} of ${result.totalRows}${result.hasMore ? " (more)" : ""}`;
}

/**
 * The text of FILE (stdin for "-" or none), read as a stream and refused before decoding when it
 * is over `maxBytes` (TOO_LARGE: not a string too long for V8, not the whole of it in memory), or
 * when it is not UTF-8 (a binary file: INVALID_ARGUMENT, never stored as U+FFFD text).
 * @param {string | undefined} file
 * @param {number} maxBytes
 */
async function readInput(file, maxBytes) {
  const fromStdin = file === undefined || file === "-";
  const stream = fromStdin ? process.stdin : createReadStream(file);
  /** @type {Buffer[]} */
  const chunks = [];
  let size = 0;
  try {
    for await (const chunk of /** @type {AsyncIterable<Buffer>} no encoding set */ (stream)) {
      size += chunk.length;
      if (size > maxBytes) {
        throw new ToolStubError(
          "TOO_LARGE",
          `the input is over ${maxBytes} bytes, the most one output may hold (maxOutputBytes); nothing was stored`,
        );
      }
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof ToolStubError) throw error;
    throw new ToolStubError(
      "INVALID_ARGUMENT",
      `cannot read ${fromStdin ? "stdin" : "the input file"}: ${caught(error)?.code ?? caught(error)?.message ?? error}`,
    );
  } finally {
    stream.destroy();
  }
  const bytes = Buffer.concat(chunks, size);
  try {
    // fatal: a byte that is not UTF-8 is refused, not turned into U+FFFD; a BOM is content.
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new ToolStubError(
      "INVALID_ARGUMENT",
      `the input is not UTF-8 text (a binary file?); tool-stub stores text exactly and will not store it as U+FFFD replacement characters. Encode it first (for example with base64) and store that`,
    );
  }
}

/**
 * `--limit -1` as `--limit=-1`: parseArgs takes a value that starts with "-" for an option, and
 * -1 is a value the API takes (read to the end).
 * @param {string[]} argv
 */
function negativeValuesJoined(argv) {
  const valued = new Set(
    Object.entries(OPTIONS)
      .filter(([, o]) => o.type === "string")
      .map(([name]) => `--${name}`),
  );
  const joined = [];
  for (let i = 0; i < argv.length; i++) {
    if (valued.has(argv[i]) && /^-\d+$/.test(argv[i + 1] ?? ""))
      joined.push(`${argv[i]}=${argv[++i]}`);
    else joined.push(argv[i]);
  }
  return joined;
}

/**
 * Refuses a --store path that cannot be a store's folder (a regular file, a symlink loop, a path
 * through a file) with one STORE_FAILED naming the path and why. A path that does not exist yet
 * is a store: its folder is made on the first save.
 * @param {string} storeDir
 */
function checkStoreDir(storeDir) {
  let stat;
  try {
    stat = statSync(storeDir);
  } catch (error) {
    if (caught(error)?.code === "ENOENT") {
      // A symlink to nothing cannot be made into a folder either.
      if (lstatSync(storeDir, { throwIfNoEntry: false })?.isSymbolicLink())
        throw notAStore(storeDir, "a symbolic link to nothing");
      return;
    }
    /** @type {{ [code: string]: string | undefined }} */
    const reasons = {
      ELOOP: "a symbolic link loop",
      ENOTDIR: "a path through a file",
      EACCES: "not accessible (permission denied)",
      ENAMETOOLONG: "a name too long",
    };
    const why = reasons[String(caught(error)?.code)];
    throw notAStore(
      storeDir,
      why ?? `not readable (${caught(error)?.code ?? caught(error)?.message})`,
    );
  }
  if (!stat.isDirectory()) throw notAStore(storeDir, "a file, not a folder");
}

/**
 * @param {string} storeDir
 * @param {string} why
 */
function notAStore(storeDir, why) {
  return new ToolStubError(
    "STORE_FAILED",
    `--store ${storeDir} cannot be a store's folder: it is ${why}`,
  );
}

/**
 * The session folders of a filesystem store: the folders holding a tool-results folder, sorted.
 * @param {string} storeDir
 */
function storedSessions(storeDir) {
  if (!existsSync(storeDir)) return [];
  return readdirSync(storeDir, { withFileTypes: true })
    .filter(
      (entry) => entry.isDirectory() && existsSync(path.join(storeDir, entry.name, RESULTS_DIR)),
    )
    .map((entry) => entry.name)
    .sort();
}

/**
 * The session a REF names (`<session uri>/tool-results/<id>`, the session uri ending in the
 * session id): `{ sessionId, sessionUri }`, or null for a bare id.
 * @param {string} ref
 */
function sessionOfRef(ref) {
  const match = /^(.+\/([^/]+))\/tool-results\/[^/]+$/.exec(ref ?? "");
  return match && /^[a-z][a-z0-9+.-]*:\/\//i.test(ref)
    ? { sessionUri: match[1], sessionId: match[2] }
    : null;
}

/**
 * A read that starts past the end of the output: nothing to show, and the caller asked for something.
 * @param {string} message
 */
function pastTheEnd(message) {
  return new ToolStubError("INVALID_ARGUMENT", message);
}

/**
 * @param {string[]} positionals
 * @param {number} count
 * @param {string} what
 */
function needs(positionals, count, what) {
  if (positionals.length < count)
    throw new ToolStubError("INVALID_ARGUMENT", `missing ${what}\n\n${USAGE}`);
}

/**
 * @param {string[]} argv
 * @returns {Promise<number>}
 */
async function main(argv) {
  // The MCP commands have their own options and load the MCP SDK: only for them (js/mcp/cli.js).
  if (argv[0] === "mcp" || argv[0] === "mcp-proxy")
    return (await import("./mcp/cli.js")).runMcpCommand(argv);
  const parsed = parseArgs({
    args: negativeValuesJoined(argv),
    options: OPTIONS,
    allowPositionals: true,
  });
  const values = /** @type {CliFlags} */ (parsed.values);
  const positionals = parsed.positionals;
  const [command, ...args] = positionals;
  if (values.help || command === undefined) {
    console.log(USAGE);
    return command === undefined && !values.help ? 2 : 0;
  }
  if (command !== "stub") checkStoreDir(values.store);
  /**
   * @param {string} text
   * @param {unknown} json
   */
  const print = (text, json) => console.log(values.json ? JSON.stringify(json, null, 2) : text);
  const config = withoutUnset({
    thresholdChars: integer(values.threshold, "threshold"),
    maxResults: integer(values["max-results"], "max-results"),
    maxBytes: integer(values["max-bytes"], "max-bytes"),
    maxAgeMs: integer(values["max-age-ms"], "max-age-ms"),
    synopsisMode: values.enhanced ? /** @type {const} */ ("enhanced") : undefined,
    ...tokenConfigOf(values, ["threshold"]),
  });
  const session = values.session ?? "default";
  const toolStub = (
    /** @type {string} */ sessionId = session,
    /** @type {string | undefined} */ sessionUri = undefined,
  ) =>
    new ToolStub({
      store: new NodeFsStore(values.store),
      sessionId,
      ...(sessionUri ? { sessionUri } : {}),
      config,
    });
  /**
   * The ToolStub of a REF's session: the ref's own, unless --session names another (refused).
   * @param {string} ref
   */
  const toolStubOf = (ref) => {
    const own = sessionOfRef(ref);
    if (!own) return toolStub();
    if (values.session !== undefined && values.session !== own.sessionId) {
      throw new ToolStubError(
        "INVALID_ARGUMENT",
        `${ref} is a result of session ${own.sessionId}, not of --session ${values.session}; leave --session out`,
      );
    }
    return toolStub(own.sessionId, own.sessionUri);
  };
  // The input limit is the core's maxOutputBytes (the config's, with its default).
  /** @param {string | undefined} file */
  const input = async (file) => {
    /** @type {{ maxOutputBytes: number }} the core's resolved config */
    const resolved = JSON.parse(
      /** @type {string} */ (runtime.call("resolveConfig", JSON.stringify(config))),
    );
    return readInput(file, resolved.maxOutputBytes);
  };

  switch (command) {
    case "stub": {
      const output = await input(args[0]);
      const { synopsis, stub } = makePreview(output, {
        mimeType: values.mime,
        toolName: values["tool-name"],
        previewChars: integer(values["preview-chars"], "preview-chars") ?? 2000,
        ...(values.enhanced ? { synopsisMode: "enhanced" } : {}),
      });
      print(stub, { synopsis, stub });
      return 0;
    }
    case "externalize": {
      const output = await input(args[0]);
      const ts = toolStub();
      // The id is tr_cli_<sha256[:16]>: the content already names it (the same output, the same id).
      const toolId = values["tool-id"] ?? "cli";
      const [part] = await ts.externalize(
        [{ toolId, toolName: values["tool-name"] ?? "tool", output, mimeType: values.mime }],
        { messageId: `cli_${Date.now()}` },
      );
      if (part.externalizationError) {
        const code = /^TOO_LARGE\b/.test(part.externalizationError) ? "TOO_LARGE" : "STORE_FAILED";
        throw new ToolStubError(code, part.externalizationError);
      }
      const kept =
        config.budgetUnit === "tokens"
          ? "its tokens are within the threshold; pass --threshold-tokens 0 to store it anyway"
          : `${part.output.length} chars is under the threshold; pass --threshold 0 to store it anyway`;
      const text = part.outputRef
        ? `${part.output}\n\nref: ${part.outputRef}`
        : `${part.output}\n\n(kept inline: ${kept})`;
      print(text, part);
      return 0;
    }
    case "read": {
      needs(args, 1, "REF");
      /** @type {(keyof CliFlags)[]} */
      const modes = ["line", "lines", "column", "numbered", "pointer", "rows"];
      const structured = modes.some((k) => values[k] !== undefined);
      if (structured) {
        const [start, count] = (values.rows ?? "").split(":");
        // One of the structured reads, whichever mode the options name.
        const result = /** @type {StructuredRead} */ (
          /** @type {unknown} */ (
            await toolStubOf(args[0]).read(
              args[0],
              withoutUnset({
                line: integer(
                  values.line ?? (values.lines !== undefined || values.numbered ? "1" : undefined),
                  "line",
                ),
                lines: integer(values.lines, "lines"),
                column: integer(values.column, "column"),
                numbered: values.numbered,
                jsonPointer: values.pointer,
                rows:
                  values.rows === undefined
                    ? undefined
                    : { start: integer(start, "rows"), count: integer(count || undefined, "rows") },
                maxChars: integer(values["max-chars"], "max-chars"),
                // Passed on so that mixing them with a line/pointer/rows read is reported.
                offset: integer(values.offset, "offset"),
                limit: integer(values.limit, "limit"),
              }),
            )
          )
        );
        if (result.mode === "lines" && result.startLine > Math.max(result.totalLines, 1)) {
          throw pastTheEnd(
            `--line ${result.startLine} is past the end: ${result.toolResultId} has ${result.totalLines} line(s)`,
          );
        }
        if (result.mode === "rows" && result.startRow > result.totalRows) {
          throw pastTheEnd(
            `--rows ${result.startRow} is past the end: ${result.toolResultId} has ${result.totalRows} row(s)`,
          );
        }
        print(`[${result.toolResultId} ${describeRead(result)}]\n${result.content}`, result);
        return 0;
      }
      const result = await toolStubOf(args[0]).read(args[0], {
        offset: integer(values.offset, "offset"),
        limit: integer(values.limit, "limit"),
      });
      if (result.offset > 0 && result.offset >= result.totalChars) {
        throw pastTheEnd(
          `--offset ${result.offset} is past the end: ${result.toolResultId} has ${result.totalChars} char(s) (offsets 0..${Math.max(result.totalChars - 1, 0)})`,
        );
      }
      const shown = [...result.content].length;
      const more = result.hasMore ? `\n[... more from offset ${result.offset + shown}]` : "";
      print(
        `[${result.toolResultId} chars ${result.offset}..${result.offset + shown} of ${result.totalChars}]\n${result.content}${more}`,
        result,
      );
      return 0;
    }
    case "search": {
      needs(args, 2, "REF and QUERY");
      const result = await toolStubOf(args[0]).search(args[0], {
        query: args[1],
        limit: integer(values.limit, "limit"),
        contextChars: integer(values.context, "context"),
        ...grepFlags(values),
      });
      const lines = result.matches.map(
        (m) => `${m.line}:${m.column} @${m.offset}: ${m.snippet.replace(/\s+/g, " ")}`,
      );
      const all =
        result.matches.length < result.totalMatches ? ` (${result.totalMatches} in all)` : "";
      print(
        `${result.matches.length} match(es) in ${result.toolResultId}${all}\n${lines.join("\n")}`,
        result,
      );
      return 0;
    }
    case "search-all": {
      needs(args, 1, "QUERY");
      const options = {
        query: args[0],
        toolName: values["tool-name"],
        limit: integer(values.limit, "limit"),
        perResult: integer(values["per-result"], "per-result"),
        contextChars: integer(values.context, "context"),
        ...grepFlags(values),
      };
      /** @param {SearchAllResult} result */
      const describe = (result) => {
        const blocks = result.results.map((r) => {
          const hits = r.matches.map(
            (m) => `  ${m.line}:${m.column}: ${m.snippet.replace(/\s+/g, " ")}`,
          );
          return `${r.ref}  ${r.toolName}  ${r.totalMatches} match(es)\n${hits.join("\n")}`;
        });
        return `${result.totalMatches} match(es) in ${result.totalResults} result(s)\n${blocks.join("\n")}`;
      };
      // Like list and usage: without --session, every session's results, session by session.
      if (values.session === undefined) {
        /** @type {({ sessionId: string } & SearchAllResult)[]} */
        const sessions = [];
        for (const sessionId of storedSessions(values.store))
          sessions.push({ sessionId, ...(await toolStub(sessionId).searchAll(options)) });
        const text = sessions.map((s) => `session ${s.sessionId}: ${describe(s)}`).join("\n\n");
        print(text || `(no sessions in ${values.store})`, { sessions });
        return 0;
      }
      const result = await toolStub().searchAll(options);
      print(describe(result), result);
      return 0;
    }
    case "list": {
      const options = { toolName: values["tool-name"], limit: integer(values.limit, "limit") };
      /** @param {import("./index.js").ToolResultRecord[]} records */
      const describe = (records) =>
        records.map(
          (r) => `${r.storage_uri}  ${r.tool_name}  ${r.synopsis_kind}  ${r.original_chars} chars`,
        );
      if (values.session === undefined) {
        /** @type {({ sessionId: string } & Awaited<ReturnType<import("./index.js").ToolStub["list"]>>)[]} */
        const sessions = [];
        for (const sessionId of storedSessions(values.store)) {
          sessions.push({ sessionId, ...(await toolStub(sessionId).list(options)) });
        }
        const blocks = sessions.map((s) =>
          [
            `session ${s.sessionId}: ${s.toolResults.length} result(s)`,
            ...describe(s.toolResults),
          ].join("\n"),
        );
        print(blocks.length ? blocks.join("\n\n") : `(no sessions in ${values.store})`, {
          sessions,
        });
        return 0;
      }
      const result = await toolStub().list(options);
      const lines = describe(result.toolResults);
      print(
        lines.length ? lines.join("\n") : `(no stored results in session ${values.session})`,
        result,
      );
      return 0;
    }
    case "delete": {
      if (values.all) {
        await toolStub().deleteSession();
        print(`deleted every result of session ${session}`, { deleted: "all", sessionId: session });
        return 0;
      }
      needs(args, 1, "REF (or --all)");
      const result = await toolStubOf(args[0]).delete(args[0]);
      print(result.deleted ? `deleted ${args[0]}` : `nothing stored at ${args[0]}`, result);
      return result.deleted ? 0 : 3;
    }
    case "usage": {
      if (values.session === undefined) {
        /** @type {{ sessionId: string, results: number, chars: number, bytes: number }[]} */
        const sessions = [];
        for (const sessionId of storedSessions(values.store))
          sessions.push({ sessionId, ...(await toolStub(sessionId).usage()) });
        /** @type {("results" | "chars" | "bytes")[]} */
        const measures = ["results", "chars", "bytes"];
        const total = measures.map((k) => [k, sessions.reduce((sum, s) => sum + s[k], 0)]);
        const lines = sessions.map(
          (s) => `${s.sessionId}: ${s.results} result(s), ${s.chars} chars, ${s.bytes} bytes`,
        );
        const totals = Object.fromEntries(total);
        lines.push(
          `${sessions.length} session(s): ${totals.results} result(s), ${totals.chars} chars, ${totals.bytes} bytes`,
        );
        print(lines.join("\n"), { sessions, total: totals });
        return 0;
      }
      const usage = await toolStub().usage();
      print(
        `${usage.results} result(s), ${usage.chars} chars, ${usage.bytes} bytes in session ${values.session}`,
        usage,
      );
      return 0;
    }
    case "prune": {
      const result = await toolStub().prune();
      print(
        result.deleted.length ? `deleted ${result.deleted.join(", ")}` : "nothing to prune",
        result,
      );
      return 0;
    }
    default:
      throw new ToolStubError("INVALID_ARGUMENT", `unknown command "${command}"\n\n${USAGE}`);
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  const code = error instanceof ToolStubError ? error.code : (caught(error)?.code ?? "ERROR");
  if (process.argv.includes("--json"))
    console.error(
      JSON.stringify({ error: { code, message: String(caught(error)?.message ?? error) } }),
    );
  else console.error(`tool-stub: ${code}: ${caught(error)?.message ?? error}`);
  process.exitCode = error instanceof ToolStubError && error.code === "NOT_FOUND" ? 3 : 2;
}
