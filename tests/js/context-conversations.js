// Conversations for the context governor's tests: one abstract agent conversation (steps of
// tool calls and their outputs) written in each message format, and a reader of the tool
// results back out of each (written here from the formats' documentation, independently of the
// package's own walker).

/** A JSON listing of `rows` records, pretty-printed as tools return them. */
export function jsonRows(rows, tag) {
  return JSON.stringify(
    {
      data: Array.from({ length: rows }, (_, i) => ({
        id: `${tag}_${i}`,
        status: i % 97 === 5 ? `needle_${tag}` : "ok",
        total: i * 3,
      })),
    },
    null,
    2,
  );
}

/** A log of `lines` lines. */
export function logLines(lines, tag) {
  return Array.from(
    { length: lines },
    (_, i) => `2026-12-03T10:${String(i % 60).padStart(2, "0")}:00Z INFO ${tag} step ${i} ok`,
  ).join("\n");
}

/**
 * `steps`: `[{ calls: [{ id, name, args, output }] }]`. Returns the conversation in `format`,
 * starting with a user message.
 */
export function conversation(format, steps, question = "Find the failed orders.") {
  const messages = [];
  if (format === "openai") {
    messages.push(
      { role: "system", content: "You are an agent." },
      { role: "user", content: question },
    );
    for (const { calls } of steps) {
      messages.push({
        role: "assistant",
        content: null,
        tool_calls: calls.map((c) => ({
          id: c.id,
          type: "function",
          function: { name: c.name, arguments: JSON.stringify(c.args ?? {}) },
        })),
      });
      for (const c of calls) messages.push({ role: "tool", tool_call_id: c.id, content: c.output });
    }
  } else if (format === "openai-responses") {
    messages.push({ role: "user", content: question });
    for (const { calls } of steps) {
      for (const c of calls)
        messages.push({
          type: "function_call",
          call_id: c.id,
          name: c.name,
          arguments: JSON.stringify(c.args ?? {}),
        });
      for (const c of calls)
        messages.push({ type: "function_call_output", call_id: c.id, output: c.output });
    }
  } else if (format === "anthropic") {
    messages.push({ role: "user", content: question });
    for (const { calls } of steps) {
      messages.push({
        role: "assistant",
        content: calls.map((c) => ({
          type: "tool_use",
          id: c.id,
          name: c.name,
          input: c.args ?? {},
        })),
      });
      messages.push({
        role: "user",
        content: calls.map((c) => ({ type: "tool_result", tool_use_id: c.id, content: c.output })),
      });
    }
  } else if (format === "ai-sdk") {
    messages.push({ role: "user", content: question });
    for (const { calls } of steps) {
      messages.push({
        role: "assistant",
        content: calls.map((c) => ({
          type: "tool-call",
          toolCallId: c.id,
          toolName: c.name,
          input: c.args ?? {},
        })),
      });
      messages.push({
        role: "tool",
        content: calls.map((c) => ({
          type: "tool-result",
          toolCallId: c.id,
          toolName: c.name,
          output: { type: "text", value: c.output },
        })),
      });
    }
  } else throw new Error(`no such format ${format}`);
  return messages;
}

/** The tool results of a conversation, `Map(call id -> text)`. */
export function resultTexts(format, messages) {
  const texts = new Map();
  const text = (content) =>
    typeof content === "string" ? content : content.map((part) => part.text).join("");
  for (const m of messages) {
    if (format === "openai" && m.role === "tool") texts.set(m.tool_call_id, text(m.content));
    if (format === "openai-responses" && m.type === "function_call_output")
      texts.set(m.call_id, text(m.output));
    if (format === "anthropic" && Array.isArray(m.content))
      for (const b of m.content)
        if (b.type === "tool_result") texts.set(b.tool_use_id, text(b.content));
    if (format === "ai-sdk" && m.role === "tool")
      for (const p of m.content)
        texts.set(
          p.toolCallId,
          p.output.type === "json" ? JSON.stringify(p.output.value) : p.output.value,
        );
  }
  return texts;
}

export const FORMATS = ["openai", "openai-responses", "anthropic", "ai-sdk"];
