// A session's catalog. The core defines its entries and plans retention over them (src/catalog.rs,
// whose module doc describes the layout, the snapshot and log formats, and why); this file reads
// and writes the snapshot and the log records after it, keeps the loaded catalog (a map of
// entries) current, writes changes under the session's lock, and checks the catalog against the
// stored records when it is missing, unreadable, left by a process that died holding the lock, or
// in a store whose values expire. A catalog that reads is trusted on first use: a new ToolStub's
// first call costs what the catalog costs to read, not a listing of every stored result. Results
// written behind its back (by another tool) are found by verify(ref), rebuildCatalog(), and a
// catalog that is missing or does not read.

import { acquireLocal, lockName } from "./stores/lock.js";
import { parseOutputIndex } from "./output-index.js";
import {
  CATALOG_DIR,
  CATALOG_FORMAT,
  CATALOG_VERSION,
  HEAD_FILE,
  HEAD_FORMAT,
  INDEX_FILE,
  LOCK_FILE,
  LOG_DIR,
  METADATA_FILE as RECORD_FILE,
  OUTPUT_FILE,
  RESULTS_DIR,
  SNAPSHOT_FILE,
} from "./core-constants.js";

const COMPACT_AFTER = 64;
// A session of many results folds its log less often: a snapshot costs what the session holds,
// so one every entries/COMPACT_SHARE records costs each change about the same at any size.
const COMPACT_SHARE = 64;
// In a store whose values expire (`expires: true`, RedisStore's ttlSeconds) results go without a
// change of the catalog, also results folded into a snapshot that outlives them: the catalog is
// checked against the records again when its last check is this old.
const EXPIRING_RECHECK_MS = 1_000;

// Locks of stores without a lock() of their own: one table per store object.
const FALLBACK_LOCKS = new WeakMap();

/** A new catalog generation's name: random, so a catalog removed and made again never reads as the old one. */
function newGeneration() {
  const bytes = new Uint8Array(12);
  if (typeof globalThis.crypto?.getRandomValues === "function")
    globalThis.crypto.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The keys under `prefix`, without values where the store can (`loadKeys`), else from loadRange. */
export async function keysOf(store, prefix) {
  if (typeof store.loadKeys === "function") return store.loadKeys(prefix);
  return (await store.loadRange(prefix)).map((entry) => entry.key);
}

/** UTF-8 length of a string without encoding it (a lone surrogate counts 3 bytes, as in WTF-8). */
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
 * @returns {import("./generated/contract.js").CatalogEntry | undefined}
 */
function timed(entryJson) {
  if (entryJson === undefined) return undefined;
  /** @type {import("./generated/contract.js").CatalogEntry} */
  const entry = JSON.parse(entryJson);
  const at = Date.parse(entry.createdAt);
  entry.createdAtMs = Number.isNaN(at) ? null : at;
  return entry;
}

/** `{ seq, entries }` of a snapshot this version reads, else undefined. */
function parseSnapshot(text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const ok =
    value?.format === CATALOG_FORMAT &&
    value.version === CATALOG_VERSION &&
    Number.isSafeInteger(value.seq) &&
    value.seq >= 0 &&
    Array.isArray(value.entries);
  return ok ? value : undefined;
}

export class SessionCatalog {
  #runtime;
  #store;
  #sessionId;
  /** The loaded catalog: entries by id (undefined: none loaded). */
  #entries;
  /** Its ids in id order (the reference's list order), made when first asked for, then kept. */
  #sorted;
  /** Its ids by tool name, each in id order, made when first asked for, then kept. */
  #byTool;
  /** Its sums, kept with every change: `usage` adds nothing up. */
  #chars = 0;
  #bytes = 0;
  /** The last log record (or snapshot) of the store that the loaded catalog holds. */
  #seq = 0;
  /** The snapshot the loaded catalog started from: every log record after it, up to #seq, exists. */
  #base = 0;
  /**
   * The store's head record (its generation) as read before the loaded catalog was, or as this
   * catalog wrote it; undefined when the store has none (a new session, or a catalog written
   * before heads existed), and then the log is listed at each use.
   */
  #head;
  /** Whether the loaded catalog is current for the lock this catalog holds now (see locked). */
  #currentUnderLock = false;
  /** Whether the loaded catalog was checked against the stored records. */
  #checked = false;
  /** When it was (Date.now()). */
  #checkedAt = 0;
  /**
   * Whether the next load must check the stored catalog against the records instead of trusting
   * it: after a change that could not be recorded, or when asked to (verify).
   */
  #distrust = false;
  /**
   * The loaded catalog's results in retention order, kept in the core (`{ order, instance }`: its
   * number and the core instance it lives in): made on the first prune, then changed with the
   * catalog, so a prune sends nothing of the session across.
   */
  #order = { order: undefined, instance: -1 };

  /** `runtime`: the core's (runtime.js), where the retention order lives. */
  constructor(runtime, store, sessionId) {
    this.#runtime = runtime;
    this.#store = store;
    this.#sessionId = sessionId;
    // The order of a catalog whose ToolStub was collected is dropped in the core too.
    runtime.dropWhenCollected(this, this.#order, "retentionOrderDrop");
  }

  #key(...segments) {
    return [this.#sessionId, CATALOG_DIR, ...segments];
  }

  #resultKey(id, file) {
    return [this.#sessionId, RESULTS_DIR, id, file];
  }

  /**
   * Calls `fn(view)` with the current catalog (see #view). The caller holding the session's
   * lock says so (`underLock`): a check that must save then does not take the lock again.
   */
  async use(fn, { underLock = false } = {}) {
    await this.#current(underLock);
    return fn(this.#view());
  }

  /**
   * `{ results, chars, bytes }`. A catalog not loaded yet answers from the totals its last log
   * record carries (every change and snapshot records the catalog's totals after it): a listing
   * of the log and one small read, whatever the session holds, instead of loading the catalog.
   * Loaded as for any other call when that record has no totals (written by an older version),
   * the catalog is not trusted as stored (see #loadFromLog), or it is already loaded.
   */
  async usage() {
    if (!this.#entries && !this.#distrust && this.#store.expires !== true) {
      const last = (await this.#log()).at(-1);
      const text = last && (await this.#store.load(last.key));
      const totals = text === undefined ? undefined : totalsOf(text, last.seq);
      if (totals !== undefined) return totals;
    }
    return this.use((view) => view.usage());
  }

  /** The catalog's totals after a change (entries added or replaced, ids removed), as #change makes them. */
  #totalsAfter(entries, ids) {
    let { size: results } = this.#entries;
    let chars = this.#chars;
    let bytes = this.#bytes;
    const gone = new Set();
    const added = new Map();
    const drop = (id) => {
      const entry = added.get(id) ?? (gone.has(id) ? undefined : this.#entries.get(id));
      if (entry === undefined) return;
      if (!added.delete(id)) gone.add(id);
      results -= 1;
      chars -= count(entry.originalChars);
      bytes -= count(entry.storedBytes);
    };
    for (const id of ids) drop(id);
    for (const entry of entries) {
      if (entry === null || typeof entry !== "object" || typeof entry.toolResultId !== "string")
        continue;
      drop(entry.toolResultId);
      added.set(entry.toolResultId, entry);
      results += 1;
      chars += count(entry.originalChars);
      bytes += count(entry.storedBytes);
    }
    return { results, chars, bytes };
  }

  /** What session-level calls ask of the loaded catalog. */
  #view() {
    const entries = this.#entries;
    const sorted = () => (this.#sorted ??= [...entries.keys()].sort(byId));
    const ofTool = (toolName) => {
      if (!this.#byTool) {
        this.#byTool = new Map();
        for (const id of sorted()) {
          const name = entries.get(id).toolName;
          const ids = this.#byTool.get(name);
          if (ids) ids.push(id);
          else this.#byTool.set(name, [id]);
        }
      }
      return this.#byTool.get(toolName) ?? [];
    };
    const chosen = (toolName) =>
      (toolName === undefined ? sorted() : ofTool(toolName)).map((id) => entries.get(id));
    return {
      has: (id) => entries.has(id),
      entry: (id) => entries.get(id),
      ids: () => sorted(),
      usage: () => ({ results: entries.size, chars: this.#chars, bytes: this.#bytes }),
      /** The entries `searchAll` greps: `toolName` applied before any output is loaded. */
      candidates: (toolName) => chosen(toolName),
      /**
       * A page of entries: `toolName` first, in id order (the reference's) or `newest` first
       * (latest `createdAt`; a date that does not read last; ties in id order), then
       * `offset`/`limit`. `{ totalResults, offset, hasMore, entries }`.
       */
      select: ({ toolName, order = "id", offset = 0, limit }) => {
        if (order !== "newest") {
          // In id order: only the page's entries are looked up.
          const ids = toolName === undefined ? sorted() : ofTool(toolName);
          const start = Math.min(offset, ids.length);
          const end = Math.min(start + limit, ids.length);
          return {
            totalResults: ids.length,
            offset: start,
            hasMore: end < ids.length,
            entries: ids.slice(start, end).map((id) => entries.get(id)),
          };
        }
        let list = chosen(toolName);
        if (order === "newest") {
          const at = (entry) => entry.createdAtMs ?? -Infinity;
          list = list
            .map((entry, i) => [entry, i])
            .sort(([a, i], [b, j]) => at(b) - at(a) || i - j)
            .map(([entry]) => entry);
        }
        const start = Math.min(offset, list.length);
        const end = Math.min(start + limit, list.length);
        return {
          totalResults: list.length,
          offset: start,
          hasMore: end < list.length,
          entries: list.slice(start, end),
        };
      },
      /** The ids retention deletes (planned by the core over its kept order), oldest first. */
      planPrune: (config, nowMs, protect) => {
        const planned = this.#runtime.call(
          "retentionOrderPlan",
          this.#retentionOrder(),
          JSON.stringify(config),
          nowMs,
          JSON.stringify(protect),
        );
        if (planned === undefined)
          throw new Error("the core has no retention order under the number it gave");
        return JSON.parse(planned);
      },
    };
  }

  /**
   * The number of the loaded catalog's retention order in the current core, made and filled from
   * the entries if needed. A number means nothing in another instance of the core (a restart
   * begins numbering again), so one is used only in the instance it was made in.
   */
  #retentionOrder() {
    const runtime = this.#runtime;
    for (let attempt = 0; attempt < 3; attempt++) {
      if (this.#order.order !== undefined && this.#order.instance === runtime.coreInstance())
        return this.#order.order;
      this.#dropOrder();
      const instance = runtime.coreInstance();
      const order = runtime.call("retentionOrderNew");
      // A call may restart the core after it answers (to give memory back): then try again.
      if (instance !== runtime.coreInstance()) continue;
      Object.assign(this.#order, { order, instance });
      const all = JSON.stringify([...this.#entries.values()].map(retained));
      if (!runtime.call("retentionOrderChange", order, all, "[]")) this.#dropOrder();
    }
    throw new Error("the core restarted under every attempt to make a retention order");
  }

  /** Sends a change of the loaded catalog to its retention order, if it has one. */
  #changeOrder(entries, ids) {
    if (this.#order.order === undefined) return;
    let kept = false;
    const runtime = this.#runtime;
    if (this.#order.instance === runtime.coreInstance()) {
      try {
        kept =
          runtime.call(
            "retentionOrderChange",
            this.#order.order,
            JSON.stringify(entries.map(retained)),
            JSON.stringify(ids),
          ) && this.#order.instance === runtime.coreInstance();
      } catch {
        kept = false;
      }
    }
    // Made again from the entries at the next prune.
    if (!kept) this.#dropOrder();
  }

  #dropOrder() {
    const { order, instance } = this.#order;
    if (order !== undefined && instance === this.#runtime.coreInstance())
      this.#runtime.core.retentionOrderDrop(order);
    Object.assign(this.#order, { order: undefined, instance: -1 });
  }

  /** Forgets the loaded catalog: the next call loads it from the store. */
  forget() {
    this.#entries = undefined;
    this.#sorted = undefined;
    this.#byTool = undefined;
    this.#chars = 0;
    this.#bytes = 0;
    this.#seq = 0;
    this.#base = 0;
    this.#head = undefined;
    this.#currentUnderLock = false;
    this.#dropOrder();
  }

  #open(entries = []) {
    this.forget();
    this.#entries = new Map();
    this.#change(entries, []);
  }

  #change(entries, ids) {
    for (const id of ids) this.#drop(id);
    const added = [];
    for (const entry of entries) {
      if (entry !== null && typeof entry === "object" && typeof entry.toolResultId === "string") {
        this.#drop(entry.toolResultId);
        this.#entries.set(entry.toolResultId, entry);
        this.#chars += count(entry.originalChars);
        this.#bytes += count(entry.storedBytes);
        if (this.#sorted) insertSorted(this.#sorted, entry.toolResultId);
        if (this.#byTool) {
          const same = this.#byTool.get(entry.toolName);
          if (same) insertSorted(same, entry.toolResultId);
          else this.#byTool.set(entry.toolName, [entry.toolResultId]);
        }
        added.push(entry);
      }
    }
    // An id both removed and added stays (added after): the order removes first too, then adds.
    this.#changeOrder(
      added,
      ids.filter((id) => !this.#entries.has(id)),
    );
  }

  /** Removes an entry and its place in the sums and the kept id lists (nothing if it is not there). */
  #drop(id) {
    const entry = this.#entries.get(id);
    if (entry === undefined) return;
    this.#entries.delete(id);
    this.#chars -= count(entry.originalChars);
    this.#bytes -= count(entry.storedBytes);
    if (this.#sorted) removeSorted(this.#sorted, id);
    const same = this.#byTool?.get(entry.toolName);
    if (same) {
      removeSorted(same, id);
      if (same.length === 0) this.#byTool.delete(entry.toolName);
    }
  }

  /** The log's records, `[{ seq, key }]` in seq order. */
  async #log() {
    const keys = await keysOf(this.#store, this.#key(LOG_DIR));
    return keys
      .filter((key) => key.length === 4 && /^\d{12}$/.test(key[3]))
      .map((key) => ({ seq: Number(key[3]), key }))
      .sort((a, b) => a.seq - b.seq);
  }

  async #current(underLock) {
    if (
      this.#checked &&
      this.#store.expires === true &&
      Date.now() - this.#checkedAt > EXPIRING_RECHECK_MS
    )
      this.#checked = false;
    // Nobody else writes while this catalog holds the lock: current once, current till released.
    if (underLock && this.#currentUnderLock && this.#entries && this.#checked) return;
    let loaded = false;
    for (let attempt = 0; attempt < 3 && !loaded; attempt++) loaded = await this.#load();
    let rebuilt = false;
    if (!loaded) {
      // The stored catalog does not read (or kept changing under us): rebuilt from the records.
      this.#open();
      this.#checked = false;
      rebuilt = true;
    }
    if (!this.#checked) await this.#check(underLock, rebuilt);
    if (underLock) this.#currentUnderLock = true;
  }

  /**
   * Whether the loaded catalog is the store's, cheaply: the head record is the one it was loaded
   * under (no snapshot was written since, and the catalog was not removed and made again), and
   * there is no log record after its seq (every change writes the record after the latest).
   * Two small reads (three in a store whose values expire), whatever the session holds; false
   * sends the caller to the log's listing.
   */
  async #isCurrent() {
    if (!this.#entries || this.#head === undefined) return false;
    if ((await this.#store.load(this.#key(HEAD_FILE))) !== this.#head) return false;
    // In a store whose values expire (`expires: true`: RedisStore with ttlSeconds) the oldest log
    // record after the snapshot goes first: when it is gone, the listing finds which records (and
    // results) are.
    if (
      this.#store.expires === true &&
      this.#seq > this.#base &&
      (await this.#store.load(this.#logKey(this.#base + 1))) === undefined
    )
      return false;
    return (await this.#store.load(this.#logKey(this.#seq + 1))) === undefined;
  }

  #logKey(seq) {
    return this.#key(LOG_DIR, String(seq).padStart(12, "0"));
  }

  /** Writes a new head record (a new generation): a snapshot was written, or a new catalog starts. */
  async #writeHead() {
    const head = JSON.stringify({ format: HEAD_FORMAT, generation: newGeneration() });
    this.#head = undefined;
    await this.#store.save(this.#key(HEAD_FILE), head);
    this.#head = head;
  }

  /** Brings the loaded catalog up to the store's log, or loads it; false when it does not read. */
  async #load() {
    if (await this.#isCurrent()) return true;
    // Read before the log is listed: whatever is loaded below is at least as new as this head.
    const head = await this.#store.load(this.#key(HEAD_FILE));
    // Another generation (a snapshot since, or the catalog removed and made again, its log seqs
    // starting over): the loaded catalog is no base to apply log records to.
    if (this.#entries && head !== this.#head) this.forget();
    const loaded = await this.#loadFromLog();
    if (loaded) this.#head = head;
    return loaded;
  }

  async #loadFromLog() {
    const log = await this.#log();
    const last = log.at(-1)?.seq ?? 0;
    // A record the loaded catalog holds that is gone from the log without a newer snapshot (a
    // store whose values expire, such as RedisStore with ttlSeconds) means its results may be
    // gone too: the catalog is loaded again, and checked against the records when it does not read.
    if (this.#entries && !this.#lostRecords(log)) {
      if (this.#seq === last) return true;
      if (this.#seq < last && (await this.#applyLog(log))) return true;
    }
    const text = await this.#store.load(this.#key(SNAPSHOT_FILE));
    if (text === undefined && log.length === 0) {
      // No catalog: a new session, or one stored by an older version or by another tool.
      this.#open();
      this.#checked = false;
      return true;
    }
    const snapshot = text === undefined ? { seq: 0, entries: [] } : parseSnapshot(text);
    if (snapshot === undefined) return false;
    this.#open(snapshot.entries);
    this.#seq = snapshot.seq;
    this.#base = snapshot.seq;
    if (!(await this.#applyLog(log))) {
      this.forget();
      return false;
    }
    // A stored catalog that reads is the session's (every change writes it under the lock; a
    // writer that died holding the lock makes the next one rebuild): not checked against every
    // record, which would make a new ToolStub's first call cost what the session holds. In a
    // store whose values expire, results go without a change of the catalog: checked there.
    if (!this.#checked && !this.#distrust && this.#store.expires !== true) {
      this.#checked = true;
      this.#checkedAt = Date.now();
    }
    return true;
  }

  /** Whether a log record between the loaded catalog's snapshot and its seq is gone. */
  #lostRecords(log) {
    if (this.#seq === this.#base) return false;
    const seqs = new Set(log.map((record) => record.seq));
    for (let seq = this.#base + 1; seq <= this.#seq; seq++) if (!seqs.has(seq)) return true;
    return false;
  }

  /** Applies the log records after the loaded catalog's seq, in order; false on a gap. */
  async #applyLog(log) {
    const after = log.filter(({ seq }) => seq > this.#seq);
    // Read concurrently, applied in order: a cold load reads up to entries/COMPACT_SHARE records,
    // and one store round trip after another made their count the cost of a new ToolStub.
    const texts = await loadAll(
      this.#store,
      after.map(({ key }) => key),
    );
    for (const [i, { seq }] of after.entries()) {
      if (seq !== this.#seq + 1) return false;
      const text = texts[i];
      if (text === undefined) return false;
      let record;
      try {
        record = JSON.parse(text);
      } catch {
        return false;
      }
      if (record?.seq !== seq || record.snapshot === true) return false;
      this.#change(
        Array.isArray(record.add) ? record.add : [],
        Array.isArray(record.remove) ? record.remove.filter((id) => typeof id === "string") : [],
      );
      this.#seq = seq;
    }
    return true;
  }

  /**
   * Adds the results that have a record and no entry, and drops the entries without a record.
   * Saved as a new snapshot under the lock (taken here unless the caller holds it); in memory
   * only if the lock cannot be had (a read-only store).
   */
  async #check(underLock, mustSave) {
    const { entries, gone } = await this.#differences();
    this.#checked = true;
    this.#distrust = false;
    this.#checkedAt = Date.now();
    if (entries.length === 0 && gone.length === 0 && !mustSave) return;
    this.#change(entries, gone);
    try {
      if (mustSave) {
        // Built from the records, not from the log: saved by a rebuild under the lock, which
        // reads the records again (a change another process made since is not lost).
        await (underLock ? this.rebuild() : this.locked(() => this.rebuild()));
      } else {
        await (underLock ? this.#saveSnapshot() : this.locked(() => this.#saveSnapshot()));
      }
    } catch (error) {
      if (underLock) throw error;
      // Kept in memory: a later check under the lock saves it.
    }
  }

  /** `{ entries, gone }`: entries for stored records the catalog lacks, ids it has without a record. */
  async #differences() {
    const keys = await keysOf(this.#store, [this.#sessionId, RESULTS_DIR]);
    const stored = keys
      .filter((key) => key.length === 4 && key[3] === RECORD_FILE)
      .map((key) => key[2]);
    const known = new Set(this.#entries.keys());
    const present = new Set(stored);
    const entries = [];
    for (const id of stored) {
      if (known.has(id)) continue;
      const entry = await this.entryOfStored(id).catch(() => undefined);
      if (entry) entries.push(entry);
    }
    return { entries, gone: [...known].filter((id) => !present.has(id)) };
  }

  /** The catalog entry of a stored result from its record and index; undefined without a record. */
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

  /** The entry of a result this call wrote, from the files it wrote. */
  entryOfWritten(id, recordJson, indexJson, output) {
    const outputBytes = parseOutputIndex(indexJson)?.bytes ?? utf8Length(output);
    return timed(this.#runtime.call("catalogEntryOf", id, recordJson, indexJson, outputBytes));
  }

  /**
   * Runs `fn()` holding the session's lock: the store's `lock`, or one of this realm for a store
   * without it. When the store reports that the last holder died holding it (it may have died
   * between two writes), the catalog is rebuilt from the records first.
   */
  async locked(fn) {
    const key = this.#key(LOCK_FILE);
    let lease;
    if (typeof this.#store.lock === "function") {
      lease = await this.#store.lock(key);
    } else {
      let table = FALLBACK_LOCKS.get(this.#store);
      if (!table) {
        table = new Map();
        FALLBACK_LOCKS.set(this.#store, table);
      }
      const release = await acquireLocal(table, lockName(key));
      lease = { recovered: false, release: async () => release() };
    }
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
   * Rebuilds the catalog from the stored records and saves it as a new snapshot; under the lock.
   * Answers `{ results, added, removed }` against the catalog the store held.
   */
  async rebuild() {
    let before = [];
    try {
      if (await this.#load()) before = [...this.#entries.keys()];
    } catch {
      before = [];
    }
    this.#open();
    this.#checked = true;
    this.#checkedAt = Date.now();
    const { entries } = await this.#differences();
    this.#change(entries, []);
    // The records are the truth here: no log record is replayed over them.
    await this.#saveSnapshot(undefined, { fromRecords: true });
    const ids = entries.map((entry) => entry.toolResultId);
    const had = new Set(before);
    const has = new Set(ids);
    return {
      results: ids.length,
      added: ids.filter((id) => !had.has(id)),
      removed: before.filter((id) => !has.has(id)),
    };
  }

  /**
   * Records a change (entries added, ids removed) as the next log record, and folds the log into
   * a new snapshot now and then; under the lock.
   */
  async commit(entries, removedIds) {
    if (entries.length === 0 && removedIds.length === 0) return;
    await this.#current(true);
    const seq = this.#seq + 1;
    const totals = this.#totalsAfter(entries, removedIds);
    const record = JSON.stringify({ seq, add: entries, remove: removedIds, totals });
    try {
      // A catalog without a head (new, or written before heads) gets one before its next record.
      if (this.#head === undefined) await this.#writeHead();
      await this.#store.save(this.#logKey(seq), record);
    } catch (error) {
      // The store may or may not hold it: load the catalog again next time.
      this.forget();
      throw error;
    }
    this.#change(entries, removedIds);
    this.#seq = seq;
    if (this.#seq - this.#base > Math.max(COMPACT_AFTER, this.#entries.size / COMPACT_SHARE))
      await this.#saveSnapshot();
  }

  /**
   * Saves the loaded catalog (brought up to the log first) as a snapshot at the log's next seq,
   * then its marker record, then removes the records it folds in; under the lock. A reader that
   * listed the log before this finds the snapshot newer than any record it then misses.
   */
  async #saveSnapshot(listed, { fromRecords = false } = {}) {
    const log = listed ?? (await this.#log());
    // A catalog loaded from the store takes the records written since; one rebuilt from the
    // records takes none (they would replay changes it already reflects). Records a loaded
    // catalog cannot follow are replaced: it was checked against the records.
    if (!fromRecords) await this.#applyLog(log);
    const seq = Math.max(log.at(-1)?.seq ?? 0, this.#seq) + 1;
    const snapshot = JSON.stringify({
      format: CATALOG_FORMAT,
      version: CATALOG_VERSION,
      seq,
      entries: [...this.#entries.values()],
    });
    try {
      await this.#store.save(this.#key(SNAPSHOT_FILE), snapshot);
      const totals = { results: this.#entries.size, chars: this.#chars, bytes: this.#bytes };
      await this.#store.save(this.#logKey(seq), JSON.stringify({ seq, snapshot: true, totals }));
      // Then a new generation: a reader holding an older catalog loads this snapshot, not a log
      // whose records go next.
      await this.#writeHead();
    } catch (error) {
      this.forget();
      throw error;
    }
    this.#seq = seq;
    this.#base = seq;
    for (const { key } of log) await this.#store.remove(key).catch(() => {});
  }

  /** Removes the stored catalog (snapshot and log); under the lock. */
  async remove() {
    this.forget();
    this.#checked = false;
    // The head first: a reader that finds none lists the log and reads what is left.
    await this.#store.remove(this.#key(HEAD_FILE));
    await this.#store.remove(this.#key(SNAPSHOT_FILE));
    for (const key of await keysOf(this.#store, this.#key(LOG_DIR))) await this.#store.remove(key);
  }

  /**
   * Forgets the loaded catalog and checks it against the records when next used: after a change
   * that could not be recorded (a full disk must not stop a delete that frees it).
   */
  invalidate() {
    this.forget();
    this.#checked = false;
    this.#distrust = true;
  }

  /** Checks the catalog against the stored records again (on `verify`). */
  async recheck({ underLock = false } = {}) {
    this.#checked = false;
    this.#distrust = true;
    return this.use(() => {}, { underLock });
  }

  /** Drops entries whose record turned out to be gone, in memory; the next check saves it. */
  dropInMemory(ids) {
    if (ids.length === 0 || !this.#entries) return;
    this.#change([], ids);
  }
}

/** Log records read at once by a load: enough to overlap round trips, few enough for file handles. */
const CONCURRENT_LOADS = 16;

/** The values of `keys`, in their order, loaded up to CONCURRENT_LOADS at a time. */
async function loadAll(store, keys) {
  const values = new Array(keys.length);
  let next = 0;
  const worker = async () => {
    while (next < keys.length) {
      const i = next++;
      values[i] = await store.load(keys[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENT_LOADS, keys.length) }, worker));
  return values;
}

/** What retention knows of an entry (src/retention.rs StoredResult). */
function retained(entry) {
  const bytes = entry.storedBytes;
  return {
    toolResultId: entry.toolResultId,
    createdAtMs: finiteOrNull(entry.createdAtMs),
    lastUsedAtMs: finiteOrNull(entry.lastUsedAtMs),
    bytes: Number.isSafeInteger(bytes) && bytes >= 0 ? bytes : 0,
  };
}

function finiteOrNull(value) {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** The reference's list order: ids compared by UTF-16 code units. */
function byId(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Where `id` is, or would go, in ids sorted by `byId`. */
function placeOf(ids, id) {
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (ids[mid] < id) low = mid + 1;
    else high = mid;
  }
  return low;
}

function insertSorted(ids, id) {
  const at = placeOf(ids, id);
  if (ids[at] !== id) ids.splice(at, 0, id);
}

function removeSorted(ids, id) {
  const at = placeOf(ids, id);
  if (ids[at] === id) ids.splice(at, 1);
}

/** The `{ results, chars, bytes }` a log record at `seq` carries, else undefined. */
function totalsOf(text, seq) {
  let record;
  try {
    record = JSON.parse(text);
  } catch {
    return undefined;
  }
  const totals = record?.seq === seq ? record.totals : undefined;
  const counts = [totals?.results, totals?.chars, totals?.bytes];
  if (!counts.every((n) => Number.isSafeInteger(n) && n >= 0)) return undefined;
  return { results: totals.results, chars: totals.chars, bytes: totals.bytes };
}

/** A count an entry holds (a number from the core; anything else from a damaged snapshot is 0). */
function count(value) {
  return Number.isFinite(value) ? value : 0;
}
