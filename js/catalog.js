// A session's catalog, stored in pages. The core decides it (src/catalog/pages.rs, whose module
// doc describes the layout and why: which pages a call reads, how a change splits them, which
// results retention deletes); this file does its I/O: it reads the index and the pages the core
// asks for (keeping pages it read by name: a page is never rewritten under the same name; the
// core keeps them parsed for this catalog, src/catalog/page_cache.rs), writes
// changes under the session's lock (pages, then the index, then the pages replaced), and checks
// the catalog against the stored records when it is missing or does not read, when asked to
// (verify, rebuildCatalog), and in a store whose values expire. A catalog that reads is trusted
// on first use: a new ToolStub's first call reads the index and the pages it needs, whatever the
// session holds. A session whose catalog is in the layout before pages (catalog-legacy.js) is
// written in pages on its first use.

import { acquireLocal, lockName } from "./stores/lock.js";
import { parseOutputIndex } from "./output-index.js";
import { ToolStubError } from "./stores/errors.js";
import { readLegacyCatalog, removeLegacyCatalog } from "./catalog-legacy.js";
import {
  CATALOG_DIR,
  CATALOG_INDEX_FILE,
  CATALOG_PAGES_DIR,
  INDEX_FILE,
  LOCK_FILE,
  METADATA_FILE as RECORD_FILE,
  OUTPUT_FILE,
  RESULTS_DIR,
} from "./core-constants.js";

// In a store whose values expire (`expires: true`, RedisStore's ttlSeconds) results go without a
// change of the catalog: it is checked against the records again when its last check is this old.
const EXPIRING_RECHECK_MS = 1_000;
/** Pages kept after they were read (~80 KB each). */
const KEPT_PAGES = 64;
/** Store reads or writes in flight at once: enough to overlap round trips, few enough for file handles. */
const CONCURRENT_LOADS = 16;
/** Reads of the index when a page it names is gone (a writer replaced it since). */
const ATTEMPTS = 3;

/** @typedef {import("./stores/store.js").Store} Store */
/** @typedef {import("./stores/store.js").StoreKey} StoreKey */
/** @typedef {import("./stores/store.js").StoreLock} StoreLock */
/** @typedef {import("./generated/contract.js").CatalogEntry} CatalogEntry */
/** @typedef {import("./runtime.js").Runtime} Runtime */
/**
 * A query of the catalog's entries (`pages::Query` in the core).
 * @typedef {object} CatalogQuery
 * @property {string[]} [ids]
 * @property {string} [toolName]
 * @property {"id" | "newest"} [order]
 * @property {number} [offset]
 * @property {number} [limit]
 */
/**
 * A window of entries (`catalogSelect`).
 * @typedef {{ totalResults: number, offset: number, hasMore: boolean, entries: CatalogEntry[] }} CatalogSelection
 */
/**
 * A change the core made (`catalogApply`): the pages to write (name to text), the index, and the
 * pages it replaced.
 * @typedef {{ index: string, write: { [name: string]: string }, remove: string[] }} CatalogChange
 */
/**
 * The catalog's totals (`catalogTotals`).
 * @typedef {{ results: number, chars: number, bytes: number }} CatalogTotals
 */
/**
 * What session-level calls ask of the catalog (SessionCatalog's `use`).
 * @typedef {object} CatalogView
 * @property {(id: string) => Promise<boolean>} has
 * @property {(id: string) => Promise<CatalogEntry | undefined>} entry
 * @property {() => CatalogTotals} usage
 * @property {(toolName?: string) => Promise<CatalogEntry[]>} candidates
 * @property {(query: CatalogQuery) => Promise<CatalogSelection>} select
 * @property {(config: object, nowMs: number, protect: string[]) => Promise<string[]>} planPrune
 */

/** A page the index names is gone: another writer replaced it after the index was read. */
class PageGone extends Error {}

/** A new catalog generation's name: random, so a catalog removed and made again never reads as the old one. */
function newGeneration() {
  const bytes = new Uint8Array(12);
  if (typeof globalThis.crypto?.getRandomValues === "function")
    globalThis.crypto.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The keys under `prefix`, without values where the store can (`loadKeys`), else from loadRange.
 * @param {Store} store
 * @param {string[]} prefix
 * @returns {Promise<StoreKey[]>}
 */
export async function keysOf(store, prefix) {
  if (typeof store.loadKeys === "function") return store.loadKeys(prefix);
  return (await store.loadRange(prefix)).map((entry) => entry.key);
}

/**
 * UTF-8 length of a string without encoding it (a lone surrogate counts 3 bytes, as in WTF-8).
 * @param {string} text
 */
export function utf8Length(text) {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (
      unit >= 0xd800 &&
      unit <= 0xdbff &&
      i + 1 < text.length &&
      (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00
    ) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * An entry as the core made it, with `createdAtMs` read as retention always read dates.
 * @param {string | undefined} entryJson
 * @returns {CatalogEntry | undefined}
 */
function timed(entryJson) {
  if (entryJson === undefined) return undefined;
  /** @type {CatalogEntry} */
  const entry = JSON.parse(entryJson);
  const at = Date.parse(entry.createdAt);
  entry.createdAtMs = Number.isNaN(at) ? null : at;
  return entry;
}

/**
 * Runs `fn(item)` for each item, up to CONCURRENT_LOADS at a time; the answers in order.
 * @template T, R
 * @param {readonly T[]} items
 * @param {(item: T) => Promise<R>} fn
 * @returns {Promise<R[]>}
 */
async function eachLimited(items, fn) {
  /** @type {R[]} */
  const values = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      values[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENT_LOADS, items.length) }, worker));
  return values;
}

const EMPTY_TOTALS = Object.freeze({ results: 0, chars: 0, bytes: 0 });

export class SessionCatalog {
  /** @type {Runtime} */
  #runtime;
  /** @type {Store} */
  #store;
  /** @type {string} */
  #sessionId;
  /**
   * The index as stored, as last read or written; undefined: none (a new or empty catalog).
   * @type {string | undefined}
   */
  #index;
  /**
   * Pages read or written, by name (a name always means the same text), least recent first.
   * @type {Map<string, string>}
   */
  #pages = new Map();
  /** This catalog's number for the pages the core keeps parsed for it (see #owner). */
  /** @type {number | undefined} */
  #cacheOwner;
  /** The core instance that number is of. */
  /** @type {number | undefined} */
  #cacheInstance;
  /** Whether the index is current for the lock this catalog holds now (see locked). */
  #currentUnderLock = false;
  /** Whether the catalog was checked against the stored records (or trusted as it read). */
  #checked = false;
  /** When it was (Date.now()). */
  #checkedAt = 0;
  /**
   * Whether the next use must check the stored catalog against the records instead of trusting
   * it: after a change that could not be recorded, or when asked to (verify).
   */
  #distrust = false;

  /**
   * `runtime`: the core's (runtime.js), which decides the catalog.
   * @param {Runtime} runtime
   * @param {Store} store
   * @param {string} sessionId
   */
  constructor(runtime, store, sessionId) {
    this.#runtime = runtime;
    this.#store = store;
    this.#sessionId = sessionId;
  }

  /** @param {string[]} segments */
  #key(...segments) {
    return [this.#sessionId, CATALOG_DIR, ...segments];
  }

  /** @param {string} name */
  #pageKey(name) {
    return this.#key(CATALOG_PAGES_DIR, name);
  }

  /**
   * @param {string} id
   * @param {string} file
   */
  #resultKey(id, file) {
    return [this.#sessionId, RESULTS_DIR, id, file];
  }

  /**
   * Calls `fn(view)` with the current catalog (see #view). The caller holding the session's
   * lock says so (`underLock`): a check that must save then does not take the lock again.
   * @template T
   * @param {(view: CatalogView) => T | Promise<T>} fn
   * @param {{ underLock?: boolean }} [options]
   * @returns {Promise<T>}
   */
  async use(fn, { underLock = false } = {}) {
    await this.#current(underLock);
    return fn(this.#view());
  }

  /** `{ results, chars, bytes }`, from the index alone. */
  async usage() {
    await this.#current(false);
    return this.#totals();
  }

  /** @returns {CatalogTotals} */
  #totals() {
    if (this.#index === undefined) return { ...EMPTY_TOTALS };
    return JSON.parse(this.#runtime.call("catalogTotals", this.#index));
  }

  /**
   * What session-level calls ask of the catalog; each reads only the pages it needs.
   * @returns {CatalogView}
   */
  #view() {
    /** @param {string[]} ids */
    const entriesOf = async (ids) => (await this.#select({ ids })).entries;
    return {
      has: async (id) => (await entriesOf([id])).length > 0,
      entry: async (id) => (await entriesOf([id]))[0],
      usage: () => this.#totals(),
      /** The entries `searchAll` greps: `toolName` applied before any output is loaded. */
      candidates: async (toolName) => (await this.#select({ toolName })).entries,
      /**
       * A window of entries: `toolName` first, in id order (the reference's) or `newest` first
       * (latest `createdAt`; a date that does not read last; ties in id order), then
       * `offset`/`limit`. `{ totalResults, offset, hasMore, entries }`.
       */
      select: ({ toolName, order = "id", offset = 0, limit }) =>
        this.#select({ toolName, order, offset, limit }),
      /** The ids retention deletes (planned by the core from the oldest pages), oldest first. */
      planPrune: (config, nowMs, protect) =>
        /** @type {Promise<string[] | undefined>} */ (
          this.#reading(() =>
            this.#step((pages) =>
              this.#runtime.call(
                "catalogPrune",
                this.#owner(),
                /** @type {string} */ (this.#index),
                pages,
                JSON.stringify(config),
                nowMs,
                JSON.stringify(protect),
              ),
            ),
          )
        ).then((ids) => ids ?? []),
    };
  }

  /**
   * `select`'s answer for a query (`pages::Query` in the core).
   * @param {CatalogQuery} query
   * @returns {Promise<CatalogSelection>}
   */
  async #select(query) {
    const selected = /** @type {CatalogSelection | undefined} */ (
      await this.#reading(() =>
        this.#step((pages) =>
          this.#runtime.call(
            "catalogSelect",
            this.#owner(),
            /** @type {string} */ (this.#index),
            pages,
            JSON.stringify(query),
          ),
        ),
      )
    );
    return selected ?? { totalResults: 0, offset: 0, hasMore: false, entries: [] };
  }

  /**
   * Runs a read of the catalog (undefined without an index). When a page the index named is
   * gone (a writer replaced it after the index was read), the index is read again; when it
   * still does not read, the catalog is rebuilt from the records.
   * @template T
   * @param {() => Promise<T>} read
   * @returns {Promise<T | undefined>}
   */
  async #reading(read) {
    for (let attempt = 0; ; attempt++) {
      if (this.#index === undefined) return undefined;
      try {
        return await read();
      } catch (error) {
        const gone = error instanceof PageGone;
        const corrupt = error instanceof ToolStubError && error.code === "CORRUPT";
        if (!gone && !corrupt) throw error;
        if (gone && !this.#currentUnderLock && attempt < ATTEMPTS) {
          await this.#readIndex();
          continue;
        }
        if (attempt > ATTEMPTS) throw error;
        // A page missing under the lock, or one that does not read: rebuilt from the records.
        await this.#underLock(this.#currentUnderLock, () => this.rebuild());
        attempt = ATTEMPTS;
      }
    }
  }

  /**
   * This catalog's owner number in the core's page cache; a new one after the core's instance
   * was replaced (its cache went with it, and its numbers start again).
   * @returns {number}
   */
  #owner() {
    const instance = this.#runtime.coreInstance();
    if (this.#cacheOwner === undefined || this.#cacheInstance !== instance) {
      const owner = /** @type {number} */ (this.#runtime.call("catalogCacheOwner"));
      // A call may replace the instance as it returns (to give memory back): then ask again.
      if (this.#runtime.coreInstance() !== instance) return this.#owner();
      this.#cacheOwner = owner;
      this.#cacheInstance = instance;
    }
    return this.#cacheOwner;
  }

  /**
   * Calls the core with the pages it asked for until it answers: `call(pages)` (`[name, text,
   * ...]`: every page handed in so far, so a call needing more pages than the core keeps still
   * gets them all) answers JSON, `{ need: [names] }` or the result (as the core writes it: the
   * caller knows its shape).
   * @param {(pages: string[]) => string} call
   * @returns {Promise<unknown>}
   */
  async #step(call) {
    /** @type {string[]} */
    const given = [];
    for (;;) {
      const answer = JSON.parse(call(given));
      if (answer === null || typeof answer !== "object" || !Array.isArray(answer.need))
        return answer;
      /** @type {string[]} */
      const need = answer.need;
      const texts = await eachLimited(need, (name) => this.#page(name));
      for (const [i, name] of need.entries()) given.push(name, texts[i]);
    }
  }

  /** @param {string} name */
  async #page(name) {
    let text = this.#pages.get(name);
    if (text === undefined) {
      text = await this.#store.load(this.#pageKey(name));
      if (text === undefined) throw new PageGone(`catalog page ${name} is gone`);
    }
    this.#keep(name, text);
    return text;
  }

  /**
   * @param {string} name
   * @param {string} text
   */
  #keep(name, text) {
    this.#pages.delete(name);
    this.#pages.set(name, text);
    for (const oldest of this.#pages.keys()) {
      if (this.#pages.size <= KEPT_PAGES) break;
      this.#pages.delete(oldest);
    }
  }

  /** Reads the stored index; false when there is one that does not read. */
  async #readIndex() {
    const text = await this.#store.load(this.#key(CATALOG_INDEX_FILE));
    if (text === undefined || text === this.#index) {
      this.#index = text;
      return true;
    }
    try {
      this.#runtime.call("catalogTotals", text);
    } catch {
      return false;
    }
    this.#index = text;
    return true;
  }

  /** @param {boolean} underLock */
  async #current(underLock) {
    if (
      this.#checked &&
      this.#store.expires === true &&
      Date.now() - this.#checkedAt > EXPIRING_RECHECK_MS
    )
      this.#checked = false;
    // Nobody else writes while this catalog holds the lock: current once, current till released.
    if (underLock && this.#currentUnderLock && this.#checked) return;
    const reads = await this.#readIndex();
    if (!reads) {
      // The stored index does not read: rebuilt from the records.
      await this.#underLock(underLock, () => this.rebuild());
    } else if (this.#index === undefined && !this.#checked) {
      await this.#adopt(underLock);
    }
    if (!this.#checked) {
      if (this.#distrust || this.#store.expires === true) await this.#check(underLock);
      else {
        this.#checked = true;
        this.#checkedAt = Date.now();
      }
    }
    if (underLock) this.#currentUnderLock = true;
  }

  /**
   * Runs `fn` under the session's lock (taken here unless the caller holds it).
   * @template T
   * @param {boolean} held
   * @param {() => Promise<T>} fn
   * @returns {Promise<T>}
   */
  #underLock(held, fn) {
    return held ? fn() : this.locked(fn);
  }

  /**
   * A session without a paged catalog: one in the layout before pages is written in pages, one
   * that does not read is rebuilt from the records, and without either (a new session, or one
   * stored by another tool) the records are checked.
   * @param {boolean} underLock
   * @returns {Promise<void>}
   */
  async #adopt(underLock) {
    const legacy = await readLegacyCatalog(this.#store, this.#sessionId, keysOf);
    if (legacy.absent) return this.#check(underLock);
    try {
      await this.#underLock(underLock, async () => {
        // Another process may have written the pages since.
        if (!(await this.#readIndex()) || this.#index !== undefined) return;
        if (legacy.unreadable) await this.rebuild();
        else {
          await this.#writeAnew(legacy.entries);
          await removeLegacyCatalog(this.#store, this.#sessionId, keysOf);
        }
      });
    } catch (error) {
      if (underLock) throw error;
      // A store that cannot be written (or locked): the records stand in for the catalog.
      return this.#check(false);
    }
  }

  /**
   * Adds the results that have a record and no entry, and drops the entries without a record,
   * under the lock (in memory only when the lock cannot be had: the next check saves it).
   * @param {boolean} underLock
   */
  async #check(underLock) {
    this.#checked = true;
    this.#distrust = false;
    this.#checkedAt = Date.now();
    /** @type {Set<string>} */
    let known;
    try {
      known = new Set((await this.#select({})).entries.map((entry) => entry.toolResultId));
    } catch (error) {
      if (underLock) throw error;
      return;
    }
    const stored = await this.#storedIds();
    const present = new Set(stored);
    /** @type {CatalogEntry[]} */
    const added = [];
    for (const id of stored) {
      if (known.has(id)) continue;
      const entry = await this.entryOfStored(id).catch(() => undefined);
      if (entry) added.push(entry);
    }
    const gone = [...known].filter((id) => !present.has(id));
    if (added.length === 0 && gone.length === 0) return;
    try {
      await this.#underLock(underLock, () => this.commit(added, gone));
    } catch (error) {
      this.#checked = false;
      if (underLock) throw error;
    }
  }

  /** The ids of the session's stored records. */
  async #storedIds() {
    const keys = await keysOf(this.#store, [this.#sessionId, RESULTS_DIR]);
    return keys.filter((key) => key.length === 4 && key[3] === RECORD_FILE).map((key) => key[2]);
  }

  /**
   * The catalog entry of a stored result from its record and index; undefined without a record.
   * @param {string} id
   */
  async entryOfStored(id) {
    const record = await this.#store.load(this.#resultKey(id, RECORD_FILE));
    if (record === undefined) return undefined;
    const index = (await this.#store.load(this.#resultKey(id, INDEX_FILE))) ?? "";
    let outputBytes = parseOutputIndex(index)?.bytes;
    if (outputBytes === undefined) {
      // Stored by another tool or an older version: measured once, here.
      const output = await this.#store.load(this.#resultKey(id, OUTPUT_FILE));
      outputBytes = output === undefined ? 0 : utf8Length(output);
    }
    return timed(this.#runtime.call("catalogEntryOf", id, record, index, outputBytes));
  }

  /**
   * The entry of a result this call wrote, from the files it wrote.
   * @param {string} id
   * @param {string} recordJson
   * @param {string} indexJson
   * @param {string} output
   */
  entryOfWritten(id, recordJson, indexJson, output) {
    const outputBytes = parseOutputIndex(indexJson)?.bytes ?? utf8Length(output);
    return timed(this.#runtime.call("catalogEntryOf", id, recordJson, indexJson, outputBytes));
  }

  /**
   * Runs `fn()` holding the session's lock: the store's `lock`, or one of this realm for a store
   * without it (kept on the runtime, per store object). When the store reports that the last
   * holder died holding it (it may have died between two writes), the catalog is rebuilt from
   * the records first.
   * @template T
   * @param {() => T | Promise<T>} fn
   * @returns {Promise<T>}
   */
  async locked(fn) {
    const key = this.#key(LOCK_FILE);
    /** @type {StoreLock} */
    let lease;
    if (typeof this.#store.lock === "function") {
      lease = await this.#store.lock(key);
    } else {
      const release = await acquireLocal(this.#runtime.localLocks(this.#store), lockName(key));
      lease = { recovered: false, release: async () => release() };
    }
    /** @type {T} */
    let result;
    this.#currentUnderLock = false;
    try {
      if (lease.recovered) await this.rebuild();
      result = await fn();
    } finally {
      this.#currentUnderLock = false;
      await lease.release();
    }
    return result;
  }

  /**
   * Rebuilds the catalog from the stored records and writes it anew; under the lock. Answers
   * `{ results, added, removed }` against the catalog the store held.
   */
  async rebuild() {
    /** @type {string[]} */
    let before = [];
    try {
      if (await this.#readIndex())
        before = (await this.#select({})).entries.map((entry) => entry.toolResultId);
    } catch {
      before = [];
    }
    const ids = await this.#storedIds();
    const entries = (
      await eachLimited(ids, (id) => this.entryOfStored(id).catch(() => undefined))
    ).filter((entry) => entry !== undefined);
    await this.#writeAnew(entries);
    await removeLegacyCatalog(this.#store, this.#sessionId, keysOf).catch(() => {});
    this.#checked = true;
    this.#distrust = false;
    this.#checkedAt = Date.now();
    const had = new Set(before);
    const has = new Set(entries.map((entry) => entry.toolResultId));
    return {
      results: has.size,
      added: [...has].filter((id) => !had.has(id)),
      removed: before.filter((id) => !has.has(id)),
    };
  }

  /**
   * Writes a catalog of these entries in a new generation, then removes every other page.
   * @param {readonly object[]} entries
   */
  async #writeAnew(entries) {
    const generation = newGeneration();
    const written = /** @type {CatalogChange} */ (
      await this.#step((pages) =>
        this.#runtime.call(
          "catalogApply",
          this.#owner(),
          "",
          generation,
          pages,
          JSON.stringify(entries),
          "[]",
        ),
      )
    );
    await this.#write(written);
    const kept = new Set(Object.keys(written.write));
    for (const key of await keysOf(this.#store, this.#key(CATALOG_PAGES_DIR)))
      if (!kept.has(key[key.length - 1])) await this.#store.remove(key).catch(() => {});
  }

  /**
   * Writes a change the core made: its pages, then the index (the commit), then removes the
   * pages it replaced. Its pages are kept only once the index naming them is saved: a page
   * written for an index that failed to save is not committed, and the next writer may write
   * another text under its name.
   * @param {CatalogChange} change
   */
  async #write({ index, write, remove }) {
    try {
      await eachLimited(Object.entries(write), ([name, text]) =>
        this.#store.save(this.#pageKey(name), text),
      );
      await this.#store.save(this.#key(CATALOG_INDEX_FILE), index);
      this.#index = index;
      for (const [name, text] of Object.entries(write)) this.#keep(name, text);
    } catch (error) {
      // The store may or may not hold the index: read it again next time.
      this.forget();
      throw error;
    }
    for (const name of remove) {
      this.#pages.delete(name);
      await this.#store.remove(this.#pageKey(name)).catch(() => {});
    }
  }

  /**
   * Records a change (entries added or replaced, ids removed); under the lock.
   * @param {readonly CatalogEntry[]} entries
   * @param {readonly string[]} removedIds
   */
  async commit(entries, removedIds) {
    if (entries.length === 0 && removedIds.length === 0) return;
    await this.#current(true);
    const generation = this.#index === undefined ? newGeneration() : "";
    const written = /** @type {CatalogChange | undefined} */ (
      await this.#reading(() =>
        this.#step((pages) =>
          this.#runtime.call(
            "catalogApply",
            this.#owner(),
            /** @type {string} */ (this.#index),
            generation,
            pages,
            JSON.stringify(entries),
            JSON.stringify(removedIds),
          ),
        ),
      )
    );
    if (written === undefined) {
      // No catalog yet: this change starts one.
      await this.#write(
        JSON.parse(
          this.#runtime.call(
            "catalogApply",
            this.#owner(),
            "",
            generation,
            [],
            JSON.stringify(entries),
            JSON.stringify(removedIds),
          ),
        ),
      );
    } else await this.#write(written);
  }

  /** Removes the stored catalog (index, pages, and one in the layout before pages); under the lock. */
  async remove() {
    this.forget();
    this.#checked = false;
    // The index first: a reader that finds none finds no pages either.
    await this.#store.remove(this.#key(CATALOG_INDEX_FILE));
    for (const key of await keysOf(this.#store, this.#key(CATALOG_PAGES_DIR)))
      await this.#store.remove(key);
    await removeLegacyCatalog(this.#store, this.#sessionId, keysOf);
  }

  /** Forgets the index read: the next call reads it again. */
  forget() {
    this.#index = undefined;
    this.#currentUnderLock = false;
  }

  /**
   * Forgets the catalog and checks it against the records when next used: after a change that
   * could not be recorded (a full disk must not stop a delete that frees it).
   */
  invalidate() {
    this.forget();
    this.#checked = false;
    this.#distrust = true;
  }

  /**
   * Checks the catalog against the stored records again (on `verify`).
   * @param {{ underLock?: boolean }} [options]
   */
  async recheck({ underLock = false } = {}) {
    this.#checked = false;
    this.#distrust = true;
    return this.use(() => {}, { underLock });
  }

  /**
   * Drops entries whose record turned out to be gone (found by a read of the catalog's records).
   * @param {readonly string[]} ids
   */
  async dropGone(ids) {
    if (ids.length === 0) return;
    await this.locked(() => this.commit([], ids)).catch(() => this.invalidate());
  }
}
