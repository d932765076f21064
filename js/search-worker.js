// The search worker: runs the grep module (and, for large outputs, the main module's search and
// hit-coordinate calls) off the page's main thread. Started by the browser entry
// (`new Worker(new URL("./search-worker.js", import.meta.url), { type: "module" })`, the form
// bundlers emit as a worker); driven by search-worker-client.js. It decides nothing: the same wasm
// as on the main thread answers, so results are identical.
//
// Messages are handled one at a time, in order (a text arrives in pieces before the search on it):
//   sources { grep, core }   the wasm each module is instantiated from (URL string, Module, bytes)
//   loadGrep                 instantiates the grep module
//   begin { capacity }       starts a new text; append { bytes } adds a UTF-8 piece of it
//   checkGrep { request }    grep { request }    core { name, args }
// Calls with an `id` are answered `{ id, result }` or `{ id, error: { code, message, name } }`.

import initGrep, * as grep from "../wasm/tool_stub_grep.js";
import initCore, * as core from "../wasm/tool_stub.js";
import { caught } from "./stores/errors.js";

/** @typedef {import("./search-worker-client.js").WorkerWasm} WorkerWasm */
/** @typedef {import("./grep-module.js").CoreOnTextName} CoreOnTextName */
/**
 * A message of the page (search-worker-client.js); one with an `id` is answered.
 * @typedef {{ id?: number } & (
 *   | { op: "sources", grep?: WorkerWasm, core?: WorkerWasm }
 *   | { op: "loadGrep" }
 *   | { op: "checkGrep", request: string }
 *   | { op: "begin", capacity: number }
 *   | { op: "append", bytes: Uint8Array }
 *   | { op: "grep", request: string }
 *   | { op: "core", name: string, args: unknown[] }
 * )} WorkerMessage
 */

/** @type {{ grep?: WorkerWasm, core?: WorkerWasm }} */
let sources = {};
/** @type {Promise<unknown> | undefined} */
let grepReady;
/** @type {Promise<unknown> | undefined} */
let coreReady;
/**
 * The current text's UTF-8 pieces (for the main module, which takes a string), and that string.
 * @type {Uint8Array[]}
 */
let pieces = [];
/** @type {string | undefined} */
let text;
/**
 * An error of a piece (a trap, bytes that are not UTF-8), answered by the next call on the text.
 * @type {unknown}
 */
let pieceError;

/** @type {ReadonlySet<string>} */
const CORE_CALLS = new Set(["grepContent", "hitCoordinates"]);

function loadGrep() {
  grepReady ??= initGrep({ module_or_path: sources.grep }).catch((error) => {
    grepReady = undefined;
    throw error;
  });
  return grepReady;
}

function loadCore() {
  if (sources.core === undefined) {
    throw Object.assign(new Error("the search worker was not given the main module"), {
      coreUnavailable: true,
    });
  }
  coreReady ??= initCore({ module_or_path: sources.core }).catch((/** @type {unknown} */ error) => {
    coreReady = undefined;
    throw Object.assign(
      new Error(
        `the search worker could not instantiate the main module: ${caught(error)?.message ?? error}`,
      ),
      { coreUnavailable: true },
    );
  });
  return coreReady;
}

/**
 * Calls a module; a trap resets it (its state is unknown) and drops the text.
 * @template R
 * @param {typeof grep | typeof core} module
 * @param {() => R} call
 * @returns {R}
 */
function guarded(module, call) {
  try {
    return call();
  } catch (error) {
    if (error instanceof WebAssembly.RuntimeError) {
      module.__wbg_reset_state?.();
      pieces = [];
      text = undefined;
      const which = module === grep ? "grep module" : "wasm core";
      throw Object.assign(
        new Error(`internal error in the ${which} (module reset): ${error.message}`),
        { code: "INTERNAL" },
      );
    }
    throw error;
  }
}

/** @param {WorkerMessage} message */
async function handle(message) {
  switch (message.op) {
    case "sources":
      sources = { grep: message.grep, core: message.core };
      return undefined;
    case "loadGrep":
      await loadGrep();
      return undefined;
    case "checkGrep":
      await loadGrep();
      return guarded(grep, () => grep.checkGrep(message.request));
    case "begin":
      pieces = [];
      text = undefined;
      pieceError = undefined;
      try {
        await loadGrep();
        guarded(grep, () => grep.clearText(message.capacity));
      } catch (error) {
        pieceError = error;
      }
      return undefined;
    case "append": {
      const { bytes } = message;
      try {
        guarded(grep, () => grep.appendTextUtf8(bytes));
      } catch (error) {
        pieceError ??= error;
      }
      // Kept for the main module's calls, which take a string (decoded on the first one).
      pieces.push(bytes);
      return undefined;
    }
    case "grep":
      if (pieceError) throw pieceError;
      return guarded(grep, () => grep.grepLoaded(message.request));
    case "core": {
      if (pieceError) throw pieceError;
      if (!CORE_CALLS.has(message.name))
        throw new Error(`no core call ${message.name} in the search worker`);
      await loadCore();
      if (text === undefined) {
        const decoder = new TextDecoder();
        text = pieces.map((bytes) => decoder.decode(bytes)).join("");
        pieces = [];
      }
      const whole = text;
      // One of CORE_CALLS, each of which takes the text and then the arguments the page sent.
      const call = /** @type {(text: string, ...args: unknown[]) => string} */ (
        core[/** @type {CoreOnTextName} */ (message.name)]
      );
      const { args } = message;
      return guarded(core, () => call(whole, ...args));
    }
    default:
      // A page of another version of the package: its message is none of the above.
      throw new Error(
        `unknown search worker message ${/** @type {{ op?: unknown }} */ (message).op}`,
      );
  }
}

/** @type {Promise<void>} */
let queue = Promise.resolve();
self.onmessage = (/** @type {MessageEvent<WorkerMessage>} */ { data }) => {
  queue = queue.then(async () => {
    try {
      const result = await handle(data);
      if (data.id !== undefined) self.postMessage({ id: data.id, result });
    } catch (error) {
      if (data.id === undefined) return;
      self.postMessage({
        id: data.id,
        error: {
          code: caught(error)?.code,
          message: String(caught(error)?.message ?? error),
          name: caught(error)?.name,
          coreUnavailable: caught(error)?.coreUnavailable,
        },
      });
    }
  });
};
