// IndexedDB store (browser). One object store with out-of-line keys: the key
// array itself is the IndexedDB key. IndexedDB orders arrays element by
// element, strings by code unit, a shorter array before any extension of it,
// and every array after every string. Hence all keys starting with P lie in
// [P, [...P, []]]: the upper bound's extra element is an array, greater than
// any string segment a real key can have there.

import { ToolStubError } from "./errors.js";
import { validateKey, validatePrefix, validateValue } from "./keys.js";

function failed(what, err) {
  // Keep the DOMException name (e.g. QuotaExceededError) visible to callers.
  const detail = err ? `${err.name ?? "Error"}: ${err.message ?? ""}` : "unknown error";
  return new ToolStubError("STORE_FAILED", `IndexedDB ${what} failed: ${detail}`, { cause: err ?? undefined });
}

export class IndexedDbStore {
  #dbPromise = null;
  #conn = null; // the open IDBDatabase, once #dbPromise has resolved

  /**
   * `indexedDB` and `IDBKeyRange` can be injected (e.g. from fake-indexeddb);
   * they must come from the same implementation.
   */
  constructor({
    dbName = "tool-stub",
    storeName = "records",
    indexedDB = globalThis.indexedDB,
    IDBKeyRange = globalThis.IDBKeyRange,
  } = {}) {
    this.dbName = dbName;
    this.storeName = storeName;
    this.indexedDB = indexedDB;
    this.IDBKeyRange = IDBKeyRange;
  }

  // Opened lazily, once; reset on failure or close so a later call retries.
  #db() {
    this.#dbPromise ??= this.#open().catch((err) => {
      this.#dbPromise = null;
      throw err;
    });
    return this.#dbPromise;
  }

  async #open() {
    if (!this.indexedDB) throw new ToolStubError("NOT_READY", "IndexedDB is not available here");
    let db = await this.#request(undefined);
    if (!db.objectStoreNames.contains(this.storeName)) {
      // The database exists (another store name uses it): bump the version
      // to get an upgrade transaction in which our object store can be made.
      const version = db.version + 1;
      db.close();
      db = await this.#request(version);
    }
    db.onversionchange = () => {
      // Another connection wants to upgrade or delete: let it, reopen later.
      db.close();
      this.#forget(db);
    };
    db.onclose = () => this.#forget(db); // closed by the browser
    this.#conn = db;
    return db;
  }

  #request(version) {
    return new Promise((resolve, reject) => {
      let req;
      try {
        req = version === undefined ? this.indexedDB.open(this.dbName) : this.indexedDB.open(this.dbName, version);
      } catch (err) {
        reject(failed("open", err));
        return;
      }
      let gaveUp = false;
      req.onupgradeneeded = () => {
        const db = req.result;
        if (!db.objectStoreNames.contains(this.storeName)) db.createObjectStore(this.storeName);
      };
      req.onsuccess = () => {
        if (gaveUp) req.result.close(); // we already reported "blocked"
        else resolve(req.result);
      };
      req.onerror = () => reject(failed("open", req.error));
      // Another tab holds an older version open and does not close it:
      // report it rather than hang; the next call tries again.
      req.onblocked = () => {
        gaveUp = true;
        reject(new ToolStubError("NOT_READY", `IndexedDB "${this.dbName}" is blocked by another open connection`));
      };
    });
  }

  // Forget `db` if it is still the current connection (it was closed).
  #forget(db) {
    if (this.#conn === db) {
      this.#conn = null;
      this.#dbPromise = null;
    }
  }

  async #transaction(mode, what) {
    const db = await this.#db();
    try {
      return db.transaction(this.storeName, mode);
    } catch (err) {
      if (err?.name !== "InvalidStateError") throw failed(what, err);
    }
    // The connection was closed under us (versionchange): reopen once.
    this.#forget(db);
    try {
      return (await this.#db()).transaction(this.storeName, mode);
    } catch (err) {
      throw err instanceof ToolStubError ? err : failed(what, err);
    }
  }

  // Runs `fn(objectStore)`, which issues requests and returns one or an
  // array of them; resolves with their results once the transaction has
  // committed (so a resolved save is durable), rejects on any error or abort.
  async #tx(mode, what, fn) {
    const tx = await this.#transaction(mode, what);
    return new Promise((resolve, reject) => {
      let settled = false;
      const fail = (err) => {
        if (!settled) { settled = true; reject(failed(what, err)); }
      };
      let reqs;
      try {
        reqs = fn(tx.objectStore(this.storeName));
      } catch (err) {
        try { tx.abort(); } catch { /* already finished */ }
        fail(err);
        return;
      }
      const list = Array.isArray(reqs) ? reqs : [reqs];
      for (const r of list) r.onerror = () => fail(r.error);
      tx.oncomplete = () => {
        if (settled) return;
        settled = true;
        resolve(Array.isArray(reqs) ? reqs.map((r) => r.result) : reqs.result);
      };
      tx.onerror = () => fail(tx.error);
      tx.onabort = () => fail(tx.error ?? new Error("transaction aborted"));
    });
  }

  async load(key) {
    validateKey(key);
    return this.#tx("readonly", "load", (s) => s.get(key));
  }

  async save(key, value) {
    validateKey(key);
    validateValue(value);
    await this.#tx("readwrite", "save", (s) => s.put(value, key));
  }

  async remove(key) {
    validateKey(key);
    await this.#tx("readwrite", "remove", (s) => s.delete(key));
  }

  async loadRange(prefix) {
    validatePrefix(prefix);
    const range = this.#range(prefix);
    // Keys and values read in one transaction, so both lists match and come
    // back in key order, which is the segment-wise code unit order we promise.
    const [keys, values] = await this.#tx("readonly", "loadRange", (s) => [s.getAllKeys(range), s.getAll(range)]);
    return keys.map((key, i) => ({ key, value: values[i] }));
  }

  async removeRange(prefix) {
    validatePrefix(prefix);
    const range = this.#range(prefix);
    await this.#tx("readwrite", "removeRange", (s) => s.delete(range));
  }

  #range(prefix) {
    if (!this.IDBKeyRange) throw new ToolStubError("NOT_READY", "IDBKeyRange is not available here");
    return this.IDBKeyRange.bound(prefix, [...prefix, []]);
  }

  /** No cheaper way than reading the value: IndexedDB has no per-record size. */
  async size(key) {
    return (await this.load(key))?.length;
  }

  /** Closes the connection; a later call reopens it. */
  async close() {
    const p = this.#dbPromise;
    this.#dbPromise = null;
    this.#conn = null;
    if (p) (await p.catch(() => null))?.close();
  }
}
