// `tool-stub/browser`: the whole API plus the IndexedDB store.
export * from "./index-browser.js";
export { IndexedDbStore } from "./stores/indexeddb.js";
