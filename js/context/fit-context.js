// The context governor: `ts.fitContext(messages, options)`. It walks the conversation's shape
// (formats.js), counts tokens (tokens.js), asks the core which tool results to clear and into
// what (contextPlan, src/context/), stores each cleared output through `externalize` (so it
// stays readable and searchable by its ref) and puts the core's replacement text in its place.

import { CONTEXT_HEAD_CHARS } from "../core-constants.js";
import { invalid, readingCaller } from "../arguments.js";
import { contextFormat, messageStrings, withReplacements } from "./formats.js";
import { TokenCounter } from "./tokens.js";

const OPTIONS = [
  "format",
  "contextWindow",
  "trigger",
  "target",
  "keepRecent",
  "clearAtLeast",
  "excludeTools",
  "pinned",
  "countTokens",
  "tokenizer",
];

/** What a message costs beyond its strings (role and separators), as OpenAI counts chat messages. */
const MESSAGE_OVERHEAD_TOKENS = 4;
/** How many stubs a governor keeps for results it cleared before (oldest go first). */
const KEPT_STUBS = 4096;
/** Plans after the first make up for stubs larger than estimated; each moves a result a step. */
const MAX_ROUNDS = 8;

/** A size given as tokens (> 1) or as a fraction (0, 1] of the context window. */
function tokensOf(value, name, contextWindow) {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0)
    throw invalid(`${name} must be a positive number: tokens, or a fraction of contextWindow`);
  if (value > 1) return Math.floor(value);
  if (contextWindow === undefined)
    throw invalid(`${name} is a fraction (${value}): give contextWindow too, or ${name} in tokens`);
  return Math.floor(value * contextWindow);
}

function readOptions(options) {
  if (options === null || typeof options !== "object") throw invalid("options must be an object");
  for (const key of Object.keys(options))
    if (!OPTIONS.includes(key))
      throw invalid(
        `fitContext does not take ${JSON.stringify(key)} (allowed: ${OPTIONS.join(", ")})`,
      );
  const { contextWindow } = options;
  if (contextWindow !== undefined && !(Number.isSafeInteger(contextWindow) && contextWindow > 0))
    throw invalid("contextWindow must be a positive integer (tokens)");
  const trigger =
    tokensOf(options.trigger, "trigger", contextWindow) ??
    (contextWindow === undefined ? undefined : Math.floor(0.8 * contextWindow));
  if (trigger === undefined) throw invalid("fitContext needs contextWindow or trigger");
  const target = tokensOf(options.target, "target", contextWindow) ?? Math.floor(0.6 * trigger);
  const keepRecent = options.keepRecent ?? 3;
  if (!Number.isSafeInteger(keepRecent) || keepRecent < 0)
    throw invalid("keepRecent must be a non-negative integer");
  const clearAtLeast = tokensOf(options.clearAtLeast, "clearAtLeast", contextWindow) ?? 0;
  const strings = (value, name) => {
    if (value === undefined) return [];
    if (!Array.isArray(value) || value.some((v) => typeof v !== "string"))
      throw invalid(`${name} must be an array of strings`);
    return value;
  };
  return {
    format: contextFormat(options.format),
    policy: {
      trigger,
      target,
      keepRecent,
      clearAtLeast,
      excludeTools: strings(options.excludeTools, "excludeTools"),
    },
    pinned: new Set(strings(options.pinned, "pinned")),
    counting: { countTokens: options.countTokens, tokenizer: options.tokenizer },
  };
}

/**
 * One ToolStub's governor: its token cache lives as long as the ToolStub. `session` is the
 * ToolStub's session (session.js: its runtime and resolved config); `externalize` its own
 * (stores the output, returns the stub).
 */
export class ContextGovernor {
  #runtime;
  #config;
  #externalize;
  #counter = new TokenCounter();

  constructor(session, externalize) {
    this.#runtime = session.runtime;
    this.#config = session.config;
    this.#externalize = externalize;
  }

  /**
   * The stubs this governor made, by tool call id (`{ text, stub }`): a host that fits its full
   * history again at every step gets them back without storing and synopsizing the output again.
   */
  #stubs = new Map();

  #conversationTokens(format, messages) {
    const strings = format.strings ?? messageStrings;
    let tokens = 0;
    for (const message of messages) {
      tokens += MESSAGE_OVERHEAD_TOKENS;
      for (const text of strings(message)) tokens += this.#counter.count(text);
    }
    return tokens;
  }

  async fit(messages, options) {
    if (!Array.isArray(messages)) throw invalid("messages must be an array");
    const { format, policy, pinned, counting } = readingCaller("options", () =>
      readOptions(options),
    );
    await this.#counter.use(counting);
    const count = (text) => this.#counter.count(text);
    const stubHeader = this.#config.stubHeader;
    const toolNames = JSON.stringify(this.#config.toolNames);
    const tokensBefore = readingCaller("messages", () =>
      this.#conversationTokens(format, messages),
    );
    let current = messages;
    let total = tokensBefore;
    const cleared = [];
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const slots = readingCaller("messages", () => format.slots(current));
      const results = readingCaller("messages (counting their tokens)", () =>
        slots.map((slot) => ({
          tokens: count(slot.text),
          toolName: slot.toolName,
          pinned: pinned.has(slot.toolCallId),
          head: slot.text.slice(0, CONTEXT_HEAD_CHARS),
        })),
      );
      const input = { policy, totalTokens: total, results, stubHeader, resume: round > 0 };
      /** @type {import("../generated/contract.js").ContextPlan} */
      const plan = JSON.parse(
        await this.#runtime.extras.call("contextPlan", JSON.stringify(input)),
      );
      const texts = new Map();
      for (const { index, to } of plan.clear) {
        const slot = slots[index];
        const stub = await this.#stubOf(slot, results[index].head);
        if (stub === undefined) continue;
        const replaced = this.#runtime.call(
          "contextReplacement",
          to,
          stub,
          readingCaller("countTokens", () => count(stub)),
          results[index].tokens,
          stubHeader,
          toolNames,
        );
        if (replaced === undefined) continue;
        const { text, reference } = JSON.parse(replaced);
        texts.set(index, text);
        if (!cleared.includes(reference)) cleared.push(reference);
      }
      if (texts.size === 0) break;
      current = withReplacements(format, current, slots, texts);
      total = readingCaller("messages", () => this.#conversationTokens(format, current));
    }
    return {
      messages: current,
      changed: current !== messages,
      tokensBefore,
      tokensAfter: total,
      cleared,
    };
  }

  /**
   * The stub of a result: its own text when it is one already, else the stub `externalize` gives
   * it once its output is stored (undefined when storing failed: the result then stays inline).
   */
  async #stubOf(slot, head) {
    const form = await this.#runtime.extras.call("contextForm", head, this.#config.stubHeader);
    if (form === "stub") return slot.text;
    const made = this.#stubs.get(slot.toolCallId);
    if (made !== undefined && made.text === slot.text) return made.stub;
    const [part] = await this.#externalize(
      [
        {
          toolId: slot.toolCallId,
          toolName: slot.toolName,
          output: slot.text,
          forceExternalize: true,
        },
      ],
      { messageId: slot.toolCallId || "context" },
    );
    if (!part.outputRef) return undefined;
    if (this.#stubs.size >= KEPT_STUBS) this.#stubs.delete(this.#stubs.keys().next().value);
    this.#stubs.set(slot.toolCallId, { text: slot.text, stub: part.output });
    return part.output;
  }
}
