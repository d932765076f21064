// `tool-stub/node`: the whole API plus the filesystem store.
export * from "./index-node.js";
export { NodeFsStore } from "./stores/node-fs.js";
