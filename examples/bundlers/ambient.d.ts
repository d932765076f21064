// What esbuild's binary loader makes of an imported .wasm file.
declare module "*.wasm" {
  const bytes: Uint8Array<ArrayBuffer>;
  export default bytes;
}

// The plugin ships no types of its own.
declare module "@web/rollup-plugin-import-meta-assets" {
  export function importMetaAssets(options?: object): import("rollup").Plugin;
}
