// Error type shared by the whole package. Callers branch on `code`, never on
// the message text, so the codes are part of the public API.

// The codes are generated from src/error.rs, their one list (see error-codes.js).
import { ERROR_CODES } from "./error-codes.js";

export { ERROR_CODES };

export class ToolStubError extends Error {
  /**
   * @param {string} code one of ERROR_CODES
   * @param {string} message human-readable detail
   * @param {{cause?: unknown}} [options]
   */
  constructor(code, message, { cause } = {}) {
    // Pass cause through the standard option so devtools/Node show the chain.
    super(message, cause === undefined ? undefined : { cause });
    this.name = "ToolStubError";
    this.code = code;
  }
}

/**
 * What a call threw, as a ToolStubError: the core throws an `Error` with a `code` (its binding's
 * error conversion), kept with its stack, which goes through the core's frames to the caller's;
 * anything else is INTERNAL. (A wasm trap also resets its module: see runtime.js.)
 */
export function asToolStubError(error) {
  if (error instanceof ToolStubError) return error;
  if (error instanceof Error && ERROR_CODES.includes(error.code)) {
    const converted = new ToolStubError(error.code, error.message);
    const head = `Error: ${error.message}`;
    if (typeof error.stack === "string" && error.stack.startsWith(head)) {
      converted.stack = `ToolStubError: ${error.message}${error.stack.slice(head.length)}`;
    }
    return converted;
  }
  return new ToolStubError("INTERNAL", String(error?.message ?? error), { cause: error });
}

/** Whether `error` is a wasm trap (the module that trapped must start afresh). */
export function isWasmTrap(error) {
  return typeof WebAssembly !== "undefined" && error instanceof WebAssembly.RuntimeError;
}
