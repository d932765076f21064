// A session's stored results as a whole: `list` (from the catalog, loading only the records of
// the page), `delete`, `deleteSession`, `usage`, retention (`prune`, and after every turn) and
// `rebuildCatalog`. The catalog (catalog.js) says what exists; the core plans retention over it.

import { ToolStubError } from "./stores/errors.js";
import {
  requireString,
  optionalInteger,
  requireOptions,
  checkKnownKeys,
  invalid,
} from "./arguments.js";
import {
  DEFAULT_LIST_LIMIT,
  INDEX_FILE,
  METADATA_FILE,
  OUTPUT_FILE,
  RESULTS_DIR,
} from "./core-constants.js";
import { errorReport, skipReport } from "./session.js";

/** @typedef {import("./session.js").Session} Session */
/** @typedef {import("./generated/contract.js").ToolResultRecord} ToolResultRecord */
/** @typedef {import("./index.js").SkippedResult} SkippedResult */
/** @typedef {import("./index.js").RetentionReport} RetentionReport */

const LIST_OPTIONS = ["toolName", "limit"];
/** How many records `list` reads at once. */
const RECORDS_IN_FLIGHT = 16;

/**
 * The session's stored records (as written, snake_case), in id order.
 * @param {Session} session
 * @param {unknown} options
 * @returns {Promise<{ toolResults: ToolResultRecord[], skipped?: SkippedResult[] }>}
 */
export async function list(session, options) {
  const opts = requireOptions(options, "options");
  checkKnownKeys(opts, LIST_OPTIONS, "list");
  const toolName =
    opts.toolName === undefined ? undefined : requireString(opts.toolName, "toolName");
  const limit = optionalInteger(opts.limit, "limit", DEFAULT_LIST_LIMIT);
  session.runtime.call("checkListLimit", limit);
  const { records, skipped } = await listRecords(session, { toolName }, limit);
  return skipped.length > 0 ? { toolResults: records, skipped } : { toolResults: records };
}

/**
 * Up to `limit` stored records of the catalog's entries in `select`'s order (`toolName`,
 * `order`, `offset`), loading only those records. A record that does not read is skipped and
 * reported; an entry whose record is gone is dropped from the catalog.
 * @param {Session} session
 * @param {import("./catalog.js").CatalogQuery} select
 * @param {number} limit
 */
export async function listRecords(session, select, limit) {
  /** @type {ToolResultRecord[]} */
  const records = [];
  /** @type {SkippedResult[]} */
  const skipped = [];
  /** @type {string[]} */
  const gone = [];
  let offset = select.offset ?? 0;
  const page = await session.catalog.use(async (catalog) => {
    /** @type {import("./catalog.js").CatalogSelection} */
    let page;
    do {
      const want = Math.min(limit - records.length + skipped.length + gone.length, 1000);
      page = await catalog.select({ ...select, offset, limit: Math.max(want, 1) });
      // The page's records are read up to RECORDS_IN_FLIGHT at a time (a store over the network
      // answers them in one round trip), then taken in the page's order.
      const loaded = await loadEach(
        session.store,
        page.entries.map((entry) => session.key(entry.toolResultId, METADATA_FILE)),
      );
      for (const [i, entry] of page.entries.entries()) {
        const id = entry.toolResultId;
        const { text, error } = loaded[i];
        if (error !== undefined) {
          skipped.push(skipReport(id, error));
          continue;
        }
        if (text === undefined) {
          gone.push(id);
          continue;
        }
        const record = listedRecord(text);
        if (record === undefined) {
          skipped.push({
            toolResultId: id,
            code: "CORRUPT",
            message: `the record of tool result ${id} is not a JSON object`,
          });
          continue;
        }
        records.push(record);
        if (records.length === limit) break;
      }
      offset += page.entries.length;
    } while (records.length < limit && page.hasMore);
    return page;
  });
  await session.catalog.dropGone(gone);
  return {
    records,
    skipped,
    totalResults: page.totalResults - gone.length,
    hasMore: page.hasMore,
  };
}

/**
 * Rebuilds the session's catalog from the stored records (results stored by another tool or an
 * older version are added, entries without a record dropped). Answers `{ results, added, removed }`.
 * @param {Session} session
 */
export async function rebuildCatalog(session) {
  return session.catalog.locked(() => session.catalog.rebuild());
}

/**
 * Deletes one stored result. `{ deleted: false }` when there was none.
 * @param {Session} session
 * @param {unknown} refOrId
 */
export async function deleteResult(session, refOrId) {
  const id = session.resolveId(refOrId);
  session.requireRemoveRange();
  return session.catalog.locked(async () => {
    const prefix = [session.sessionId, RESULTS_DIR, id];
    const existed =
      (await session.store.load([...prefix, METADATA_FILE])) !== undefined ||
      (await session.store.load([...prefix, OUTPUT_FILE])) !== undefined;
    // The entry goes first: a crash before the files go leaves a result without an entry,
    // which the next check of the catalog adds back, never an entry without its result.
    await session.catalog.commit([], [id]).catch(() => session.catalog.invalidate());
    await removeResult(session, id);
    return { deleted: existed };
  });
}

/**
 * Removes one result's files in the inverse of the write order (record, index, output), then
 * anything else under it: a crash in between leaves an output without a record (not a result:
 * nothing lists or reads it), never a record naming a missing output.
 * @param {Session} session
 * @param {string} id
 */
async function removeResult(session, id) {
  const removeRange = session.requireRemoveRange();
  if (typeof session.store.remove === "function") {
    for (const file of [METADATA_FILE, INDEX_FILE, OUTPUT_FILE])
      await session.store.remove(session.key(id, file));
  }
  await removeRange.call(session.store, [session.sessionId, RESULTS_DIR, id]);
}

/**
 * Deletes every stored result of this session and its catalog: exactly what this package
 * wrote under the session (its `tool-results` and `tool-stub` entries), nothing else.
 * @param {Session} session
 */
export async function deleteSession(session) {
  const removeRange = session.requireRemoveRange();
  await session.catalog.locked(async () => {
    await removeRange.call(session.store, [session.sessionId, RESULTS_DIR]);
    await session.catalog.remove();
  });
}

/**
 * What this session stores, from its catalog: `{ results, chars, bytes }` (UTF-8 bytes of the
 * outputs, their indexes and records). It counts what `list` lists: a directory without a
 * record (a write cut short) and temp files are not results.
 * @param {Session} session
 */
export async function usage(session) {
  return session.catalog.usage();
}

/**
 * Applies the retention policy (`maxResults`, `maxBytes`, `maxAgeMs`): deletes the oldest results
 * first, never one in `protect` (refs or ids). Runs after every `externalize` too, under the
 * session's lock. Answers `{ deleted: [ids] }`, with `skipped` for results it could not delete.
 * @param {Session} session
 * @param {unknown} options
 * @returns {Promise<{ deleted: string[], skipped?: SkippedResult[] }>}
 */
export async function prune(session, options) {
  const opts = requireOptions(options, "options");
  checkKnownKeys(opts, ["protect"], "prune");
  /** @type {unknown} */
  const protectGiven = opts.protect ?? [];
  if (!Array.isArray(protectGiven)) throw invalid("protect must be an array of refs or ids");
  const protect = protectGiven.map((ref) => session.resolveId(ref));
  if (!session.hasRetention()) return { deleted: [] };
  session.requireRemoveRange();
  const outcome = await session.catalog.locked(() => retain(session, protect));
  if (outcome.error) throw new ToolStubError(outcome.error.code, outcome.error.message);
  return outcome.skipped.length > 0
    ? { deleted: outcome.deleted, skipped: outcome.skipped }
    : { deleted: outcome.deleted };
}

/**
 * Retention under the lock: plans from the catalog, records the removals, then deletes each
 * result. Never throws: `{ deleted, skipped: [{ toolResultId, code, message }], error? }`.
 * @param {Session} session
 * @param {string[]} protect
 * @returns {Promise<RetentionReport & { error?: { code: import("./index.js").ToolStubErrorCode } }>}
 */
export async function retain(session, protect) {
  if (typeof session.store.removeRange !== "function") {
    return {
      deleted: [],
      skipped: [],
      error: {
        code: "INVALID_ARGUMENT",
        message: "store must implement removeRange() to delete",
      },
    };
  }
  /** @type {string[]} */
  let doomed;
  try {
    doomed = await session.catalog.use(
      (catalog) => catalog.planPrune(session.config, Date.now(), protect),
      { underLock: true },
    );
    if (doomed.length === 0) return { deleted: [], skipped: [] };
    // A removal that cannot be recorded (a full disk) still frees the space; the catalog is
    // then checked against the records at its next use.
    await session.catalog.commit([], doomed).catch(() => session.catalog.invalidate());
  } catch (error) {
    return { deleted: [], skipped: [], error: errorReport(error) };
  }
  /** @type {string[]} */
  const deleted = [];
  /** @type {SkippedResult[]} */
  const skipped = [];
  for (const id of doomed) {
    try {
      await removeResult(session, id);
      deleted.push(id);
    } catch (error) {
      // Its entry is gone, its files are not: the next check of the catalog lists it again.
      skipped.push(skipReport(id, error));
    }
  }
  return { deleted, skipped };
}

/**
 * `[{ text } | { error }]`: each key loaded, up to RECORDS_IN_FLIGHT at once, in the keys' order.
 * @param {import("./stores/store.js").Store} store
 * @param {import("./stores/store.js").StoreKey[]} keys
 * @returns {Promise<{ text?: string, error?: unknown }[]>}
 */
async function loadEach(store, keys) {
  /** @type {{ text?: string, error?: unknown }[]} */
  const out = new Array(keys.length);
  let next = 0;
  const worker = async () => {
    while (next < keys.length) {
      const i = next++;
      try {
        out[i] = { text: await store.load(keys[i]) };
      } catch (error) {
        out[i] = { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(RECORDS_IN_FLIGHT, keys.length) }, worker));
  return out;
}

/**
 * A stored record as `list` returns it: any JSON object, as the reference lists it (SPEC 6), else
 * undefined. Parsed here, not in the core: Python's `json`, like `JSON.parse`, keeps a record
 * holding an escaped lone surrogate, which serde_json refuses; and the page's filter and order
 * come from the catalog.
 * @param {string} text
 * @returns {ToolResultRecord | undefined}
 */
function listedRecord(text) {
  /** @type {unknown} */
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  // Listed as stored: what the package writes is a ToolResultRecord, another tool's is its own.
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? /** @type {ToolResultRecord} */ (value)
    : undefined;
}
