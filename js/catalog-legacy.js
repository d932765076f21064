// The catalog as written before it was stored in pages (a snapshot of every entry, a log of
// changes after it, a generation record): read once, when a session that has one and no paged
// catalog is first used, so the catalog can be written in pages (catalog.js) and these removed.

import {
  CATALOG_DIR,
  CATALOG_FORMAT,
  CATALOG_VERSION,
  HEAD_FILE,
  LOG_DIR,
  SNAPSHOT_FILE,
} from "./core-constants.js";

/** @typedef {import("./stores/store.js").Store} Store */
/** @typedef {import("./stores/store.js").StoreKey} StoreKey */
/**
 * Lists the keys under a prefix (catalog.js's `keysOf`).
 * @typedef {(store: Store, prefix: string[]) => Promise<StoreKey[]>} KeysOf
 */
/**
 * An entry as the layout before pages stored it: only its id is looked at here (the core reads
 * the rest when the catalog is written in pages).
 * @typedef {{ toolResultId: string }} LegacyEntry
 */
/**
 * What the layout before pages holds: nothing, a catalog that does not read, or its entries.
 * @typedef {{ absent: true, unreadable?: undefined, entries?: undefined }
 *   | { absent?: undefined, unreadable: true, entries?: undefined }
 *   | { absent?: undefined, unreadable?: undefined, entries: LegacyEntry[] }} LegacyCatalog
 */

/**
 * The log's records, `[{ seq, key }]` in seq order.
 * @param {Store} store
 * @param {string} sessionId
 * @param {KeysOf} keysOf
 */
async function logOf(store, sessionId, keysOf) {
  const keys = await keysOf(store, [sessionId, CATALOG_DIR, LOG_DIR]);
  return keys
    .filter((key) => key.length === 4 && /^\d{12}$/.test(key[3]))
    .map((key) => ({ seq: Number(key[3]), key }))
    .sort((a, b) => a.seq - b.seq);
}

/**
 * The entries of a session's catalog in the layout before pages: `{ absent: true }` when there is
 * none, `{ unreadable: true }` when it does not read (a snapshot of another format, a gap in the
 * log), else `{ entries }`. `keysOf(store, prefix)` lists keys.
 * @param {Store} store
 * @param {string} sessionId
 * @param {KeysOf} keysOf
 * @returns {Promise<LegacyCatalog>}
 */
export async function readLegacyCatalog(store, sessionId, keysOf) {
  const log = await logOf(store, sessionId, keysOf);
  const text = await store.load([sessionId, CATALOG_DIR, SNAPSHOT_FILE]);
  if (text === undefined && log.length === 0) return { absent: true };
  /** @type {{ format?: unknown, version?: unknown, seq: number, entries: unknown[] }} */
  let snapshot = { seq: 0, entries: [] };
  if (text !== undefined) {
    try {
      snapshot = JSON.parse(text);
    } catch {
      return { unreadable: true };
    }
    const ok =
      snapshot?.format === CATALOG_FORMAT &&
      snapshot.version === CATALOG_VERSION &&
      Number.isSafeInteger(snapshot.seq) &&
      Array.isArray(snapshot.entries);
    if (!ok) return { unreadable: true };
  }
  /** @type {Map<string, LegacyEntry>} */
  const entries = new Map();
  /** @param {unknown} entry */
  const add = (entry) => {
    if (entry !== null && typeof entry === "object" && "toolResultId" in entry) {
      const { toolResultId } = entry;
      if (typeof toolResultId === "string")
        entries.set(toolResultId, /** @type {LegacyEntry} */ (entry));
    }
  };
  snapshot.entries.forEach(add);
  let seq = snapshot.seq;
  for (const record of log.filter((record) => record.seq > snapshot.seq)) {
    if (record.seq !== seq + 1) return { unreadable: true };
    let change;
    try {
      change = JSON.parse((await store.load(record.key)) ?? "null");
    } catch {
      return { unreadable: true };
    }
    if (change?.seq !== record.seq || change.snapshot === true) return { unreadable: true };
    for (const id of Array.isArray(change.remove) ? change.remove : []) entries.delete(id);
    (Array.isArray(change.add) ? change.add : []).forEach(add);
    seq = record.seq;
  }
  return { entries: [...entries.values()] };
}

/**
 * Removes the catalog of the layout before pages (its generation record first).
 * @param {Store} store
 * @param {string} sessionId
 * @param {KeysOf} keysOf
 */
export async function removeLegacyCatalog(store, sessionId, keysOf) {
  /** @param {string[]} segments */
  const key = (...segments) => [sessionId, CATALOG_DIR, ...segments];
  await store.remove(key(HEAD_FILE));
  await store.remove(key(SNAPSHOT_FILE));
  for (const { key: record } of await logOf(store, sessionId, keysOf)) await store.remove(record);
}
