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
