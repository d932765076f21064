// The extras module (wasm/tool_stub_extras_bg.wasm; bindings/extras in the repository): the core's
// calls for features few sessions use, kept out of the main module every page loads (its size is
// bench row 2): resolving the refs in a tool call's arguments, reads by lines, JSON pointer or
// table rows, the context governor's plan, `restore`, and `searchAll`'s plan and ranking. Each of
// them is an async operation that awaits this module first (`call`), so the first one loads it:
// synchronously in Node, asynchronously in browsers and workers. What never uses them never loads
// it, and a module that fails to load fails the call that needed it with NOT_READY.

import { LazyModule } from "./lazy-module.js";

/**
 * The extras module's wasm-bindgen glue.
 * @typedef {typeof import("../wasm/tool_stub_extras.js")} ExtrasGlue
 */

/**
 * The extras module of one runtime (runtime.js).
 * @extends {LazyModule<ExtrasGlue>}
 */
export class ExtrasModule extends LazyModule {
  /** @param {number} keptMemoryBytes */
  constructor(keptMemoryBytes) {
    super("the extras module", "wasm/tool_stub_extras_bg.wasm", keptMemoryBytes);
  }

  /**
   * Calls the module's export `name`, loading the module first if needed.
   * @template {keyof ExtrasGlue} Name
   * @param {Name} name
   * @param {import("./lazy-module.js").ArgsOf<ExtrasGlue[Name]>} args
   * @returns {Promise<import("./lazy-module.js").ResultOf<ExtrasGlue[Name]>>}
   */
  async call(name, ...args) {
    return this.callLoaded(await this.load(), name, ...args);
  }
}
