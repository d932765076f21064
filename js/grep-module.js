// The grep module: searches with `regex`, `ignoreCase` or `wholeWord` run in a second wasm module
// (grep/ in the repository: the `regex` engine and its Unicode tables), too large for the main
// module every page loads. It is instantiated on the first search that needs it, or ahead of time
// with `preloadGrep()`; everything else works without it. The entry modules say how to load it
// (a file read in Node, a fetch next to the package in browsers).

import { ToolStubError } from "./stores/errors.js";
import { toToolStubError } from "./core-call.js";

let loader;
let loading;
let loaded;

/** Called by an entry module with `async () => instantiated glue module`. */
export function useGrepLoader(load) {
  loader = load;
}

/** Instantiates the grep module now (idempotent); resolves when it is ready. */
export function preloadGrep() {
  if (loaded) return Promise.resolve();
  if (!loading) {
    if (!loader) {
      return Promise.reject(
        new ToolStubError("NOT_READY", "no grep module loader: import the package's entry point ('tool-stub', 'tool-stub/node' or 'tool-stub/browser')"),
      );
    }
    loading = Promise.resolve()
      .then(loader)
      .then(
        (module) => {
          loaded = module;
        },
        (error) => {
          loading = undefined;
          throw new ToolStubError("NOT_READY", `the grep module (wasm/tool_stub_grep_bg.wasm) could not be loaded: ${error?.message ?? error}`, { cause: error });
        },
      );
  }
  return loading;
}

/** Whether a search's options need the grep module (the core's `GrepRequest::is_literal`). */
export function needsGrepModule(options) {
  return Boolean(options.regex || options.ignoreCase || options.wholeWord);
}

/** The instantiated grep module, loading it first if needed. */
export async function grepModule() {
  if (!loaded) await preloadGrep();
  return loaded;
}

/**
 * The string whose UTF-8 the grep module holds (`loadText`): searching one output again skips
 * copying it in, which costs more than most searches (~2 ms per MB of non-Latin-1 text). Holds
 * the last searched output alive until another one is searched.
 */
let loadedText;

/** `{ matches, totalMatches, note? }` of a search in `content` (JSON text, as the core's). */
export function grepContent(module, content, request) {
  if (content !== loadedText) {
    loadedText = undefined;
    callGrep(module, "loadText", content);
    loadedText = content;
  }
  return callGrep(module, "grepLoaded", request);
}

/** Calls the grep module with the package's error conversion; a trap resets the module. */
export function callGrep(module, name, ...args) {
  try {
    return module[name](...args);
  } catch (error) {
    if (typeof WebAssembly !== "undefined" && error instanceof WebAssembly.RuntimeError) {
      loadedText = undefined;
      module.__wbg_reset_state?.();
      throw new ToolStubError("INTERNAL", `internal error in the grep module (module reset): ${error.message}`, { cause: error });
    }
    throw toToolStubError(error);
  }
}
