// IndexedDB store (browser). One object store with out-of-line keys: the key
// array itself is the IndexedDB key. IndexedDB orders arrays element by
// element, strings by code unit, a shorter array before any extension of it,
// and every array after every string. Hence all keys starting with P lie in
// [P, [...P, []]]: the upper bound's extra element is an array, greater than
// any string segment a real key can have there.

//
// A value longer than `chunkChars` code units is stored in pieces, so loadSlice reads only the
// pieces it needs: the record at its key is then `{ chunks, length, chunkChars }` (never a string,
// so values saved before chunking existed read as they always did), and piece i lives at
// [CHUNKS, ...key, i]. CHUNKS is an array, so those keys sort after every real key and lie in no
// loadRange/removeRange range of real keys; the methods below handle them beside their value.

import { ToolStubError, caught } from "./errors.js";
import { validateKey, validatePrefix, validateSliceBounds, validateValue } from "./keys.js";
import { acquireLocal, lockName } from "./lock.js";

const CHUNKS = ["chunks"];
/** Pieces read by one request of `load`: each request's values are deserialized in one task. */
const PIECES_PER_READ = 4;
// The lease of a held lock lives at [LEASES, ...key], out of every range of real keys like the
// pieces: a lease still there when the lock is next taken was left by a page that died holding it.
const LEASES = ["leases"];
// Locks of this realm, by database, store and key, when the Web Locks API is not there.
/** @type {Map<string, Promise<unknown>>} */
const LOCAL_LOCKS = new Map();
const DEFAULT_CHUNK_CHARS = 1 << 20;

/** @typedef {import("./store.js").StoreKey} StoreKey */
/** @typedef {import("./store.js").StoreEntry} StoreEntry */
/** The record at the key of a value stored in pieces. @typedef {{ chunks: number, length: number, chunkChars: number }} ChunkedRecord */
/** What save() writes at a key: the value, or the record of its pieces. @typedef {string | ChunkedRecord} StoredRecord */
/** A value read whole or as its stored pieces. @typedef {{ value?: string, pieces?: string[] }} ReadValue */
/**
 * The results of the request, or of each request of the tuple, that a transaction's callback made.
 * @template R
 * @typedef {R extends IDBRequest<infer T> ? T : { [I in keyof R]: R[I] extends IDBRequest<infer T> ? T : never }} RequestResults
 */

/**
 * @param {unknown} record
 * @returns {record is ChunkedRecord}
 */
function isChunked(record) {
  if (record === null || typeof record !== "object") return false;
  const fields = /** @type {{ [field: string]: unknown }} */ (record);
  return (
    Number.isSafeInteger(fields.chunks) &&
    Number.isSafeInteger(fields.length) &&
    Number.isSafeInteger(fields.chunkChars) &&
    Number(fields.chunkChars) > 0
  );
}

/**
 * @param {string} what
 * @param {unknown} err
 */
function failed(what, err) {
  // Keep the DOMException name (e.g. QuotaExceededError) visible to callers.
  const fields = caught(err);
  const detail = err ? `${fields?.name ?? "Error"}: ${fields?.message ?? ""}` : "unknown error";
  return new ToolStubError("STORE_FAILED", `IndexedDB ${what} failed: ${detail}`, {
    cause: err ?? undefined,
  });
}

export class IndexedDbStore {
  /** @type {Promise<IDBDatabase> | null} */
  #dbPromise = null;
  /** @type {IDBDatabase | null} the open IDBDatabase, once #dbPromise has resolved */
  #conn = null;

  /**
   * `indexedDB` and `IDBKeyRange` can be injected (e.g. from fake-indexeddb);
   * they must come from the same implementation.
   * @param {import("./store.js").IndexedDbStoreOptions} [options]
   */
  constructor({
    dbName = "tool-stub",
    storeName = "records",
    indexedDB = globalThis.indexedDB,
    IDBKeyRange = globalThis.IDBKeyRange,
    chunkChars = DEFAULT_CHUNK_CHARS,
  } = {}) {
    if (!Number.isSafeInteger(chunkChars) || chunkChars <= 0) {
      throw new ToolStubError(
        "INVALID_ARGUMENT",
        `chunkChars must be a positive integer (got ${chunkChars})`,
      );
    }
    this.chunkChars = chunkChars;
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

  /**
   * @param {number | undefined} version
   * @returns {Promise<IDBDatabase>}
   */
  #request(version) {
    return new Promise((resolve, reject) => {
      /** @type {IDBOpenDBRequest} */
      let req;
      try {
        req =
          version === undefined
            ? this.indexedDB.open(this.dbName)
            : this.indexedDB.open(this.dbName, version);
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
        if (gaveUp)
          req.result.close(); // we already reported "blocked"
        else resolve(req.result);
      };
      req.onerror = () => reject(failed("open", req.error));
      // Another tab holds an older version open and does not close it:
      // report it rather than hang; the next call tries again.
      req.onblocked = () => {
        gaveUp = true;
        reject(
          new ToolStubError(
            "NOT_READY",
            `IndexedDB "${this.dbName}" is blocked by another open connection`,
          ),
        );
      };
    });
  }

  // Forget `db` if it is still the current connection (it was closed).
  /** @param {IDBDatabase} db */
  #forget(db) {
    if (this.#conn === db) {
      this.#conn = null;
      this.#dbPromise = null;
    }
  }

  /**
   * @param {IDBTransactionMode} mode
   * @param {string} what
   * @returns {Promise<IDBTransaction>}
   */
  async #transaction(mode, what) {
    const db = await this.#db();
    try {
      return db.transaction(this.storeName, mode);
    } catch (err) {
      if (caught(err)?.name !== "InvalidStateError") throw failed(what, err);
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
  /**
   * @template {IDBRequest | [IDBRequest, ...IDBRequest[]]} R
   * @param {IDBTransactionMode} mode
   * @param {string} what
   * @param {(store: IDBObjectStore) => R} fn
   * @returns {Promise<RequestResults<R>>}
   */
  async #tx(mode, what, fn) {
    const tx = await this.#transaction(mode, what);
    return new Promise((resolve, reject) => {
      let settled = false;
      /** @param {unknown} err */
      const fail = (err) => {
        if (!settled) {
          settled = true;
          reject(failed(what, err));
        }
      };
      /** @type {R} */
      let reqs;
      try {
        reqs = fn(tx.objectStore(this.storeName));
      } catch (err) {
        try {
          tx.abort();
        } catch {
          /* already finished */
        }
        fail(err);
        return;
      }
      const list = Array.isArray(reqs) ? reqs : [reqs];
      for (const r of list) r.onerror = () => fail(r.error);
      tx.oncomplete = () => {
        if (settled) return;
        settled = true;
        const results = Array.isArray(reqs) ? reqs.map((r) => r.result) : reqs.result;
        resolve(/** @type {RequestResults<R>} */ (results));
      };
      tx.onerror = () => fail(tx.error);
      tx.onabort = () => fail(tx.error ?? new Error("transaction aborted"));
    });
  }

  /** @param {StoreKey} key */
  async load(key) {
    const read = await this.#read(key, "load");
    return read.pieces ? read.pieces.join("") : read.value;
  }

  /**
   * The value's stored pieces, in order, not joined (their join is `load(key)`'s value; a value
   * stored whole is one piece); undefined if there is no value. A search sends a large output to
   * its worker piece by piece, so the page never builds the 100 MB string (a 110-160 ms task).
   * @param {StoreKey} key
   */
  async loadPieces(key) {
    const read = await this.#read(key, "loadPieces");
    return read.pieces ?? (read.value === undefined ? undefined : [read.value]);
  }

  /**
   * `{ value }` (a value stored whole, or undefined) or `{ pieces }` (a value stored in pieces).
   * @param {StoreKey} key
   * @param {string} what
   * @returns {Promise<ReadValue>}
   */
  async #read(key, what) {
    validateKey(key);
    const tx = await this.#transaction("readonly", what);
    return new Promise((resolve, reject) => {
      /** @type {string | undefined} */
      let value;
      /** @type {string[] | undefined} */
      let pieces;
      const store = tx.objectStore(this.storeName);
      const head = store.get(key);
      // The pieces are asked for in the same transaction, so they belong to the record read; a
      // few per request, because a request's values are deserialized in one task of the page's
      // main thread (all 100 pieces of a 100 MB value in one request held it for ~400 ms).
      head.onsuccess = () => {
        const record = /** @type {StoredRecord | undefined} */ (head.result);
        if (!isChunked(record)) {
          value = record;
          return;
        }
        /** @type {string[]} */
        const read = [];
        pieces = read;
        for (let first = 0; first < Math.max(record.chunks, 1); first += PIECES_PER_READ) {
          const request = store.getAll(this.#chunksOf(key, first, first + PIECES_PER_READ - 1));
          // Requests of one transaction succeed in the order they were made.
          request.onsuccess = () => read.push(...request.result);
        }
      };
      tx.oncomplete = () => resolve(pieces ? { pieces } : { value });
      tx.onerror = () => reject(failed(what, tx.error));
      tx.onabort = () => reject(failed(what, tx.error ?? new Error("transaction aborted")));
    });
  }

  /**
   * @param {StoreKey} key
   * @param {string} value
   */
  async save(key, value) {
    validateKey(key);
    validateValue(value);
    const size = this.chunkChars;
    await this.#tx("readwrite", "save", (s) => {
      /** @type {[IDBRequest, ...IDBRequest[]]} */
      const requests = [s.delete(this.#chunksOf(key))];
      if (value.length <= size) return [...requests, s.put(value, key)];
      const chunks = Math.ceil(value.length / size);
      for (let i = 0; i < chunks; i++)
        requests.push(s.put(value.slice(i * size, (i + 1) * size), [CHUNKS, ...key, i]));
      /** @type {ChunkedRecord} */
      const record = { chunks, length: value.length, chunkChars: size };
      return [...requests, s.put(record, key)];
    });
  }

  /** @param {StoreKey} key */
  async remove(key) {
    validateKey(key);
    await this.#tx("readwrite", "remove", (s) => [s.delete(key), s.delete(this.#chunksOf(key))]);
  }

  /**
   * @param {string[]} prefix
   * @returns {Promise<StoreEntry[]>}
   */
  async loadRange(prefix) {
    validatePrefix(prefix);
    const range = this.#range(prefix);
    const chunkRange = this.#range([CHUNKS, ...prefix]);
    // Keys, values and pieces read in one transaction, so they match and come back in key order,
    // which is the segment-wise code unit order we promise.
    const [keys, values, chunkKeys, chunks] = await this.#tx("readonly", "loadRange", (s) => [
      s.getAllKeys(range),
      s.getAll(range),
      s.getAllKeys(chunkRange),
      s.getAll(chunkRange),
    ]);
    /** @type {Map<string, string[]>} */
    const pieces = new Map();
    // A piece's key is [CHUNKS, ...key, i].
    /** @type {IDBValidKey[][]} */ (chunkKeys).forEach((chunkKey, i) => {
      const owner = JSON.stringify(chunkKey.slice(1, -1));
      pieces.set(owner, [...(pieces.get(owner) ?? []), chunks[i]]);
    });
    // Keys in this range are real keys, and their records what save() writes.
    const records = /** @type {StoredRecord[]} */ (values);
    return /** @type {StoreKey[]} */ (keys).map((key, i) => {
      const record = records[i];
      return {
        key,
        value: isChunked(record) ? (pieces.get(JSON.stringify(key)) ?? []).join("") : record,
      };
    });
  }

  /**
   * The keys loadRange(prefix) would return, without their values (or pieces).
   * @param {string[]} prefix
   * @returns {Promise<StoreKey[]>}
   */
  async loadKeys(prefix) {
    validatePrefix(prefix);
    const range = this.#range(prefix);
    // Keys in this range are real keys.
    const keys = await this.#tx("readonly", "loadKeys", (s) => s.getAllKeys(range));
    return /** @type {StoreKey[]} */ (keys);
  }

  /**
   * An exclusive lock named by `key`: a Web Lock (`navigator.locks`, across the tabs of an origin)
   * where there is one, else a lock of this realm. Its lease record says whether the last holder
   * died holding it (`recovered: true`).
   * @param {StoreKey} key
   * @returns {Promise<import("./store.js").StoreLock>}
   */
  async lock(key) {
    validateKey(key);
    const name = `tool-stub\0${this.dbName}\0${this.storeName}\0${lockName(key)}`;
    const releaseLock = (await webLock(name)) ?? (await acquireLocal(LOCAL_LOCKS, name));
    try {
      const lease = [LEASES, ...key];
      const [previous] = await this.#tx("readwrite", "lock", (s) => [
        s.get(lease),
        s.put({ since: Date.now() }, lease),
      ]);
      let released = false;
      const release = async () => {
        if (released) return;
        released = true;
        try {
          await this.#tx("readwrite", "unlock", (s) => s.delete(lease));
        } finally {
          releaseLock();
        }
      };
      return { recovered: previous !== undefined, release };
    } catch (err) {
      releaseLock();
      throw err;
    }
  }

  /** @param {string[]} prefix */
  async removeRange(prefix) {
    validatePrefix(prefix);
    const range = this.#range(prefix);
    const chunkRange = this.#range([CHUNKS, ...prefix]);
    await this.#tx("readwrite", "removeRange", (s) => [s.delete(range), s.delete(chunkRange)]);
  }

  /** @param {IDBValidKey[]} prefix */
  #range(prefix) {
    if (!this.IDBKeyRange)
      throw new ToolStubError("NOT_READY", "IDBKeyRange is not available here");
    return this.IDBKeyRange.bound(prefix, [...prefix, []]);
  }

  /**
   * The pieces of `key`'s value from `first` to `last` (all by default), and no other key's.
   * @param {StoreKey} key
   * @param {number} [first]
   * @param {number} [last]
   */
  #chunksOf(key, first = 0, last = Infinity) {
    if (!this.IDBKeyRange)
      throw new ToolStubError("NOT_READY", "IDBKeyRange is not available here");
    return this.IDBKeyRange.bound([CHUNKS, ...key, first], [CHUNKS, ...key, last]);
  }

  /**
   * loadSlice positions are UTF-16 code units.
   * @returns {"utf16"}
   */
  get sliceUnit() {
    return "utf16";
  }

  /**
   * value.slice(start, end), reading only the pieces that hold it; undefined if there is no value.
   * @param {StoreKey} key
   * @param {number} start
   * @param {number} end
   * @returns {Promise<string | undefined>}
   */
  async loadSlice(key, start, end) {
    validateKey(key);
    validateSliceBounds(start, end);
    const tx = await this.#transaction("readonly", "loadSlice");
    return new Promise((resolve, reject) => {
      /** @type {string | undefined} */
      let result;
      const store = tx.objectStore(this.storeName);
      const head = store.get(key);
      // The pieces are asked for in the same transaction, so they belong to the record read.
      head.onsuccess = () => {
        const record = /** @type {StoredRecord | undefined} */ (head.result);
        if (!isChunked(record)) {
          result = record?.slice(start, end);
          return;
        }
        const first = Math.floor(start / record.chunkChars);
        const last = Math.max(first, Math.ceil(end / record.chunkChars) - 1);
        const pieces = store.getAll(this.#chunksOf(key, first, last));
        pieces.onsuccess = () => {
          const base = first * record.chunkChars;
          result = pieces.result.join("").slice(start - base, end - base);
        };
      };
      tx.oncomplete = () => resolve(result);
      tx.onerror = () => reject(failed("loadSlice", tx.error));
      tx.onabort = () => reject(failed("loadSlice", tx.error ?? new Error("transaction aborted")));
    });
  }

  /**
   * The stored length of a value in pieces; otherwise the value itself (IndexedDB keeps no size).
   * @param {StoreKey} key
   */
  async size(key) {
    validateKey(key);
    const record = /** @type {StoredRecord | undefined} */ (
      await this.#tx("readonly", "size", (s) => s.get(key))
    );
    return isChunked(record) ? record.length : record?.length;
  }

  /** Closes the connection; a later call reopens it. */
  async close() {
    const p = this.#dbPromise;
    this.#dbPromise = null;
    this.#conn = null;
    if (p) (await p.catch(() => null))?.close();
  }
}

/**
 * Holds the Web Lock `name` until the answered function is called; undefined without Web Locks.
 * @param {string} name
 * @returns {Promise<(() => void) | undefined>}
 */
async function webLock(name) {
  const locks = globalThis.navigator?.locks;
  if (typeof locks?.request !== "function") return undefined;
  /** @type {() => void} */
  let release = () => {};
  /** @type {Promise<void>} */
  const held = new Promise((resolve) => {
    release = resolve;
  });
  /** @type {Promise<void>} */
  const requested = new Promise((resolve, reject) => {
    locks
      .request(name, () => {
        resolve();
        return held;
      })
      .catch(reject);
  });
  await requested;
  return release;
}
