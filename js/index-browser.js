// Entry point for browsers (and other hosts with fetch): the import starts instantiating the wasm
// module, fetched next to this file, without top-level await (so an iife bundle can hold it);
// ToolStub's methods wait for it, and `await init()` says when the synchronous calls work. Where
// that fetch cannot work (a bundler that does not emit the wasm, such as esbuild), the host calls
// `init({ module | bytes | url })`; in Node, where fetch cannot read the package's file: URL, the
// import fails saying to use the Node entry instead.
import * as core from "../wasm/tool_stub.js";
import { createApi } from "./api.js";
import { Runtime } from "./runtime.js";
import { SearchWorker } from "./search-worker-client.js";
import { ToolStubError } from "./stores/errors.js";

/**
 * The package's wasm files next to this module; null where the host gives modules no URL
 * (workerd). Written as literal `new URL("...", import.meta.url)` expressions: that is the form
 * Vite and webpack recognize to emit the files.
 */
function packageWasmUrls() {
  try {
    return [
      new URL("../wasm/tool_stub_bg.wasm", import.meta.url),
      new URL("../wasm/tool_stub_grep_bg.wasm", import.meta.url),
      new URL("../wasm/tool_stub_enhanced_bg.wasm", import.meta.url),
    ];
  } catch {
    return [null, null, null];
  }
}

const [WASM_URL, GREP_WASM_URL, ENHANCED_WASM_URL] = packageWasmUrls();

/**
 * The search worker (search-worker.js), written as the literal `new Worker(new URL(...,
 * import.meta.url), { type: "module" })` that Vite, webpack and Parcel emit as a worker bundle.
 * Throws where the host has no Worker or the module no URL (an iife bundle).
 */
function newSearchWorker(url) {
  if (typeof Worker !== "function") throw new Error("this host has no Worker");
  if (url !== undefined) return new Worker(url, { type: "module" });
  return new Worker(new URL("./search-worker.js", import.meta.url), { type: "module" });
}

/**
 * A wasm source as a worker can take it (a message cannot carry a URL object, a Response or a
 * promise): an absolute URL string, a Module or bytes; undefined when it cannot.
 */
function forWorker(source) {
  if (source == null) return undefined;
  if (typeof WebAssembly !== "undefined" && source instanceof WebAssembly.Module) return source;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return source;
  if (source instanceof URL) return source.href;
  if (typeof source === "string") return new URL(source, globalThis.location?.href).href;
  if (typeof Request === "function" && source instanceof Request) return source.url;
  return undefined;
}

/** The wasm a source names: `module` (a WebAssembly.Module), `bytes` (a BufferSource or Response), or `url`. */
function wasmOf(source, prefix, fallback) {
  const key = (name) => (prefix ? `${prefix}${name[0].toUpperCase()}${name.slice(1)}` : name);
  return source[key("module")] ?? source[key("bytes")] ?? source[key("url")] ?? fallback;
}

function useWebCrypto(runtime) {
  // WebCrypto exists only in secure contexts; elsewhere the core's SHA-256 stays in use.
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return;
  const sha256OfBytes = async (bytes) => {
    const digest = new Uint8Array(await subtle.digest("SHA-256", bytes));
    return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
  };
  runtime.useSha256((text) => sha256OfBytes(new TextEncoder().encode(text)));
  // `digest` copies its input before it returns, so it may hash bytes in the core's memory.
  runtime.useStagedSha256(sha256OfBytes);
}

/** How the browser runtime gets its wasm: the instantiation, and each `init` after it. */
class BrowserLoader {
  runtime = new Runtime(core);
  /** The wasm of the instantiation, for `init` calls that only change where searches run. */
  #instantiated;
  /** The last `init`'s promise: one instantiation at a time (the glue keeps the first one in flight). */
  #initializing;

  /** Instantiates the core, then says how to load the grep module and where searches run. */
  async #instantiate(source) {
    const wasm = wasmOf(source, "", WASM_URL);
    if (wasm === null)
      throw new TypeError(
        "this host gives the module no URL to find its wasm next to it (import.meta.url)",
      );
    await core.default({ module_or_path: wasm });
    useWebCrypto(this.runtime);
    this.runtime.markReady();
    this.#instantiated = { wasm, grepWasm: wasmOf(source, "grep", GREP_WASM_URL) };
    this.#useEnhanced(source);
    this.#useSearch(source);
  }

  /**
   * How to load enhanced mode's module (enhanced-module.js): asynchronously, the first time a
   * ToolStub configured for enhanced synopses needs one, or on `loadEnhancedMode()`.
   */
  #useEnhanced(source) {
    const enhancedWasm = wasmOf(source, "enhanced", ENHANCED_WASM_URL);
    this.runtime.enhanced.useLoader(async () => {
      if (enhancedWasm === null)
        throw new TypeError(
          "this host gives the module no URL to find its wasm next to it: pass init({ enhancedModule | enhancedBytes | enhancedUrl })",
        );
      const enhanced = await import("../wasm/tool_stub_enhanced.js");
      await enhanced.default({ module_or_path: enhancedWasm });
      return enhanced;
    });
  }

  /**
   * The grep module's loader and the search worker (unless `searchWorker: false`), from the wasm
   * of the instantiation. Takes effect for the searches after it, once no engine has started yet.
   */
  #useSearch(source) {
    const { wasm, grepWasm } = this.#instantiated;
    const grepModule = this.runtime.grep;
    grepModule.useLoader(async () => {
      const grep = await import("../wasm/tool_stub_grep.js");
      await grep.default({ module_or_path: grepWasm });
      return grep;
    });
    if (source.searchWorker === false) {
      grepModule.useSearchWorker(undefined);
      return;
    }
    grepModule.useSearchWorker(async (onStopped) => {
      const sources = { grep: forWorker(grepWasm), core: forWorker(wasm) };
      if (sources.grep === undefined)
        throw new Error(
          "the grep module's wasm was given in a form a worker cannot take (a Response or a promise)",
        );
      return new SearchWorker(newSearchWorker(source.searchWorkerUrl), sources, onStopped).start();
    });
  }

  /** An `init` once the core is ready: only its search options (`searchWorker`, `searchWorkerUrl`) apply. */
  #reconfigure(source) {
    if (wasmOf(source, "enhanced", undefined) !== undefined) this.#useEnhanced(source);
    if (source.searchWorker !== undefined || source.searchWorkerUrl !== undefined)
      this.#useSearch(source);
  }

  /** See `init` below. */
  init(source) {
    const previous = this.#initializing ?? Promise.resolve();
    this.#initializing = previous
      .catch(() => {})
      .then(() => (this.runtime.isReady() ? this.#reconfigure(source) : this.#instantiate(source)));
    // ToolStub's methods wait for it (a failure is theirs to report, as NOT_READY saying why).
    this.runtime.useReadiness(this.#initializing.catch(() => {}));
    return this.#initializing;
  }
}

/** The page's runtime and how it loads; every ToolStub and call of this entry uses it. */
const loader = new BrowserLoader();

/**
 * Instantiates the core from the wasm the host gives (`module`, `bytes` or `url`; default: next
 * to this file) and the grep module likewise (`grepModule`, `grepBytes` or `grepUrl`; loaded on
 * the first regex/ignoreCase/wholeWord search), and enhanced mode's module (`enhancedModule`,
 * `enhancedBytes` or `enhancedUrl`; loaded on `loadEnhancedMode()` or by a ToolStub configured for
 * enhanced synopses, and replaceable by a later `init` until then). Searches run in a worker (`searchWorkerUrl`: where
 * the host serves js/search-worker.js when its bundler does not emit it; `searchWorker: false`: on
 * the main thread). The import starts `init()` itself; awaiting it is how a page knows the
 * synchronous calls work. Once the core is ready, an `init` changes only where searches run (before
 * the first search).
 */
export function init(source = {}) {
  return loader.init(source);
}

const inNode =
  typeof process !== "undefined" &&
  typeof process.versions?.node === "string" &&
  !globalThis.Deno &&
  !process.versions.bun;
if (inNode) {
  // Node's fetch cannot read the package's file: URL, so this entry could never load its wasm.
  throw new ToolStubError(
    "NOT_READY",
    `tool-stub/browser cannot load its wasm in Node: it fetches ${WASM_URL?.href}, which Node's fetch cannot read. ` +
      `In Node (SSR, vitest, scripts) import "tool-stub" or "tool-stub/node" instead; the package's "node" export condition picks the Node build`,
  );
}
// No top-level await (an iife bundle, esbuild's default, cannot hold one): the wasm loads in the
// background. ToolStub's methods wait for it; the synchronous calls need `await init()` first.
loader.runtime.markNotReady(
  "the tool-stub wasm module is still loading: await init() before calling synopsis, renderStub, makePreview, toolResultId, sha256Hex " +
    "or toolDefinitions (ToolStub's other methods wait for it themselves)",
);
init().catch((error) => {
  // A page whose bundler did not emit the wasm: the API waits for the host's init().
  loader.runtime.markNotReady(
    `tool-stub could not load its wasm from ${WASM_URL?.href ?? "next to its module"} (${error?.message ?? error}); your bundler may not have emitted it ` +
      `(esbuild leaves new URL(..., import.meta.url) as it is, and an iife bundle has no module URL). Serve wasm/tool_stub_bg.wasm and call ` +
      `await init({ url }) with its address, or init({ module }) / init({ bytes }), before using tool-stub`,
  );
});

export { ToolStubError, MemoryStore, DEFAULT_SESSION_URI_PATTERN } from "./api.js";
export const {
  ToolStub,
  useSha256,
  preloadGrep,
  loadEnhancedMode,
  synopsis,
  renderStub,
  makePreview,
  toolResultId,
  sha256Hex,
} = createApi(loader.runtime);
