// Whether the wasm module is instantiated, and if it failed to load, what to do about it. Only the
// entry modules mark it (not part of the API).
let ready = false;
let notReadyReason = "";

export function markReady() {
  ready = true;
  notReadyReason = "";
}

/** Records why the module did not load (the message NOT_READY errors give). */
export function markNotReady(reason) {
  notReadyReason = reason;
}

export function isReady() {
  return ready;
}

export function notReadyMessage() {
  return (
    notReadyReason ||
    "the tool-stub wasm module is not initialized yet: import the package's entry point ('tool-stub', 'tool-stub/node' or 'tool-stub/browser') and await it before calling"
  );
}

/**
 * Settles when the instantiation in flight (the browser entry loads the wasm in the background)
 * has succeeded or failed; ToolStub's methods wait for it before their first use of the core.
 */
let readiness = Promise.resolve();

export function whenReady() {
  return readiness;
}

/** Called by the browser entry with its instantiation's promise (one that never rejects). */
export function useReadiness(settled) {
  readiness = settled;
}
