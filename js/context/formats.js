// The message shapes the context governor walks: where each tool result of a conversation is,
// its tool name and text, and how to put a new text in its place without touching the caller's
// objects (changed messages and parts are copies; everything else is shared).

import { invalid } from "../arguments.js";

export const CONTEXT_FORMATS = [
  "openai",
  "openai-responses",
  "anthropic",
  "ai-sdk",
  "openai-agents",
  "langchain",
];

/**
 * A caller's object, read field by field (a message, a part, a tool call).
 * @typedef {{ [field: string]: unknown }} Fields
 */

/**
 * Where one tool result is: message `message`, part `part` of its content (-1 when the message
 * is the result), with its call's id and tool name and its text.
 * @typedef {object} Slot
 * @property {number} message
 * @property {number} part
 * @property {string} toolCallId
 * @property {string} toolName
 * @property {string} text
 */

/**
 * A message shape: `slots(messages)` finds its tool results, `replace(message, part, text)`
 * copies a message with one result's text replaced, and `strings(message)` (optional; default
 * `messageStrings`) yields the strings a model reads.
 * @typedef {object} ContextFormat
 * @property {(messages: readonly unknown[]) => Slot[]} slots
 * @property {(message: Fields, part: number, text: string) => unknown} replace
 * @property {(message: unknown) => Iterable<string>} [strings]
 */

/**
 * A LangChain message's type ("ai", "tool", ...), from its class or its serialized form.
 * @param {Fields} message
 */
function langchainType(message) {
  if (typeof message?._getType === "function") return message._getType();
  return message?.type;
}

/**
 * The text of a content value made only of text (a string, or text parts); undefined otherwise.
 * @param {unknown} content
 * @param {readonly unknown[]} textType
 * @returns {string | undefined}
 */
function textOfParts(content, textType) {
  if (typeof content === "string") return content;
  if (!Array.isArray(content) || content.length === 0) return undefined;
  let text = "";
  for (const part of /** @type {unknown[]} */ (content)) {
    if (!isFields(part)) return undefined;
    if (!textType.includes(part.type) || typeof part.text !== "string") return undefined;
    text += part.text;
  }
  return text;
}

/**
 * Any object, arrays included (what `typeof value === "object"` lets through).
 * @param {unknown} value
 * @returns {value is Fields}
 */
function isFields(value) {
  return value !== null && typeof value === "object";
}

/**
 * @param {unknown} value
 * @returns {value is Fields}
 */
function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * The array a slot's message holds at `content` (slots() only finds parts in an array).
 * @param {Fields} message
 */
function contentParts(message) {
  return /** @type {unknown[]} */ (message.content);
}

/**
 * Each format: `slots(messages)` lists the tool results as
 * `{ message, part, toolCallId, toolName, text }` (`part` -1 when the message is the result), in
 * conversation order; `replace(message, part, text)` returns a copy of the message with that
 * result's text replaced.
 * @type {{ [name: string]: ContextFormat }}
 */
const FORMATS = {
  // Chat Completions: `{ role: "tool", tool_call_id, content }` after an assistant message's
  // `tool_calls: [{ id, function: { name, arguments } }]`.
  openai: {
    slots(messages) {
      /** @type {Map<string, unknown>} */
      const names = new Map();
      /** @type {Slot[]} */
      const slots = [];
      messages.forEach((message, index) => {
        if (!isObject(message)) return;
        if (message.role === "assistant" && Array.isArray(message.tool_calls)) {
          for (const call of /** @type {unknown[]} */ (message.tool_calls)) {
            if (isObject(call) && typeof call.id === "string")
              names.set(call.id, /** @type {Fields | undefined} */ (call.function)?.name ?? "");
          }
        } else if (message.role === "tool") {
          const text = textOfParts(message.content, ["text"]);
          if (text === undefined) return;
          const toolCallId = String(message.tool_call_id ?? "");
          slots.push({
            message: index,
            part: -1,
            toolCallId,
            // The caller's name, as it gave it: a string in a well-formed conversation.
            toolName: /** @type {string} */ (names.get(toolCallId) ?? ""),
            text,
          });
        }
      });
      return slots;
    },
    replace(message, _part, text) {
      return { ...message, content: text };
    },
  },
  // Responses API input items: `{ type: "function_call_output", call_id, output }` after
  // `{ type: "function_call", call_id, name, arguments }`.
  "openai-responses": {
    slots(items) {
      /** @type {Map<string, unknown>} */
      const names = new Map();
      /** @type {Slot[]} */
      const slots = [];
      items.forEach((item, index) => {
        if (!isObject(item)) return;
        if (item.type === "function_call" && typeof item.call_id === "string") {
          names.set(item.call_id, item.name ?? "");
        } else if (item.type === "function_call_output") {
          const text = textOfParts(item.output, ["input_text", "output_text", "text"]);
          if (text === undefined) return;
          const toolCallId = String(item.call_id ?? "");
          slots.push({
            message: index,
            part: -1,
            toolCallId,
            // The caller's name, as it gave it: a string in a well-formed conversation.
            toolName: /** @type {string} */ (names.get(toolCallId) ?? ""),
            text,
          });
        }
      });
      return slots;
    },
    replace(item, _part, text) {
      return { ...item, output: text };
    },
  },
  // Messages API: a user message's `{ type: "tool_result", tool_use_id, content }` blocks after an
  // assistant message's `{ type: "tool_use", id, name, input }` blocks. Error results stay.
  anthropic: {
    slots(messages) {
      /** @type {Map<string, unknown>} */
      const names = new Map();
      /** @type {Slot[]} */
      const slots = [];
      messages.forEach((message, index) => {
        if (!isObject(message) || !Array.isArray(message.content)) return;
        /** @type {unknown[]} */ (message.content).forEach((block, part) => {
          if (!isObject(block)) return;
          if (block.type === "tool_use" && typeof block.id === "string") {
            names.set(block.id, block.name ?? "");
          } else if (block.type === "tool_result" && block.is_error !== true) {
            const text = textOfParts(block.content, ["text"]);
            if (text === undefined) return;
            const toolCallId = String(block.tool_use_id ?? "");
            slots.push({
              message: index,
              part,
              toolCallId,
              // The caller's name, as it gave it: a string in a well-formed conversation.
              toolName: /** @type {string} */ (names.get(toolCallId) ?? ""),
              text,
            });
          }
        });
      });
      return slots;
    },
    replace(message, part, text) {
      const content = contentParts(message).slice();
      content[part] = { .../** @type {Fields} */ (content[part]), content: text };
      return { ...message, content };
    },
  },
  // AI SDK ModelMessage: a tool message's `{ type: "tool-result", toolCallId, toolName, output }`
  // parts, output `{ type: "text" | "json", value }` (or text-only `content`). Errors stay.
  "ai-sdk": {
    slots(messages) {
      /** @type {Slot[]} */
      const slots = [];
      messages.forEach((message, index) => {
        if (!isObject(message) || message.role !== "tool" || !Array.isArray(message.content))
          return;
        /** @type {unknown[]} */ (message.content).forEach((part, partIndex) => {
          if (!isObject(part) || part.type !== "tool-result" || !isObject(part.output)) return;
          const { output } = part;
          /** @type {string | undefined} */
          let text;
          if (output.type === "text" && typeof output.value === "string") text = output.value;
          else if (output.type === "json") text = JSON.stringify(output.value) ?? "null";
          else if (output.type === "content") text = textOfParts(output.value, ["text"]);
          if (text === undefined) return;
          slots.push({
            message: index,
            part: partIndex,
            toolCallId: String(part.toolCallId ?? ""),
            toolName: String(part.toolName ?? ""),
            text,
          });
        });
      });
      return slots;
    },
    replace(message, part, text) {
      const content = contentParts(message).slice();
      content[part] = {
        .../** @type {Fields} */ (content[part]),
        output: { type: "text", value: text },
      };
      return { ...message, content };
    },
  },
};

// The OpenAI Agents SDK's model input items (its `callModelInputFilter`):
// `{ type: "function_call_result", callId, name, output }`, output a string, a `{ type: "text" }`
// object or text parts.
FORMATS["openai-agents"] = {
  slots(items) {
    /** @type {Slot[]} */
    const slots = [];
    items.forEach((item, index) => {
      if (!isObject(item) || item.type !== "function_call_result") return;
      const { output } = item;
      const text =
        isObject(output) && output.type === "text" && typeof output.text === "string"
          ? output.text
          : textOfParts(output, ["text", "input_text", "output_text"]);
      if (text === undefined) return;
      slots.push({
        message: index,
        part: -1,
        toolCallId: String(item.callId ?? ""),
        toolName: String(item.name ?? ""),
        text,
      });
    });
    return slots;
  },
  replace(item, _part, text) {
    return { ...item, output: typeof item.output === "string" ? text : { type: "text", text } };
  },
};

// LangChain messages (a createAgent middleware's request): `ToolMessage`s (`tool_call_id`,
// `name`, content a string or text blocks) after an `AIMessage`'s `tool_calls: [{ id, name }]`.
// A replaced message is a new message of the same class.
FORMATS.langchain = {
  slots(messages) {
    /** @type {Map<string, unknown>} */
    const names = new Map();
    /** @type {Slot[]} */
    const slots = [];
    messages.forEach((item, index) => {
      // Read as the caller's object: a message that is not one has no type and is skipped.
      const message = /** @type {Fields} */ (item);
      const type = langchainType(message);
      if (type === "ai" && Array.isArray(message.tool_calls)) {
        for (const call of /** @type {unknown[]} */ (message.tool_calls))
          if (isObject(call) && typeof call.id === "string") names.set(call.id, call.name ?? "");
      } else if (type === "tool" && message.status !== "error") {
        const text = textOfParts(message.content, ["text"]);
        if (text === undefined) return;
        const toolCallId = String(message.tool_call_id ?? "");
        slots.push({
          message: index,
          part: -1,
          toolCallId,
          toolName: String(message.name ?? names.get(toolCallId) ?? ""),
          text,
        });
      }
    });
    return slots;
  },
  *strings(item) {
    if (typeof item === "string") {
      yield item;
      return;
    }
    // Read as the caller's object (`?.` leaves null and undefined out).
    const message = /** @type {Fields | null | undefined} */ (item);
    const text = textOfParts(message?.content, ["text"]);
    if (text !== undefined) yield text;
    else yield* messageStrings(message?.content);
    if (Array.isArray(message?.tool_calls))
      for (const call of /** @type {(Fields | null | undefined)[]} */ (message.tool_calls)) {
        yield String(call?.name ?? "");
        yield JSON.stringify(call?.args ?? {}) ?? "";
      }
    if (typeof message?.tool_call_id === "string") yield message.tool_call_id;
  },
  replace(message, _part, text) {
    if (typeof message._getType !== "function") return { ...message, content: text };
    // A LangChain message class: a new message of the same class.
    const MessageClass = /** @type {new (fields: Fields) => unknown} */ (message.constructor);
    return new MessageClass({
      content: text,
      tool_call_id: message.tool_call_id,
      name: message.name,
      id: message.id,
      status: message.status,
      additional_kwargs: message.additional_kwargs,
      response_metadata: message.response_metadata,
    });
  },
};

/**
 * @param {unknown} name the caller's `format`
 * @returns {ContextFormat}
 */
export function contextFormat(name) {
  const format =
    typeof name === "string" && Object.hasOwn(FORMATS, name) ? FORMATS[name] : undefined;
  if (format === undefined)
    throw invalid(
      `format must be one of ${CONTEXT_FORMATS.map((f) => JSON.stringify(f)).join(", ")} (got ${JSON.stringify(name)})`,
    );
  return format;
}

/**
 * A copy of `messages` with the results of `slots` at the given indices replaced by the texts of
 * `texts` (a Map from slot index to text). Messages without a replacement are the caller's own.
 * @template M
 * @param {ContextFormat} format
 * @param {readonly M[]} messages
 * @param {readonly Slot[]} slots
 * @param {Map<number, string>} texts
 * @returns {M[]}
 */
export function withReplacements(format, messages, slots, texts) {
  const copy = messages.slice();
  for (const [index, text] of texts) {
    const slot = slots[index];
    // A slot's message is an object (slots() read its fields); its copy stands in its place.
    const replaced = format.replace(/** @type {Fields} */ (copy[slot.message]), slot.part, text);
    copy[slot.message] = /** @type {M} */ (replaced);
  }
  return copy;
}

/** How deep `messageStrings` walks: a message nested deeper (or a cycle) is refused. */
const MAX_DEPTH = 64;

/**
 * The strings of a message a model reads, for counting: every string in it, JSON values given as
 * objects (AI SDK json outputs and tool inputs, Anthropic tool inputs) as their JSON text.
 * @param {unknown} message
 * @param {number} [depth]
 * @returns {Generator<string, void, undefined>}
 */
export function* messageStrings(message, depth = 0) {
  if (typeof message === "string") {
    yield message;
    return;
  }
  if (message === null || typeof message !== "object") return;
  if (depth > MAX_DEPTH)
    throw invalid(
      `messages must be plain JSON-like data: a message is nested over ${MAX_DEPTH} levels deep (or holds a cycle)`,
    );
  if (Array.isArray(message)) {
    for (const item of message) yield* messageStrings(item, depth + 1);
    return;
  }
  const fields = /** @type {Fields} */ (message);
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value === "string") yield value;
    else if (value !== null && typeof value === "object") {
      const jsonValue =
        (key === "value" && (fields.type === "json" || fields.type === "error-json")) ||
        (key === "input" && (fields.type === "tool-call" || fields.type === "tool_use"));

      if (jsonValue) yield JSON.stringify(value) ?? "";
      else yield* messageStrings(value, depth + 1);
    }
  }
}
