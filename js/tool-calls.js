// A model's calls of the retrieval tools: their definitions in the shape an SDK takes, and
// `handleToolCall`, which the core validates (tool names, arguments, bounds) and which runs as the
// ToolStub's own read/search/searchAll/list, answering errors as values the model reads.

import {
  requireOptions,
  checkKnownKeys,
  optionalString,
  callerJson,
  invalid,
} from "./arguments.js";
import { asToolStubError, caught } from "./stores/errors.js";
import { listRecords } from "./session-results.js";

/** @typedef {import("./session.js").Session} Session */
/** @typedef {import("./tool-stub.js").ToolStubOnRuntime} ToolStubOnRuntime */
/** @typedef {import("./index.js").ToolCallResult} ToolCallResult */
/**
 * A model's call as the core checked it (`ToolCall` in src/agent.rs): its tool, and its
 * arguments with every default filled in.
 * @typedef {{ tool: "read", reference: string, offset: number, limit: number }
 *   | { tool: "readLines", reference: string, line: number, lines: number | null, column: number | null, maxChars: number }
 *   | { tool: "readJsonPointer", reference: string, jsonPointer: string, maxChars: number }
 *   | { tool: "readRows", reference: string, start: number, count: number | null, maxChars: number }
 *   | { tool: "search", reference: string, query: string, limit: number, contextChars: number, contextLines: number | null, regex: boolean, ignoreCase: boolean, wholeWord: boolean }
 *   | { tool: "searchAll", reference?: undefined, query: string, regex: boolean, ignoreCase: boolean, wholeWord: boolean, toolName: string | null, limit: number, perResult: number, order: import("./index.js").SearchOrder }
 *   | { tool: "list", reference?: undefined, toolName: string | null, limit: number, offset: number, order: "id" | "newest", full: boolean }} ValidatedToolCall
 */
/**
 * A refused call (`CallError` in src/agent.rs), or any error a call met.
 * @typedef {{ code: string, message: string, allowed?: unknown }} CallError
 */

/**
 * The retrieval tools as JSON Schema, in the shape an SDK takes: "openai", "openai-responses",
 * "anthropic" or "json-schema". `sessionNow()` answers the ToolStub's session, configuring it if
 * needed (it throws as the constructor would).
 * @param {() => Session} sessionNow
 * @param {unknown} options
 * @returns {import("./index.js").ToolDefinition[]}
 */
export function toolDefinitions(sessionNow, options) {
  const opts = requireOptions(options, "options");
  checkKnownKeys(opts, ["format"], "toolDefinitions");
  const format = optionalString(opts.format, "format", "openai");
  const session = sessionNow();
  return JSON.parse(
    session.runtime.call("toolDefinitions", JSON.stringify(session.config.toolNames), format),
  );
}

/**
 * Runs a model's call of a retrieval tool. Never throws: a bad call or a failed lookup comes back
 * as `{ error: { code, message, allowed? } }` for the model to read. Results are bounded by
 * `config.maxResultChars`. `stub`: the ToolStub whose read/search/searchAll answer the call;
 * `sessionWhenReady()`: its session, or while the wasm or its configuration is pending, a promise
 * of it (as the ToolStub's other methods wait; here a failure becomes the call's answer).
 * @param {ToolStubOnRuntime} stub
 * @param {() => Session | Promise<Session>} sessionWhenReady
 * @param {unknown} name
 * @param {unknown} args
 * @returns {Promise<ToolCallResult>}
 */
export async function handleToolCall(stub, sessionWhenReady, name, args) {
  /** @type {unknown} */
  let parsedArgs = args;
  if (typeof args === "string") {
    try {
      parsedArgs = JSON.parse(args);
    } catch (error) {
      return {
        error: {
          code: "INVALID_ARGUMENT",
          message: `arguments are not valid JSON: ${caught(error)?.message}`,
        },
      };
    }
  }
  /** @type {Session | undefined} */
  let session;
  try {
    const ready = sessionWhenReady();
    session = ready instanceof Promise ? await ready : ready;
    if (typeof name !== "string")
      throw invalid(`the tool name must be a string (got ${name === null ? "null" : typeof name})`);
    /** @type {{ call: ValidatedToolCall, error?: undefined } | { error: CallError }} */
    const checked = JSON.parse(
      session.runtime.call(
        "validateToolCall",
        JSON.stringify(session.config.toolNames),
        name,
        callerJson(parsedArgs ?? null, "arguments"),
        session.config.maxResultChars,
      ),
    );
    if (checked.error) return { error: boundedError(session, checked.error) };
    return await runToolCall(stub, session, checked.call);
  } catch (error) {
    const known = session ? session.runtime.toToolStubError(error) : asToolStubError(error);
    return { error: boundedError(session, { code: known.code, message: known.message }) };
  }
}

/**
 * An error for the model held to `maxResultChars` like every other result (the core cuts the
 * message): an error that quotes a huge argument must not flood the model's context. Without a
 * session (the wasm never loaded) the error stays as it is.
 * @param {Session | undefined} session
 * @param {CallError} error
 * @returns {import("./index.js").ToolCallError["error"]}
 */
function boundedError(session, error) {
  // `code` is one of ERROR_CODES: the core's refusals and ToolStubErrors are.
  if (!session) return /** @type {import("./index.js").ToolCallError["error"]} */ (error);
  try {
    return JSON.parse(
      session.runtime.call("boundToolError", JSON.stringify(error), session.config.maxResultChars),
    );
  } catch {
    return /** @type {import("./index.js").ToolCallError["error"]} */ (error);
  }
}

/**
 * A call the core validated, run as the ToolStub's own read/search/searchAll/list.
 * @param {ToolStubOnRuntime} stub
 * @param {Session} session
 * @param {ValidatedToolCall} call
 * @returns {Promise<ToolCallResult>}
 */
async function runToolCall(stub, session, call) {
  const max = session.config.maxResultChars;
  /**
   * @template T
   * @param {T[]} items
   * @param {string} what
   */
  const bounded = (items, what) => {
    /** @type {{ items: T[], leftOut: number }} */
    const kept = JSON.parse(session.runtime.call("boundItems", JSON.stringify(items), max));
    return { items: kept.items, note: leftOutNote(kept.leftOut, what) };
  };
  switch (call.tool) {
    case "read":
      return toolCallAnswer(
        await stub.read(call.reference, {
          offset: call.offset,
          limit: call.limit,
          includeMetadata: false,
        }),
      );
    case "readLines":
      return toolCallAnswer(
        await stub.read(call.reference, {
          line: call.line,
          lines: call.lines ?? undefined,
          column: call.column ?? undefined,
          maxChars: call.maxChars,
          includeMetadata: false,
        }),
      );
    case "readJsonPointer":
      return toolCallAnswer(
        await stub.read(call.reference, {
          jsonPointer: call.jsonPointer,
          maxChars: call.maxChars,
          includeMetadata: false,
        }),
      );
    case "readRows":
      return toolCallAnswer(
        await stub.read(call.reference, {
          rows: { start: call.start, count: call.count ?? undefined },
          maxChars: call.maxChars,
          includeMetadata: false,
        }),
      );
    case "search": {
      const { tool: _tool, reference, contextLines, ...rest } = call;
      const r = await stub.search(
        reference,
        contextLines == null ? rest : { ...rest, contextChars: undefined, contextLines },
      );
      const { items, note } = bounded(r.matches, "matches");
      const notes = [r.note, note.note].filter(Boolean);
      return toolCallAnswer({
        ...r,
        matches: items,
        ...note,
        ...(notes.length ? { note: notes.join(" ") } : {}),
      });
    }
    case "searchAll": {
      const { tool: _tool, ...args } = call;
      const r = await stub.searchAll({ ...args, toolName: args.toolName ?? undefined });
      const { items, note } = bounded(r.results, "results");
      return toolCallAnswer({ ...r, results: items, ...note });
    }
    default: {
      // One line per output unless the model asks for the whole records; paged and counted.
      const select = {
        toolName: call.toolName ?? undefined,
        order: call.order,
        offset: call.offset,
      };
      /** @type {{ items: object[], totalResults: number, hasMore: boolean }} */
      let listed;
      if (call.full) {
        const { records, totalResults, hasMore } = await listRecords(session, select, call.limit);
        listed = { items: records, totalResults, hasMore };
      } else {
        const page = await session.catalog.use((catalog) =>
          catalog.select({ ...select, limit: call.limit }),
        );
        const items = page.entries.map((e) => ({
          ref: e.ref,
          tool_name: e.toolName,
          kind: e.kind,
          chars: e.originalChars,
          // Token mode's results say their tokens too.
          ...(e.originalTokens === undefined ? {} : { tokens: e.originalTokens }),
          // An estimate says so, as its stub does.
          ...(e.originalTokensEstimatedFromChars === undefined
            ? {}
            : { tokens_estimated_from_chars: e.originalTokensEstimatedFromChars }),
          created_at: e.createdAt,
          summary: e.summary,
        }));
        listed = { items, totalResults: page.totalResults, hasMore: page.hasMore };
      }
      const { items, note } = bounded(listed.items, "results");
      return /** @type {ToolCallResult} */ ({
        tool_results: items,
        total_results: listed.totalResults,
        offset: call.offset,
        has_more: listed.hasMore || items.length < listed.items.length,
        .../** @type {{ left_out?: number, note?: string }} */ (modelFacing(note)),
      });
    }
  }
}

/**
 * @param {number} leftOut
 * @param {string} what
 * @returns {{ leftOut?: number, note?: string }}
 */
function leftOutNote(leftOut, what) {
  return leftOut > 0
    ? {
        leftOut,
        note: `${leftOut} more ${what} left out to keep this result small; narrow the call (lower limit or context)`,
      }
    : {};
}

/**
 * A tool's result as the model sees it (see modelFacing): the snake_case form of the ToolStub
 * method's answer, as the public ToolCallResult types say.
 * @param {unknown} value
 */
function toolCallAnswer(value) {
  return /** @type {ToolCallResult} */ (modelFacing(value));
}

/**
 * A result as the model sees it: snake_case keys, like the reference's tool results.
 * @param {unknown} value
 * @returns {unknown}
 */
function modelFacing(value) {
  if (Array.isArray(value)) return value.map(modelFacing);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([key, v]) => [key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), modelFacing(v)]),
  );
}
