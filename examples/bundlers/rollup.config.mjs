// Rollup: two plugins and a second input (the search worker); run `rollup -c` in this folder.
// @ts-check
// rollup.config.js
import { nodeResolve } from "@rollup/plugin-node-resolve";
import { importMetaAssets } from "@web/rollup-plugin-import-meta-assets";
export default {
  input: { app: "src/app.js", "search-worker": "tool-stub/search-worker" },
  plugins: [nodeResolve({ browser: true }), importMetaAssets()], // the plugin emits the .wasm files
  output: { dir: "dist", format: "es", entryFileNames: "[name].js" },
};
