// Error type shared by the whole package. Callers branch on `code`, never on
// the message text, so the codes below are part of the public API.

export const ERROR_CODES = Object.freeze([
  "INVALID_ARGUMENT",
  "NOT_FOUND",
  "STORE_FAILED",
  "CORRUPT",
  "TOO_LARGE",
  "NOT_READY",
  "INTERNAL",
]);

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
