export * from "./index.js";
export { IndexedDbStore } from "./stores/store.js";
