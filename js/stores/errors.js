// Error type shared by the whole package. Callers branch on `code`, never on
// the message text, so the codes are part of the public API.

// The codes are generated from src/error.rs, their one list (see ../generated/contract.js).
import { ERROR_CODES } from "../generated/contract.js";
/** @typedef {import("../generated/contract.js").ErrorCode} ToolStubErrorCode */

export { ERROR_CODES };

export class ToolStubError extends Error {
  /** @type {"ToolStubError"} */
  name = "ToolStubError";

  /**
   * @param {ToolStubErrorCode} code one of ERROR_CODES
   * @param {string} message human-readable detail
   * @param {{cause?: unknown}} [options]
   */
  constructor(code, message, { cause } = {}) {
    // Pass cause through the standard option so devtools/Node show the chain.
    super(message, cause === undefined ? undefined : { cause });
    /** Stable machine-readable code; branch on this, not on the message. */
    this.code = code;
  }
}

/**
 * What a catch clause caught, read as an error: anything can be thrown, so its properties
 * (`code`, `message`, `name`, `stack`, ...) are read where it is an object, unknown otherwise.
 * @param {unknown} thrown
 * @returns {{ [property: string]: unknown } | undefined}
 */
export function caught(thrown) {
  return typeof thrown === "object" && thrown !== null
    ? /** @type {{ [property: string]: unknown }} */ (thrown)
    : undefined;
}

/**
 * What a call threw, as a ToolStubError: the core throws an `Error` with a `code` (its binding's
 * error conversion), kept with its stack, which goes through the core's frames to the caller's;
 * anything else is INTERNAL. (A wasm trap also resets its module: see runtime.js.)
 * @param {unknown} error
 * @returns {ToolStubError}
 */
export function asToolStubError(error) {
  if (error instanceof ToolStubError) return error;
  const code = caught(error)?.code;
  if (error instanceof Error && ERROR_CODES.some((known) => known === code)) {
    const converted = new ToolStubError(/** @type {ToolStubErrorCode} */ (code), error.message);
    const head = `Error: ${error.message}`;
    if (typeof error.stack === "string" && error.stack.startsWith(head)) {
      converted.stack = `ToolStubError: ${error.message}${error.stack.slice(head.length)}`;
    }
    return converted;
  }
  return new ToolStubError("INTERNAL", String(caught(error)?.message ?? error), { cause: error });
}

/**
 * Whether `error` is a wasm trap (the module that trapped must start afresh).
 * @param {unknown} error
 */
export function isWasmTrap(error) {
  return typeof WebAssembly !== "undefined" && error instanceof WebAssembly.RuntimeError;
}
