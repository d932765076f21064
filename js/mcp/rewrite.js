// What the proxy changes in the wrapped server's answers: tool results (oversized text and
// structured content go into the store and are replaced by stubs) and tools/list (the retrieval
// tools are added; output schemas are dropped). Every decision about what goes out is the
// library's (`externalize`); this file only maps MCP's shapes to tool parts and back.

/** The indices of a tool result's text content (the parts that may go out). */
function textParts(result) {
  const content = Array.isArray(result?.content) ? result.content : [];
  return content.flatMap((item, index) =>
    item?.type === "text" && typeof item.text === "string" ? [index] : [],
  );
}

/**
 * Whether `text` is JSON whose compact form is `serialized` (the structured content's): servers
 * are asked to send structured content as JSON text too, for hosts that only show text.
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
 * @param {any} toolStub
 * @param {{ toolName: string, messageId: string, result: any, sentRefs?: Set<string> }} call
 */
export async function externalizeToolResult(toolStub, { toolName, messageId, result, ...options }) {
  if (result === null || typeof result !== "object" || Array.isArray(result))
    return { result: undefined, errors: [] };
  const indices = textParts(result);
  const hasStructured = result.structuredContent !== undefined && result.structuredContent !== null;
  const compactStructured = hasStructured ? JSON.stringify(result.structuredContent) : undefined;
  // The text part that is the structured content's JSON, if any: storing it covers both.
  const twin = hasStructured
    ? indices.find((i) => isJsonOf(result.content[i].text, compactStructured))
    : undefined;
  const parts = indices.map((i) => ({
    toolId: `${toolName}_${i}`,
    toolName,
    output: result.content[i].text,
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

  const content = result.content.slice();
  indices.forEach((contentIndex, i) => {
    if (changed[i]) content[contentIndex] = { ...content[contentIndex], text: done[i].output };
  });
  const rewritten = { ...result, content };
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
 */
export function rewriteToolList(result, retrieval, { firstPage }) {
  const tools = Array.isArray(result?.tools) ? result.tools : [];
  const ours = new Set(retrieval.map((tool) => tool.name));
  const clashes = tools.filter((tool) => ours.has(tool?.name)).map((tool) => tool.name);
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
  return { ...result, tools: firstPage ? [...kept, ...retrieval] : kept };
}
