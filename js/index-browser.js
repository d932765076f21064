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
import { ToolStubError, caught } from "./stores/errors.js";

/** @typedef {import("./index.js").WasmSource} WasmSource */
/**
 * A module's wasm as the glue's `init` takes it: a Module, bytes, a Response or an address.
 * @typedef {WebAssembly.Module | BufferSource | Response | string | URL} WasmInput
 */

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
      new URL("../wasm/tool_stub_extras_bg.wasm", import.meta.url),
    ];
  } catch {
    return [null, null, null, null];
  }
}

const [WASM_URL, GREP_WASM_URL, ENHANCED_WASM_URL, EXTRAS_WASM_URL] = packageWasmUrls();

/**
 * The search worker (search-worker.js), written as the literal `new Worker(new URL(...,
 * import.meta.url), { type: "module" })` that Vite, webpack and Parcel emit as a worker bundle.
 * Throws where the host has no Worker or the module no URL (an iife bundle).
 * @param {string | URL | undefined} url
 */
function newSearchWorker(url) {
  if (typeof Worker !== "function") throw new Error("this host has no Worker");
  if (url !== undefined) return new Worker(url, { type: "module" });
  return new Worker(new URL("./search-worker.js", import.meta.url), { type: "module" });
}

/**
 * A wasm source as a worker can take it (a message cannot carry a URL object, a Response or a
 * promise): an absolute URL string, a Module or bytes; undefined when it cannot.
 * @param {WasmInput | null | undefined} source
 * @returns {import("./search-worker-client.js").WorkerWasm | undefined}
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

/** The fields of a WasmSource that give each module's wasm, in the order they are looked at. */
const WASM_FIELDS = /** @type {const} */ ({
  core: ["module", "bytes", "url"],
  grep: ["grepModule", "grepBytes", "grepUrl"],
  enhanced: ["enhancedModule", "enhancedBytes", "enhancedUrl"],
  extras: ["extrasModule", "extrasBytes", "extrasUrl"],
});

/**
 * The wasm a source names: `module` (a WebAssembly.Module), `bytes` (a BufferSource or Response), or `url`.
 * @template F
 * @param {WasmSource} source
 * @param {keyof typeof WASM_FIELDS} which
 * @param {F} fallback
 * @returns {WasmInput | F}
 */
function wasmOf(source, which, fallback) {
  const [module, bytes, url] = WASM_FIELDS[which];
  return source[module] ?? source[bytes] ?? source[url] ?? fallback;
}

/** @param {Runtime} runtime */
function useWebCrypto(runtime) {
  // WebCrypto exists only in secure contexts; elsewhere the core's SHA-256 stays in use.
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return;
  /** @param {Uint8Array<ArrayBuffer>} bytes */
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
  /**
   * The wasm of the instantiation, for `init` calls that only change where searches run.
   * @type {{ wasm: WasmInput, grepWasm: WasmInput | null } | undefined}
   */
  #instantiated;
  /**
   * The last `init`'s promise: one instantiation at a time (the glue keeps the first one in flight).
   * @type {Promise<void> | undefined}
   */
  #initializing;

  /**
   * Instantiates the core, then says how to load the grep module and where searches run.
   * @param {WasmSource} source
   */
  async #instantiate(source) {
    const wasm = wasmOf(source, "core", WASM_URL);
    if (wasm === null)
      throw new TypeError(
        "this host gives the module no URL to find its wasm next to it (import.meta.url)",
      );
    await core.default({ module_or_path: wasm });
    useWebCrypto(this.runtime);
    this.runtime.markReady();
    const instantiated = { wasm, grepWasm: wasmOf(source, "grep", GREP_WASM_URL) };
    this.#instantiated = instantiated;
    this.#useEnhanced(source);
    this.#useExtras(source);
    this.#useSearch(source, instantiated);
  }

  /**
   * How to load enhanced mode's module (enhanced-module.js): asynchronously, the first time a
   * ToolStub configured for enhanced synopses needs one, or on `loadEnhancedMode()`.
   * @param {WasmSource} source
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
   * How to load the extras module (extras-module.js): asynchronously, the first time one of its
   * calls is made (resolveRefs, reads by lines/JSON pointer/rows, fitContext, restore, searchAll).
   * @param {WasmSource} source
   */
  #useExtras(source) {
    const extrasWasm = wasmOf(source, "extras", EXTRAS_WASM_URL);
    this.runtime.extras.useLoader(async () => {
      if (extrasWasm === null)
        throw new TypeError(
          "this host gives the module no URL to find its wasm next to it: pass init({ extrasModule | extrasBytes | extrasUrl })",
        );
      const extras = await import("../wasm/tool_stub_extras.js");
      await extras.default({ module_or_path: extrasWasm });
      return extras;
    });
  }

  /**
   * The grep module's loader and the search worker (unless `searchWorker: false`), from the wasm
   * of the instantiation. Takes effect for the searches after it, once no engine has started yet.
   * @param {WasmSource} source
   * @param {{ wasm: WasmInput, grepWasm: WasmInput | null }} instantiated
   */
  #useSearch(source, instantiated) {
    const { wasm, grepWasm } = instantiated;
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
      const grep = forWorker(grepWasm);
      const core = forWorker(wasm);
      if (grep === undefined)
        throw new Error(
          "the grep module's wasm was given in a form a worker cannot take (a Response or a promise)",
        );
      const worker = newSearchWorker(source.searchWorkerUrl);
      return new SearchWorker(worker, { grep, core }, onStopped).start();
    });
  }

  /**
   * An `init` once the core is ready: only its search options (`searchWorker`, `searchWorkerUrl`) apply.
   * @param {WasmSource} source
   */
  #reconfigure(source) {
    if (wasmOf(source, "enhanced", undefined) !== undefined) this.#useEnhanced(source);
    if (wasmOf(source, "extras", undefined) !== undefined) this.#useExtras(source);
    if (
      this.#instantiated !== undefined &&
      (source.searchWorker !== undefined || source.searchWorkerUrl !== undefined)
    )
      this.#useSearch(source, this.#instantiated);
  }

  /**
   * See `init` below.
   * @param {WasmSource} source
   */
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
 * enhanced synopses, and replaceable by a later `init` until then), and the extras module
 * (`extrasModule`, `extrasBytes` or `extrasUrl`; loaded by the first call that needs it: refs,
 * structured reads, fitContext, restore, searchAll). Searches run in a worker (`searchWorkerUrl`: where
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
  !(/** @type {{ Deno?: unknown }} */ (globalThis).Deno) &&
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
init().catch((/** @type {unknown} */ error) => {
  // A page whose bundler did not emit the wasm: the API waits for the host's init().
  loader.runtime.markNotReady(
    `tool-stub could not load its wasm from ${WASM_URL?.href ?? "next to its module"} (${caught(error)?.message ?? error}); your bundler may not have emitted it ` +
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
