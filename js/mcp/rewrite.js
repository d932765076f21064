// What the proxy changes in the wrapped server's answers: tool results (oversized text and
// structured content go into the store and are replaced by stubs) and tools/list (the retrieval
// tools are added; output schemas are dropped). Every decision about what goes out is the
// library's (`externalize`); this file only maps MCP's shapes to tool parts and back.

/** @typedef {{ [field: string]: unknown }} Fields */
/** @typedef {import("../index.js").ToolPart} ToolPart */
/** @typedef {import("./index.js").McpToolResult} McpToolResult */

/**
 * The indices of a tool result's text content (the parts that may go out).
 * @param {Fields} result
 * @returns {number[]}
 */
function textParts(result) {
  /** @type {unknown[]} */
  const content = Array.isArray(result?.content) ? result.content : [];
  return content.flatMap((item, index) => {
    const fields = /** @type {Fields | null | undefined} */ (item);
    return fields?.type === "text" && typeof fields.text === "string" ? [index] : [];
  });
}

/**
 * Whether `text` is JSON whose compact form is `serialized` (the structured content's): servers
 * are asked to send structured content as JSON text too, for hosts that only show text.
 * @param {string} text
 * @param {string | undefined} serialized
 */
function isJsonOf(text, serialized) {
  const first = text.trimStart()[0];
  if (first !== "{" && first !== "[") return false;
  try {
    return JSON.stringify(JSON.parse(text)) === serialized;
  } catch {
    return false;
  }
}

/**
 * A stubbed part whose ref this proxy already sent (an identical output of the same tool: the core
 * gives it the same ref) as its one-line reference form: the host holds the whole stub already,
 * and the proxy cannot edit the host's conversation, only avoid sending it again. `sentRefs`
 * (the refs sent so far this session) gets the part's ref otherwise.
 * @param {import("../index.js").ToolStub} toolStub
 * @param {ToolPart} part
 * @param {Set<string> | undefined} sentRefs
 * @returns {ToolPart}
 */
function repeatedAsReference(toolStub, part, sentRefs) {
  if (sentRefs === undefined || !part.truncated || !part.outputRef) return part;
  if (!sentRefs.has(part.outputRef)) {
    sentRefs.add(part.outputRef);
    return part;
  }
  const line = toolStub.referenceForm(part.output);
  return line === undefined ? part : { ...part, output: line };
}

/**
 * Externalizes the oversized parts of one tool result. All its text parts, and its structured
 * content (as pretty JSON) unless a text part already carries the same JSON, form one turn, so the
 * turn budget applies across them. Image, audio, resource and resource-link content is not touched;
 * `isError` and every other field stay as they are.
 *
 * Returns `{ result }` (undefined when nothing changed: the caller forwards the original message
 * byte for byte) and `errors`: the store failures, `{ message, raw }`, raw when the output stayed
 * as it was (failureMode preserve_raw) rather than becoming a stub without a ref (preview_only).
 * Throws what `externalize` throws (failureMode reject: STORE_FAILED). With `sentRefs` (a Set),
 * a stub already sent goes back as its one-line reference form (see repeatedAsReference).
 * @param {import("../index.js").ToolStub} toolStub
 * @param {{ toolName: string, messageId: string, result: unknown, sentRefs?: Set<string> }} call
 * @returns {Promise<{ result: McpToolResult | undefined, errors: { message: string, raw: boolean }[] }>}
 */
export async function externalizeToolResult(
  toolStub,
  { toolName, messageId, result: given, ...options },
) {
  if (given === null || typeof given !== "object" || Array.isArray(given))
    return { result: undefined, errors: [] };
  const result = /** @type {Fields} */ (given);
  const indices = textParts(result);
  // At the indices textParts found: text items.
  const items = /** @type {{ text: string }[]} */ (result.content);
  const hasStructured = result.structuredContent !== undefined && result.structuredContent !== null;
  const compactStructured = hasStructured ? JSON.stringify(result.structuredContent) : undefined;
  // The text part that is the structured content's JSON, if any: storing it covers both.
  const twin = hasStructured
    ? indices.find((i) => isJsonOf(items[i].text, compactStructured))
    : undefined;
  /** @type {ToolPart[]} */
  const parts = indices.map((i) => ({
    toolId: `${toolName}_${i}`,
    toolName,
    output: items[i].text,
    mimeType: "text/plain",
  }));
  const storesStructured = hasStructured && twin === undefined;
  if (storesStructured) {
    parts.push({
      toolId: `${toolName}_structured`,
      toolName,
      output: JSON.stringify(result.structuredContent, null, 2),
      mimeType: "application/json",
    });
  }
  if (parts.length === 0) return { result: undefined, errors: [] };
  const done = (await toolStub.externalize(parts, { messageId })).map((part) =>
    repeatedAsReference(toolStub, part, options.sentRefs),
  );
  const errors = done.flatMap((part, i) =>
    part.externalizationError
      ? [{ message: part.externalizationError, raw: part.output === parts[i].output }]
      : [],
  );
  const changed = done.map((part, i) => part.output !== parts[i].output);
  if (!changed.includes(true)) return { result: undefined, errors };

  // Not an array when only the structured content went out of a result without `content`:
  // the TypeError is the caller's to report.
  const content = /** @type {unknown[]} */ (result.content).slice();
  indices.forEach((contentIndex, i) => {
    if (changed[i])
      content[contentIndex] = {
        .../** @type {Fields} */ (content[contentIndex]),
        text: done[i].output,
      };
  });
  // The server's CallToolResult with its text content replaced.
  const rewritten = /** @type {McpToolResult} */ ({ ...result, content });
  const structuredOut = storesStructured
    ? changed[parts.length - 1]
    : twin !== undefined && changed[indices.indexOf(twin)];
  if (structuredOut) {
    // Hosts show the text content; the structured content is only reachable through its stub now.
    delete rewritten.structuredContent;
    if (storesStructured) content.push({ type: "text", text: done[parts.length - 1].output });
  }
  return { result: rewritten, errors };
}

/**
 * A tools/list result with the retrieval tools added (to the first page only) and every tool's
 * `outputSchema` dropped: a result whose structured content went out has none left, and a host
 * that validates structured results against the schema would reject it. Throws when a wrapped
 * tool has a retrieval tool's name (the caller turns that into a JSON-RPC error naming the fix).
 * @param {Fields | undefined} result the wrapped server's tools/list result
 * @param {import("./index.js").McpTool[]} retrieval
 * @param {{ firstPage: boolean }} page
 * @returns {Fields & { tools: import("./index.js").McpTool[] }}
 */
export function rewriteToolList(result, retrieval, { firstPage }) {
  // Its items are tools in a well-formed list; anything else has no name and stays as it is.
  /** @type {(Fields | null | undefined)[]} */
  const tools = Array.isArray(result?.tools) ? result.tools : [];
  /** @type {Set<unknown>} */
  const ours = new Set(retrieval.map((tool) => tool.name));
  const clashes = tools.filter((tool) => ours.has(tool?.name)).map((tool) => tool?.name);

  if (clashes.length) {
    throw new Error(
      `the wrapped server has tool(s) named ${clashes.join(", ")}, as tool-stub's retrieval tools are: pass another --tool-prefix (or config toolNames)`,
    );
  }
  const kept = tools.map((tool) => {
    if (tool === null || typeof tool !== "object" || tool.outputSchema === undefined) return tool;
    const { outputSchema, ...rest } = tool;
    return rest;
  });
  // The server's tools as it listed them (objects in a well-formed list), and ours.
  const listed = /** @type {import("./index.js").McpTool[]} */ (kept);
  return { ...result, tools: firstPage ? [...listed, ...retrieval] : listed };
}
