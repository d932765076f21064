// Token counting for the context governor: a named tokenizer (an optional peer dependency,
// loaded on first use) or the caller's own `countTokens(text)`, behind a per-instance cache so a
// conversation's older messages are counted once, not at every step.

import { ToolStubError, caught } from "../stores/errors.js";
import { invalid } from "../arguments.js";

/**
 * The named tokenizers, each a module of gpt-tokenizer (it ships its vocabularies, encodes
 * exactly as tiktoken does, and counted 10 MB of JSON about 4x faster than js-tiktoken: see
 * docs/context-governor.md). The specifiers are not literals, so a bundler neither bundles the
 * vocabularies nor fails when the optional dependency is absent; a bundled app passes
 * `countTokens` instead.
 */
const TOKENIZERS = {
  o200k: "gpt-tokenizer/encoding/o200k_base",
  cl100k: "gpt-tokenizer/encoding/cl100k_base",
};

export const TOKENIZER_NAMES = /** @type {(keyof typeof TOKENIZERS)[]} */ (Object.keys(TOKENIZERS));

/** The chars of counted texts a cache keeps (older entries go first). */
const CACHED_CHARS = 64 * 1024 * 1024;
/** Texts shorter than this are counted again rather than cached. */
const UNCACHED_CHARS = 256;

/**
 * A count that stops past a limit: `{ tokens }`, the whole count, or `{ moreThan, head,
 * headTokens }`, the text being over `moreThan` tokens and its first pieces `head` encoding to
 * `headTokens` tokens.
 * @typedef {{ tokens: number, moreThan?: undefined } | { tokens?: undefined, moreThan: number, head: string, headTokens: number }} Counted
 */
/** @typedef {(text: string, limit: number, headTokens: number) => Counted} UpTo */
/** A caller's `countTokens`: its answer is checked. @typedef {(text: string, limit?: number) => unknown} CallerCount */
/**
 * The part of a gpt-tokenizer encoding module this uses (the module is loaded by a specifier
 * that is not a literal, so TypeScript cannot see its own types).
 * @typedef {object} GptTokenizerEncoding
 * @property {(text: string, options: object) => number} countTokens
 * @property {(text: string, options: object) => Iterable<number[]>} encodeGenerator
 * @property {(tokens: number[]) => string} decode
 */

/**
 * A named tokenizer, loaded now: `count(text)`, and `upTo(text, limit, headTokens)`: `{ tokens }`
 * when the text ends before it has more than `limit` tokens and at least `headTokens` (`Infinity`:
 * a count whatever it is), else `{ moreThan: limit, head, headTokens }`, `head` being the text's
 * first pieces, which encode to `headTokens` tokens. One pass, stopped there: the proof that an
 * output is over the limit is also the head its tokens are estimated from, so no head is counted
 * a second time (that cost more than the proof on one-line JSON).
 * @param {unknown} name
 * @returns {Promise<{ count: (text: string) => number, upTo: UpTo }>}
 */
async function namedCounter(name) {
  if (typeof name !== "string" || !Object.hasOwn(TOKENIZERS, name))
    throw invalid(
      `tokenizer must be one of ${TOKENIZER_NAMES.map((n) => JSON.stringify(n)).join(", ")} (got ${JSON.stringify(name)}), or pass countTokens(text)`,
    );
  const specifier = TOKENIZERS[/** @type {keyof typeof TOKENIZERS} */ (name)];
  /** @type {GptTokenizerEncoding} */
  let encoding;
  try {
    encoding = await import(/* webpackIgnore: true */ /* @vite-ignore */ specifier);
  } catch (error) {
    throw new ToolStubError(
      "NOT_READY",
      `the ${name} tokenizer needs the optional peer dependency gpt-tokenizer (npm install gpt-tokenizer), or pass countTokens(text): ${caught(error)?.message ?? error}`,
    );
  }
  // A tool output or message that quotes a special token (`<|endoftext|>`) is text, encoded as
  // a provider encodes a user's text: gpt-tokenizer's default throws on it.
  const asText = { disallowedSpecial: new Set() };
  return {
    /** @param {string} text */
    count: (text) => encoding.countTokens(text, asText),
    /** @type {UpTo} */
    upTo: (text, limit, headTokens) => {
      const wanted = Math.max(limit + 1, headTokens);
      /** @type {number[]} */
      const tokens = [];
      let count = 0;
      // gpt-tokenizer yields the tokens of one pre-tokenized piece at a time, so the tokens so
      // far decode to a prefix of `text` made of whole pieces: the head, counted exactly.
      for (const piece of encoding.encodeGenerator(text, asText)) {
        count += piece.length;
        for (const token of piece) tokens.push(token);
        if (count >= wanted)
          return { moreThan: limit, head: encoding.decode(tokens), headTokens: count };
      }
      return { tokens: count };
    },
  };
}

/**
 * A counter's answer, refused unless a count.
 * @param {unknown} tokens
 * @returns {number}
 */
function checkedTokens(tokens) {
  if (typeof tokens !== "number" || !Number.isSafeInteger(tokens) || tokens < 0)
    throw invalid(`countTokens must return a non-negative integer (got ${String(tokens)})`);
  return tokens;
}

/** The UTF-16 units of the head a caller's stopped count is followed by, for the estimate. */
const CALLER_HEAD_UNITS = 65_536;

/**
 * `upTo` (see `namedCounter`) for a caller's `countTokens(text, limit)` that declares both
 * parameters: it may stop once `text` has more than `limit` tokens and return any number above
 * it. Past the limit its answer proves only that, so the head it is estimated from is counted
 * apart, with `limit` Infinity (a count to the end); so is a text wanted whole.
 * @param {CallerCount} countTokens
 * @returns {UpTo}
 */
function callerUpTo(countTokens) {
  /**
   * @param {string} text
   * @param {number} limit
   */
  const counted = (text, limit) => checkedTokens(countTokens(text, limit));
  return (text, limit, headTokens) => {
    if (headTokens === Infinity) return { tokens: counted(text, Infinity) };
    const tokens = counted(text, limit);
    if (tokens <= limit) return { tokens };
    // Not through a surrogate pair: the head is whole chars.
    let units = Math.min(text.length, CALLER_HEAD_UNITS);
    if ((text.charCodeAt(units - 1) & 0xfc00) === 0xd800) units -= 1;
    const head = text.slice(0, units);
    return { moreThan: limit, head, headTokens: counted(head, Infinity) };
  };
}

/**
 * Counts tokens with a cache of its own: `await counter.load(options)` once per call with the
 * caller's `countTokens` or `tokenizer`, then `counter.count(text)`.
 */
export class TokenCounter {
  /** @type {Map<string, number>} */
  #cache = new Map();
  #cachedChars = 0;
  /** @type {(text: string) => unknown} */
  #countOf = () => {
    throw new ToolStubError("NOT_READY", "TokenCounter: call use() before count()");
  };
  /**
   * `(text, limit, headTokens) => counted`, when the tokenizer can stop past a limit.
   * @type {UpTo | undefined}
   */
  #upTo;
  /** @type {unknown} the caller's `countTokens` or the tokenizer's name */
  #source;

  /**
   * Uses the caller's `countTokens`, else the named tokenizer (`"o200k"` by default).
   * @param {{ countTokens?: unknown, tokenizer?: unknown }} counting the caller's options
   */
  async use({ countTokens, tokenizer = "o200k" }) {
    const source = countTokens ?? tokenizer;
    if (source === this.#source) return;
    if (countTokens !== undefined && typeof countTokens !== "function")
      throw invalid("countTokens must be a function (text) => number");
    if (countTokens === undefined) {
      const named = await namedCounter(tokenizer);
      this.#countOf = named.count;
      this.#upTo = named.upTo;
    } else {
      // A function (checked above); its answers are checked.
      const caller = /** @type {CallerCount} */ (countTokens);
      // One that takes a limit is told there is none when the whole count is wanted.
      const stops = caller.length >= 2;
      this.#countOf = stops ? (text) => caller(text, Infinity) : caller;
      this.#upTo = stops ? callerUpTo(caller) : undefined;
    }
    this.#source = source;
    this.#cache.clear();
    this.#cachedChars = 0;
  }

  /**
   * @param {string} text
   * @returns {number}
   */
  count(text) {
    if (text.length < UNCACHED_CHARS) return this.#counted(text);
    const cached = this.#cache.get(text);
    if (cached !== undefined) return cached;
    const tokens = this.#counted(text);
    this.#remember(text, tokens);
    return tokens;
  }

  /**
   * @param {string} text
   * @param {number} tokens
   */
  #remember(text, tokens) {
    this.#cache.set(text, tokens);
    this.#cachedChars += text.length;
    for (const [key] of this.#cache) {
      if (this.#cachedChars <= CACHED_CHARS) break;
      this.#cache.delete(key);
      this.#cachedChars -= key.length;
    }
  }

  /**
   * `{ tokens }`, `text`'s count, when the tokenizer can stop early (a named one, or a caller's
   * `countTokens(text, limit)`) only if at most `limit`; past it, `{ moreThan, head, headTokens }`
   * (see `namedCounter`), counting no further than needed. A caller's `countTokens(text)` of one
   * parameter has no such stop: the text is counted in full and its count returned whatever it is.
   * @param {string} text
   * @param {number} limit
   * @param {number} headTokens
   * @returns {Counted}
   */
  countPast(text, limit, headTokens) {
    const cached = this.#cache.get(text);
    if (cached !== undefined) return { tokens: cached };
    if (this.#upTo === undefined || text.length < UNCACHED_CHARS)
      return { tokens: this.count(text) };
    const counted = this.#upTo(text, limit, headTokens);
    if (counted.tokens !== undefined) this.#remember(text, checkedTokens(counted.tokens));
    return counted;
  }

  /** @param {string} text */
  #counted(text) {
    return checkedTokens(this.#countOf(text));
  }
}
