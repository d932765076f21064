// The token-budget flags of `tool-stub externalize` and `tool-stub mcp`/`mcp-proxy`, read into the
// library's config keys (budgetUnit, thresholdTokens, assistantTurnInlineBudgetTokens, tokenizer;
// docs/context-governor.md), with errors that name the flag.

import { ToolStubError } from "./stores/errors.js";
import { TOKENIZER_NAMES } from "./context/tokens.js";

/**
 * The flags, for parseArgs.
 * @type {import("node:util").ParseArgsOptionsConfig}
 */
export const TOKEN_FLAG_OPTIONS = {
  "budget-unit": { type: "string" },
  "threshold-tokens": { type: "string" },
  "turn-budget-tokens": { type: "string" },
  tokenizer: { type: "string" },
};

const BUDGET_UNITS = ["chars", "tokens"];

/** @param {string} message */
function invalid(message) {
  return new ToolStubError("INVALID_ARGUMENT", message);
}

/**
 * @param {string | undefined} value
 * @param {string} name
 */
function count(value, name) {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw invalid(`--${name} takes a non-negative integer (got ${value})`);
  return Number(value);
}

/**
 * @param {string | undefined} value
 * @param {readonly string[]} names
 * @param {string} name
 */
function oneOf(value, names, name) {
  if (value === undefined || names.includes(value)) return value;
  throw invalid(
    `--${name} takes ${names.join(" or ")} (got ${value})${name === "tokenizer" ? "; any other tokenizer: use the library's countTokens option" : ""}`,
  );
}

/**
 * The config keys the token flags set (unset flags set nothing). A token flag alone means token
 * mode; with `--budget-unit chars` it would be ignored, and so would `--threshold` or
 * `--turn-budget` (`charFlags`: those of them the command has and were given) in token mode:
 * both are refused rather than left without effect. `configured`: the unit a config file set.
 * @param {{ [flag: string]: string | boolean | (string | boolean)[] | undefined }} values parseArgs's
 * @param {string[]} [charFlags]
 * @param {unknown} [configured]
 * @returns {Partial<Pick<import("./index.js").ToolStubConfig, "budgetUnit" | "thresholdTokens" | "assistantTurnInlineBudgetTokens" | "tokenizer">>}
 */
export function tokenConfigOf(values, charFlags = [], configured = undefined) {
  /** @param {string} flag a string option (TOKEN_FLAG_OPTIONS) */
  const text = (flag) => /** @type {string | undefined} */ (values[flag]);
  const tokenFlags = ["threshold-tokens", "turn-budget-tokens", "tokenizer"].filter(
    (name) => values[name] !== undefined,
  );
  const unit =
    oneOf(text("budget-unit"), BUDGET_UNITS, "budget-unit") ??
    (tokenFlags.length > 0 ? "tokens" : undefined);
  if (unit === "chars" && tokenFlags.length > 0)
    throw invalid(
      `--${tokenFlags[0]} counts tokens, but --budget-unit is chars: leave --budget-unit out or make it tokens`,
    );
  const givenCharFlags = charFlags.filter((name) => values[name] !== undefined);
  if ((unit ?? configured) === "tokens" && givenCharFlags.length > 0)
    throw invalid(
      `--${givenCharFlags[0]} counts chars, but the budget unit is tokens: use --${givenCharFlags[0]}-tokens`,
    );
  const config = {
    budgetUnit: unit,
    thresholdTokens: count(text("threshold-tokens"), "threshold-tokens"),
    assistantTurnInlineBudgetTokens: count(text("turn-budget-tokens"), "turn-budget-tokens"),
    tokenizer: oneOf(text("tokenizer"), TOKENIZER_NAMES, "tokenizer"),
  };
  return Object.fromEntries(Object.entries(config).filter(([, value]) => value !== undefined));
}
