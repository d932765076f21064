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

/** @typedef {import("./formats.js").ContextFormat} ContextFormat */
/** @typedef {import("./formats.js").Slot} Slot */
/** @typedef {import("../index.js").ToolPart} ToolPart */
/**
 * The runtime's calls into the core (runtime.js) as the governor uses them: the main module's,
 * and the extras module's (loaded on its first call).
 * @typedef {{ call(name: string, ...args: unknown[]): unknown, extras: { call(name: string, ...args: unknown[]): Promise<unknown> } }} CoreCaller
 */
/**
 * The fields of the session's resolved config (the core's) that the governor reads.
 * @typedef {{ stubHeader: string, toolNames: unknown }} GovernorConfig
 */

/**
 * A size given as tokens (> 1) or as a fraction (0, 1] of the context window.
 * @param {unknown} value
 * @param {string} name
 * @param {number | undefined} contextWindow
 * @returns {number | undefined}
 */
function tokensOf(value, name, contextWindow) {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0)
    throw invalid(`${name} must be a positive number: tokens, or a fraction of contextWindow`);
  if (value > 1) return Math.floor(value);
  if (contextWindow === undefined)
    throw invalid(`${name} is a fraction (${value}): give contextWindow too, or ${name} in tokens`);
  return Math.floor(value * contextWindow);
}

/** @param {unknown} value the caller's options */
function readOptions(value) {
  if (value === null || typeof value !== "object") throw invalid("options must be an object");
  const options = /** @type {{ [option: string]: unknown }} */ (value);
  for (const key of Object.keys(options))
    if (!OPTIONS.includes(key))
      throw invalid(
        `fitContext does not take ${JSON.stringify(key)} (allowed: ${OPTIONS.join(", ")})`,
      );
  // What the check below lets through.
  const contextWindow = /** @type {number | undefined} */ (options.contextWindow);
  if (contextWindow !== undefined && !(Number.isSafeInteger(contextWindow) && contextWindow > 0))
    throw invalid("contextWindow must be a positive integer (tokens)");
  const trigger =
    tokensOf(options.trigger, "trigger", contextWindow) ??
    (contextWindow === undefined ? undefined : Math.floor(0.8 * contextWindow));
  if (trigger === undefined) throw invalid("fitContext needs contextWindow or trigger");
  const target = tokensOf(options.target, "target", contextWindow) ?? Math.floor(0.6 * trigger);
  // What the check below lets through.
  const keepRecent = /** @type {number} */ (options.keepRecent ?? 3);
  if (!Number.isSafeInteger(keepRecent) || keepRecent < 0)
    throw invalid("keepRecent must be a non-negative integer");
  const clearAtLeast = tokensOf(options.clearAtLeast, "clearAtLeast", contextWindow) ?? 0;
  /**
   * @param {unknown} value
   * @param {string} name
   * @returns {string[]}
   */
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
  /** @type {CoreCaller} */
  #runtime;
  /** @type {GovernorConfig} */
  #config;
  /** @type {(parts: ToolPart[], options: { messageId: string }) => Promise<ToolPart[]>} */
  #externalize;
  #counter = new TokenCounter();

  /**
   * @param {{ runtime: CoreCaller, config: object }} session
   * @param {(parts: ToolPart[], options: { messageId: string }) => Promise<ToolPart[]>} externalize
   */
  constructor(session, externalize) {
    this.#runtime = session.runtime;
    this.#config = /** @type {GovernorConfig} the config the core resolved */ (session.config);
    this.#externalize = externalize;
  }

  /**
   * The stubs this governor made, by tool call id (`{ text, stub }`): a host that fits its full
   * history again at every step gets them back without storing and synopsizing the output again.
   * @type {Map<string, { text: string, stub: string }>}
   */
  #stubs = new Map();

  /**
   * @param {ContextFormat} format
   * @param {readonly unknown[]} messages
   */
  #conversationTokens(format, messages) {
    const strings = format.strings ?? messageStrings;
    let tokens = 0;
    for (const message of messages) {
      tokens += MESSAGE_OVERHEAD_TOKENS;
      for (const text of strings(message)) tokens += this.#counter.count(text);
    }
    return tokens;
  }

  /**
   * @template M
   * @param {M[]} messages the caller's conversation (checked to be an array)
   * @param {unknown} options
   * @returns {Promise<{ messages: M[], changed: boolean, tokensBefore: number, tokensAfter: number, cleared: string[] }>}
   */
  async fit(messages, options) {
    if (!Array.isArray(messages)) throw invalid("messages must be an array");
    const { format, policy, pinned, counting } = readingCaller("options", () =>
      readOptions(options),
    );
    await this.#counter.use(counting);
    /** @param {string} text */
    const count = (text) => this.#counter.count(text);
    const stubHeader = this.#config.stubHeader;
    const toolNames = JSON.stringify(this.#config.toolNames);
    const tokensBefore = readingCaller("messages", () =>
      this.#conversationTokens(format, messages),
    );
    let current = messages;
    let total = tokensBefore;
    /** @type {string[]} */
    const cleared = [];
    for (let round = 0; round < MAX_ROUNDS; round++) {
      /** @type {Slot[]} */
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
        /** @type {string} the core answers JSON */ (
          await this.#runtime.extras.call("contextPlan", JSON.stringify(input))
        ),
      );
      /** @type {Map<number, string>} */
      const texts = new Map();
      for (const { index, to } of plan.clear) {
        const slot = slots[index];
        const stub = await this.#stubOf(slot, results[index].head);
        if (stub === undefined) continue;
        const replaced = /** @type {string | undefined} the core's JSON, if it replaces */ (
          this.#runtime.call(
            "contextReplacement",
            to,
            stub,
            readingCaller("countTokens", () => count(stub)),
            results[index].tokens,
            stubHeader,
            toolNames,
          )
        );
        if (replaced === undefined) continue;
        /** @type {{ text: string, reference: string }} */
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
   * @param {Slot} slot
   * @param {string} head
   * @returns {Promise<string | undefined>}
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
    const oldest = this.#stubs.keys().next().value;
    if (this.#stubs.size >= KEPT_STUBS && oldest !== undefined) this.#stubs.delete(oldest);

    this.#stubs.set(slot.toolCallId, { text: slot.text, stub: part.output });
    return part.output;
  }
}
