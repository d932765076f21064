export * from "./index.js";
export { NodeFsStore } from "./stores/store.js";
