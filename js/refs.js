// Refs as values: a tool call's arguments with each ref of a readable session replaced by the
// stored content it names (whole, or the part its ref form asks for). The core decides which
// strings and objects are refs, which session each one names (or refuses it), which spans of the
// output each asks for and whether they fit the cap; this file walks the caller's arguments, has
// the outputs loaded and cuts them.

import {
  callerJson,
  checkKnownKeys,
  invalid,
  optionalInteger,
  readingCaller,
  requireOptions,
  wellFormed,
} from "./arguments.js";
import { caught } from "./stores/errors.js";

/** @typedef {import("./session.js").Session} Session */
/**
 * A ref the core found in the arguments (`planRefs`): where it is (keys and indices from the
 * top), the readable session and result it names, and the form it takes.
 * @typedef {{ path: (string | number)[], session: number, toolResultId: string, form: unknown }} PlannedRef
 */
/**
 * What of an output a ref form asks for (`resolveSpans`): UTF-16 `[start, end)` pairs, what
 * joins them, and the chars they count.
 * @typedef {{ spans: number[], separator: string, chars: number }} ResolvedSpans
 */

/**
 * JSON text of a tool call's arguments for the core's planning. A lone surrogate is sent as U+FFFD
 * (one UTF-16 unit either way, so no path moves): a string holding one is never a ref.
 * @param {unknown} args
 * @returns {string}
 */
function argumentsJson(args) {
  return readingCaller("arguments", () => {
    let json;
    try {
      json = JSON.stringify(args ?? null, (_key, value) =>
        typeof value === "string" ? wellFormed(value) : value,
      );
    } catch (error) {
      throw invalid(`the arguments cannot be sent as JSON: ${caught(error)?.message}`, error);
    }
    return json;
  });
}

/**
 * `value` with the value at `path` replaced; the containers on the path are copied, not changed.
 * @param {unknown} value an object or array at each step of `path` (the core found it there)
 * @param {readonly (string | number)[]} path
 * @param {unknown} replacement
 * @returns {unknown}
 */
function replacedAt(value, path, replacement) {
  if (path.length === 0) return replacement;
  const [step, ...rest] = path;
  const container = /** @type {Record<string | number, unknown>} */ (value);
  // An array's copy is written by index, an object's by key.
  const copy = /** @type {Record<string | number, unknown>} */ (
    Array.isArray(value) ? value.slice() : { ...container }
  );
  copy[step] = replacedAt(container[step], rest, replacement);
  return copy;
}

/**
 * The arguments of a tool call with their refs resolved (the same object when there is none), for
 * `session` (session.js): refs of the sessions it may read, loaded where they are stored.
 * @template T
 * @param {Session} session
 * @param {T} args
 * @param {unknown} options
 * @returns {Promise<T>}
 */
export async function resolveRefs(session, args, options) {
  const opts = requireOptions(options, "options");
  checkKnownKeys(opts, ["maxResolvedChars"], "resolveRefs");
  const { runtime } = session;
  let left = optionalInteger(
    opts.maxResolvedChars,
    "maxResolvedChars",
    JSON.parse(runtime.call("refArguments")).defaultMaxResolvedChars,
  );
  if (left < 0) throw invalid("maxResolvedChars must be >= 0");
  /** @type {PlannedRef[]} */
  const planned = JSON.parse(
    await runtime.extras.call("planRefs", argumentsJson(args), session.readableJson),
  );
  /** @type {unknown} */
  let resolved = args;
  for (const ref of planned) {
    const content = await session.reader(ref.session).loadOutput(ref.toolResultId);
    /** @type {ResolvedSpans} */
    const found = JSON.parse(
      await runtime.extras.call("resolveSpans", content, JSON.stringify(ref.form), left),
    );
    /** @type {string[]} */
    const pieces = [];
    for (let i = 0; i < found.spans.length; i += 2)
      pieces.push(content.slice(found.spans[i], found.spans[i + 1]));
    left -= found.chars;
    resolved = replacedAt(resolved, ref.path, pieces.join(found.separator));
  }
  // The arguments with strings in place of refs: the caller's shape, as the public type says.
  return /** @type {T} */ (resolved);
}

/**
 * What a tool that accepts refs tells the model: `{ note }`, and given its input's JSON Schema,
 * `schema`, that schema taking the ref form beside each top-level property.
 * @param {import("./runtime.js").Runtime} runtime
 * @param {unknown} inputSchema
 * @returns {{ note: string, schema?: object }}
 */
export function refArguments(runtime, inputSchema) {
  /** @type {{ note: string }} */
  const { note } = JSON.parse(runtime.call("refArguments"));
  if (inputSchema === undefined) return { note };
  return {
    note,
    schema: JSON.parse(runtime.call("acceptRefsSchema", callerJson(inputSchema, "inputSchema"))),
  };
}
