// A turn's token counts (config `budgetUnit: "tokens"`): the core decides which outputs go out;
// this counts the outputs' tokens it needs and passes them in with the parts. A count is left out
// only where the output's size already gives the core's answer: every token of these byte-level
// BPE tokenizers covers at least one UTF-8 byte, so an output has at most as many tokens as
// bytes, and the core measures an uncounted output by its bytes (src/budget_unit.rs).

import { TokenCounter } from "./context/tokens.js";
import { utf8Length } from "./catalog.js";

/** Most UTF-8 bytes one UTF-16 code unit takes (a surrogate pair's 4 bytes are 2 units). */
const MAX_BYTES_PER_UNIT = 3;

/** One ToolStub's counter for its turns: its cache lives as long as the ToolStub. */
export class TurnTokens {
  #counter = new TokenCounter();
  #countTokens;

  /** `countTokens`: the caller's `(text) => number`, else the config's tokenizer counts. */
  constructor(countTokens) {
    this.#countTokens = countTokens;
  }

  /**
   * The tokens of each output whose count can change the plan (undefined for the others): an
   * output whose bytes could be over the threshold (counted, and reported by its stub); the
   * others only when the turn's bytes could pass the inline budget.
   */
  async count(config, outputs, coreParts) {
    const counts = new Array(outputs.length).fill(undefined);
    if (config.budgetUnit !== "tokens" || !config.enabled) return counts;
    const threshold = config.thresholdTokens;
    const exempt = new Set(config.exemptToolNames);
    const sized = [];
    for (let i = 0; i < outputs.length; i++) {
      const output = outputs[i];
      if (typeof output !== "string" || output.length === 0) continue;
      const part = coreParts[i];
      // Already a stub, or kept inline: only the budget's total counts it.
      const held =
        (part.outputRef && part.truncated) || part.keepInline === true || exempt.has(part.toolName);
      // Bytes are only measured when the quick bound (3 bytes a unit) does not settle it.
      const quick = output.length * MAX_BYTES_PER_UNIT;
      const bound = quick <= threshold ? quick : utf8Length(output);
      const goes = !held && (bound > threshold || part.forceExternalize === true);
      sized.push({ index: i, output, bound, goes });
    }
    if (sized.length === 0) return counts;
    await this.#counter.use({ countTokens: this.#countTokens, tokenizer: config.tokenizer });
    let total = 0;
    for (const entry of sized) {
      if (!entry.goes) continue;
      const tokens = this.#counter.count(entry.output);
      counts[entry.index] = tokens;
      // Whatever it becomes, a stub (at most maxStubChars) or the output itself.
      total += Math.max(tokens, config.maxStubChars);
    }
    for (const entry of sized) if (!entry.goes) total += entry.bound;
    if (total < config.assistantTurnInlineBudgetTokens) return counts;
    for (const entry of sized)
      if (!entry.goes) counts[entry.index] = this.#counter.count(entry.output);
    return counts;
  }
}
