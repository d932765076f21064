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

/**
 * The retrieval tools as JSON Schema, in the shape an SDK takes: "openai", "openai-responses",
 * "anthropic" or "json-schema". `sessionNow()` answers the ToolStub's session, configuring it if
 * needed (it throws as the constructor would).
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
 */
export async function handleToolCall(stub, sessionWhenReady, name, args) {
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
  let session;
  try {
    session = sessionWhenReady();
    if (typeof session.then === "function") session = await session;
    if (typeof name !== "string")
      throw invalid(`the tool name must be a string (got ${name === null ? "null" : typeof name})`);
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
 * @param {any} session
 * @param {{ code: string, message: string }} error
 */
function boundedError(session, error) {
  if (!session) return error;
  try {
    return JSON.parse(
      session.runtime.call("boundToolError", JSON.stringify(error), session.config.maxResultChars),
    );
  } catch {
    return error;
  }
}

/** A call the core validated, run as the ToolStub's own read/search/searchAll/list. */
async function runToolCall(stub, session, call) {
  const max = session.config.maxResultChars;
  const bounded = (items, what) => {
    const kept = JSON.parse(session.runtime.call("boundItems", JSON.stringify(items), max));
    return { items: kept.items, note: leftOutNote(kept.leftOut, what) };
  };
  const { tool, reference, ...args } = call;
  switch (tool) {
    case "read":
      return modelFacing(
        await stub.read(reference, {
          offset: args.offset,
          limit: args.limit,
          includeMetadata: false,
        }),
      );
    case "readLines":
      return modelFacing(
        await stub.read(reference, {
          line: args.line,
          lines: args.lines ?? undefined,
          column: args.column ?? undefined,
          maxChars: args.maxChars,
          includeMetadata: false,
        }),
      );
    case "readJsonPointer":
      return modelFacing(
        await stub.read(reference, {
          jsonPointer: args.jsonPointer,
          maxChars: args.maxChars,
          includeMetadata: false,
        }),
      );
    case "readRows":
      return modelFacing(
        await stub.read(reference, {
          rows: { start: args.start, count: args.count ?? undefined },
          maxChars: args.maxChars,
          includeMetadata: false,
        }),
      );
    case "search": {
      const { contextLines, ...rest } = args;
      const r = await stub.search(
        reference,
        contextLines == null ? rest : { ...rest, contextChars: undefined, contextLines },
      );
      const { items, note } = bounded(r.matches, "matches");
      const notes = [r.note, note.note].filter(Boolean);
      return modelFacing({
        ...r,
        matches: items,
        ...note,
        ...(notes.length ? { note: notes.join(" ") } : {}),
      });
    }
    case "searchAll": {
      const r = await stub.searchAll({ ...args, toolName: args.toolName ?? undefined });
      const { items, note } = bounded(r.results, "results");
      return modelFacing({ ...r, results: items, ...note });
    }
    default: {
      // One line per output unless the model asks for the whole records; paged and counted.
      const select = {
        toolName: args.toolName ?? undefined,
        order: args.order,
        offset: args.offset,
      };
      let listed;
      if (args.full) {
        const { records, totalResults, hasMore } = await listRecords(session, select, args.limit);
        listed = { items: records, totalResults, hasMore };
      } else {
        const page = await session.catalog.use((catalog) =>
          catalog.select({ ...select, limit: args.limit }),
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
      return {
        tool_results: items,
        total_results: listed.totalResults,
        offset: args.offset,
        has_more: listed.hasMore || items.length < listed.items.length,
        ...modelFacing(note),
      };
    }
  }
}

function leftOutNote(leftOut, what) {
  return leftOut > 0
    ? {
        leftOut,
        note: `${leftOut} more ${what} left out to keep this result small; narrow the call (lower limit or context)`,
      }
    : {};
}

/** A result as the model sees it: snake_case keys, like the reference's tool results. */
function modelFacing(value) {
  if (Array.isArray(value)) return value.map(modelFacing);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([key, v]) => [key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), modelFacing(v)]),
  );
}
