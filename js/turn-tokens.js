// A turn's token counts (config `budgetUnit: "tokens"`): the core decides which outputs go out;
// this counts the outputs' tokens it needs and passes them in with the parts. A count is left out
// only where the output's size already gives the core's answer: every token of these byte-level
// BPE tokenizers covers at least one UTF-8 byte, so an output has at most as many tokens as
// bytes, and the core measures an uncounted output by its bytes (src/budget_unit.rs). An output
// that could be over the threshold is counted only up to it: past it, the output goes out whatever
// its count, so counting stops there, and the head counted so far is what the core estimates the
// stub's tokens from.

import { TokenCounter } from "./context/tokens.js";
import { utf8Length } from "./catalog.js";

/** Most UTF-8 bytes one UTF-16 code unit takes (a surrogate pair's 4 bytes are 2 units). */
const MAX_BYTES_PER_UNIT = 3;
/** Most UTF-8 bytes one char (code point) takes: a stub of N chars has at most 4N bytes. */
const MAX_BYTES_PER_CHAR = 4;
/**
 * The fewest tokens an over-threshold output's estimate comes from: counting goes this far past
 * a lower threshold (a few milliseconds), so a small threshold still gets a steady estimate.
 */
const SAMPLE_TOKENS = 4_096;
/** An output of at most this many UTF-16 units is counted to its end: its stub reports a count. */
const COUNTED_UNITS = 65_536;

/** @typedef {import("./session.js").ResolvedConfig} ResolvedConfig */
/**
 * What the plan needs of one output's tokens (part fields): its count, or, for an output over
 * the threshold, the proof and a counted head; `{}` when its size settles it.
 * @typedef {{ outputTokens?: number, outputTokensSample?: { moreThan: number, sampleChars: number, sampleTokens: number } }} OutputTokenFields
 */
/**
 * What counting looks at of a turn's part as the core reads it.
 * @typedef {{ outputRef?: unknown, truncated?: unknown, keepInline?: unknown, forceExternalize?: unknown, toolName?: unknown }} CountedPart
 */

/**
 * `text`'s chars as the core reads them: code points (a lone surrogate is one).
 * @param {string} text
 */
function codePoints(text) {
  let points = text.length;
  for (let i = 0; i + 1 < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      points -= 1;
      i += 1;
    }
  }
  return points;
}

/** One ToolStub's counter for its turns: its cache lives as long as the ToolStub. */
export class TurnTokens {
  #counter = new TokenCounter();
  /** @type {((text: string, limit?: number) => number) | undefined} */
  #countTokens;

  /**
   * `countTokens`: the caller's `(text) => number` or `(text, limit) => number`, else the
   * config's tokenizer counts.
   * @param {((text: string, limit?: number) => number) | undefined} countTokens
   */
  constructor(countTokens) {
    this.#countTokens = countTokens;
  }

  /**
   * What the plan needs of each output's tokens, as the part fields `{ outputTokens }` or
   * `{ outputTokensSample }` (`{}` for the others): an output whose bytes could be over the
   * threshold is counted up to it (its count; or, past it, the proof and a counted head); the
   * others only when the turn's bytes could pass the inline budget.
   * @param {ResolvedConfig} config
   * @param {readonly unknown[]} outputs
   * @param {readonly CountedPart[]} coreParts
   * @returns {Promise<OutputTokenFields[]>}
   */
  async count(config, outputs, coreParts) {
    /** @type {OutputTokenFields[]} */
    const counts = outputs.map(() => ({}));
    if (config.budgetUnit !== "tokens" || !config.enabled) return counts;
    const threshold = config.thresholdTokens;
    const exempt = new Set(config.exemptToolNames);
    /** @type {{ index: number, output: string, bound: number, goes: boolean }[]} */
    const sized = [];
    for (let i = 0; i < outputs.length; i++) {
      const output = outputs[i];
      if (typeof output !== "string" || output.length === 0) continue;
      const part = coreParts[i];
      // Already a stub, or kept inline: only the budget's total counts it.
      const held =
        (part.outputRef && part.truncated) ||
        part.keepInline === true ||
        (typeof part.toolName === "string" && exempt.has(part.toolName));
      // Bytes are only measured when neither bound settles it: at most 3 a UTF-16 unit, and at
      // least 1 (a surrogate pair is 4), so an output of more units than the threshold is over
      // it by its bytes with no pass over a multi-megabyte text.
      const quick = output.length * MAX_BYTES_PER_UNIT;
      const bound = quick <= threshold || output.length > threshold ? quick : utf8Length(output);
      const goes = !held && (bound > threshold || part.forceExternalize === true);
      sized.push({ index: i, output, bound, goes });
    }
    if (sized.length === 0) return counts;
    await this.#counter.use({ countTokens: this.#countTokens, tokenizer: config.tokenizer });
    const limit = Math.max(threshold, 0);
    const stubBytes = config.maxStubChars * MAX_BYTES_PER_CHAR;
    let total = 0;
    for (const entry of sized) {
      if (!entry.goes) continue;
      const headTokens = entry.output.length <= COUNTED_UNITS ? Infinity : SAMPLE_TOKENS;
      const counted = this.#counter.countPast(entry.output, limit, headTokens);
      const tokens = counted.tokens;
      if (tokens === undefined) {
        // Over the threshold: it goes out as a stub whatever its count; the core measures a stub
        // in token mode by its UTF-8 bytes (at most 4 a char, at most maxStubChars chars).
        counts[entry.index] = {
          outputTokensSample: {
            moreThan: counted.moreThan,
            sampleChars: codePoints(counted.head),
            sampleTokens: counted.headTokens,
          },
        };
        total += stubBytes;
        continue;
      }
      counts[entry.index] = { outputTokens: tokens };
      // Whatever it becomes, a stub or the output itself.
      total += Math.max(tokens, stubBytes);
    }
    for (const entry of sized) if (!entry.goes) total += entry.bound;
    if (total < config.assistantTurnInlineBudgetTokens) return counts;
    for (const entry of sized)
      if (!entry.goes) counts[entry.index] = { outputTokens: this.#counter.count(entry.output) };
    return counts;
  }
}
