// A turn's tool parts in and out of the store: `externalize` goes validate → plan → store →
// finish, each step once (the core plans which outputs go out and finishes the parts from what was
// stored; this file reads the caller's parts, stores the planned writes under the session's lock,
// records them in the catalog and applies retention), and `restore` puts stored outputs back.

import { isWellFormed } from "./stores/wtf8.js";
import {
  callerJson,
  readingCaller,
  wellFormed,
  invalid,
  requireString,
  optionalString,
  requireOptions,
  checkKnownKeys,
} from "./arguments.js";
import { planTurn } from "./planned-turn.js";
import { parseOutputIndex } from "./output-index.js";
import { METADATA_FILE } from "./core-constants.js";
import { exactWindow } from "./retrieval.js";
import { retain } from "./session-results.js";
import { describeStoreError, errorReport } from "./session.js";

/** @typedef {import("./session.js").Session} Session */
/** @typedef {import("./index.js").ToolPart} ToolPart */
/** @typedef {import("./index.js").RetentionReport} RetentionReport */
/** @typedef {import("./planned-turn.js").PlannedWrite} PlannedWrite */
/** @typedef {import("./planned-turn.js").WriteOutcome} WriteOutcome */
/** @typedef {Awaited<ReturnType<typeof planTurn>>} PlannedTurn */
/**
 * A caller's part as read once: its own keys, the output left out (it travels beside the JSON).
 * @typedef {Record<string, unknown>} CorePart
 */
/**
 * The caller's turn, read and checked (see readTurn).
 * @typedef {object} Turn
 * @property {object} input the turn for the core, its parts' outputs left out
 * @property {string[]} outputs the outputs by part index
 * @property {CorePart[]} coreParts
 * @property {string} createdAt
 */
/**
 * The core's parts of a finished turn, or why it could not finish.
 * @typedef {{ parts: ToolPart[] } | { error: unknown }} FinishedTurn
 */

/** How many results of a turn a store with `saveMany` stores at once (see storeTurn). */
const WRITES_IN_FLIGHT = 16;

/**
 * Externalizes one turn's tool parts: returns new part objects (the inputs are not touched).
 * Outputs that go out are stored first, then replaced by their stub.
 * @param {Session} session
 * @param {unknown} parts
 * @param {unknown} options
 */
export async function externalize(session, parts, options) {
  const turn = readTurn(session, parts, options);
  // Token mode: the counts the core's plan needs go in with the parts (turn-tokens.js); a count
  // the caller's part holds is never taken for one.
  const tokens = await session.turnTokens.count(session.config, turn.outputs, turn.coreParts);
  const inputJson = callerJson(
    {
      ...turn.input,
      parts: turn.coreParts.map((part, i) => ({
        ...part,
        outputTokens: undefined,
        outputTokensSample: undefined,
        ...tokens[i],
      })),
    },
    "",
  );
  // Enhanced synopses come from a module of their own, loaded on first use (enhanced-module.js).
  await session.runtime.enhanced.loadForMode(session.config.synopsisMode);
  // The plan stays in the core (see planned-turn.js); what comes out is what storing needs: each
  // write's keys, then its index and record files, two strings per write.
  const plan = await planTurn(session.runtime, inputJson, turn.outputs);
  /** @type {{ finished: FinishedTurn, retention?: RetentionReport }} */
  let stored;
  try {
    stored = await storeTurn(session, turn, plan);
    if ("error" in stored.finished) throw session.runtime.toToolStubError(stored.finished.error);
  } finally {
    plan.release();
  }
  return turnResult(turn, stored.finished.parts, stored.retention);
}

/**
 * The caller's turn, read once and checked: `{ input, outputs, coreParts }`. The outputs go
 * beside the turn's JSON, never through it (see planTurn in the main module's bindings). They go
 * as they are: crossing into wasm (TextEncoder) turns a lone surrogate into U+FFFD, so an output
 * holding one gets its digest from the host (planExactly in planned-turn.js); the store keeps it
 * exactly. Each part is read once, here: getters and Proxies of the caller's parts are not
 * touched again.
 * @param {Session} session
 * @param {unknown} parts
 * @param {unknown} options
 * @returns {Turn}
 */
function readTurn(session, parts, options) {
  const opts = requireOptions(options, "options");
  checkKnownKeys(opts, ["messageId", "peerId"], "externalize");
  const messageId = requireString(opts.messageId, "messageId");
  // The records' `peer_id`; a part's own `messageId` (parts from several messages) names its record's.
  const peerId = optionalString(opts.peerId, "peerId", null);
  const { outputs, coreParts } = readingCaller("parts", () => {
    if (!Array.isArray(parts)) throw invalid("parts must be an array of tool parts");
    /** @type {string[]} */
    const outputs = new Array(parts.length);
    /** @type {CorePart[]} */
    const coreParts = new Array(parts.length);
    for (let i = 0; i < parts.length; i++) {
      /** @type {unknown} */
      const part = parts[i];
      if (part === null || typeof part !== "object" || Array.isArray(part)) {
        throw invalid(
          `parts[${i}] must be a tool part object (got ${i in parts ? (part === null ? "null" : typeof part) : "a hole in a sparse array"})`,
        );
      }
      coreParts[i] = { ...part, output: undefined };
      outputs[i] = optionalString(
        /** @type {{ output?: unknown }} */ (part).output,
        `parts[${i}].output`,
      );
    }
    return { outputs, coreParts };
  });
  const createdAt = readingCaller("options.now()", () =>
    requireString(session.now(), "the timestamp options.now() returned"),
  );
  const input = {
    sessionId: session.sessionId,
    sessionUri: session.sessionUri,
    messageId,
    config: session.config,
    parts: coreParts,
    peerId,
    createdAt,
    userId: session.userId,
  };
  return { input, outputs, coreParts, createdAt };
}

/**
 * Stores the planned writes, finishes the turn in the core from their outcomes and applies
 * retention: `{ finished: { parts } | { error }, retention? }`. Writes, the catalog's record of
 * them and retention happen under the session's lock, so a prune (of this or another process)
 * never deletes a result a call in flight writes or reuses.
 * @param {Session} session
 * @param {Turn} turn
 * @param {PlannedTurn} plan
 * @returns {Promise<{ finished: FinishedTurn, retention?: RetentionReport }>}
 */
async function storeTurn(session, turn, plan) {
  const retains = session.hasRetention();
  if (plan.writes.length === 0 && !retains) return { finished: finishTurn(plan, turn, []) };
  /** @type {FinishedTurn | undefined} */
  let finished;
  /** @type {RetentionReport | undefined} */
  let retention;
  try {
    await session.catalog.locked(async () => {
      const done = finishTurn(plan, turn, await storeWrites(session, turn, plan));
      finished = done;
      if (retains && "parts" in done)
        retention = await retain(session, referencedIds(session, done.parts, turn.coreParts));
    });
  } catch (error) {
    // The lock could not be had (nothing was stored) or failed to release (all was).
    /** @type {WriteOutcome} */
    const failure = { status: "failed", error: describeStoreError(error) };
    finished ??= finishTurn(
      plan,
      turn,
      plan.writes.map(() => failure),
    );
    if (retains && retention === undefined)
      retention = { deleted: [], skipped: [], error: errorReport(error) };
  }
  // Set on every path: under the lock, or above once the lock failed.
  return {
    finished: /** @type {FinishedTurn} */ (finished),
    retention,
  };
}

/**
 * Stores each planned write (see storeOutput) and records the stored ones in the catalog; answers
 * one outcome per write. Runs under the session's lock.
 * @param {Session} session
 * @param {Turn} turn
 * @param {PlannedTurn} plan
 * @returns {Promise<WriteOutcome[]>}
 */
async function storeWrites(session, turn, { writes, files }) {
  // The catalog is brought up to date before this call's writes, so they are its only news.
  await session.catalog.use(() => {}, { underLock: true }).catch(() => {});
  // A store that writes a result in one call (saveMany: Redis) gets up to WRITES_IN_FLIGHT
  // results at once, so a turn is not one round trip per result; others store one result after
  // another, as the crash and fault tests of each expect.
  /** @type {WriteOutcome[]} */
  const outcomes = new Array(writes.length);
  let nextWrite = 0;
  const storeNext = async () => {
    while (nextWrite < writes.length) {
      const i = nextWrite++;
      const write = writes[i];
      outcomes[i] = await storeOutput(
        session,
        write,
        files[2 * i],
        files[2 * i + 1],
        turn.outputs[write.partIndex],
      );
    }
  };
  const inFlight = typeof session.store.saveMany === "function" ? WRITES_IN_FLIGHT : 1;
  await Promise.all(Array.from({ length: Math.min(inFlight, writes.length) }, storeNext));
  /** @type {import("./generated/contract.js").CatalogEntry[]} */
  const entries = [];
  for (const [i, write] of writes.entries()) {
    const outcome = outcomes[i];
    if (outcome.status !== "stored") continue;
    const entry = await entryOfStoredWrite(
      session,
      write,
      outcome,
      files[2 * i],
      files[2 * i + 1],
      turn.outputs[write.partIndex],
      turn.createdAt,
    );
    if (entry) entries.push(entry);
  }
  // The results are stored: a failure to record them is repaired by the next check of the
  // catalog against the records, never by losing the turn.
  await session.catalog.commit(entries, []).catch(() => session.catalog.invalidate());
  return outcomes;
}

/**
 * The core's parts of the turn from one outcome per write: `{ parts }`, or `{ error }`.
 * @param {PlannedTurn} plan
 * @param {Turn} turn
 * @param {WriteOutcome[]} outcomes
 * @returns {FinishedTurn}
 */
function finishTurn(plan, turn, outcomes) {
  const failedOutputs = plan.writes.map((write, i) =>
    outcomes[i].status === "failed" ? turn.outputs[write.partIndex] : "",
  );
  try {
    return { parts: plan.finish(outcomes, failedOutputs) };
  } catch (error) {
    return { error };
  }
}

/**
 * The caller's parts with the core's over them. An output the core left as it was comes back as
 * "": the caller's own is kept. Object.assign, not two spreads: spreading the core's part over the
 * caller's took ~10 µs a part in V8 (a sixtieth of a 1,000-part turn); a caller's own "__proto__"
 * key still gets the spread. What retention did (or why it could not) goes beside the parts:
 * never thrown after storing.
 * @param {Turn} turn
 * @param {ToolPart[]} finished
 * @param {RetentionReport | undefined} retention
 * @returns {ToolPart[] & { readonly retention?: RetentionReport }}
 */
function turnResult({ outputs, coreParts }, finished, retention) {
  const result = finished.map((part, i) => {
    const output = part.output || outputs[i];
    return Object.hasOwn(coreParts[i], "__proto__")
      ? { ...coreParts[i], ...part, output }
      : Object.assign({}, coreParts[i], part, { output });
  });
  if (retention !== undefined)
    Object.defineProperty(result, "retention", { value: retention, enumerable: false });
  return result;
}

/**
 * The catalog entry of a stored write: from the files written, or the record it reused.
 * @param {Session} session
 * @param {PlannedWrite} write
 * @param {{ metadataJson: string }} outcome
 * @param {string} indexJson
 * @param {string} metadataJson
 * @param {string} output
 * @param {string} turnCreatedAt
 */
async function entryOfStoredWrite(
  session,
  write,
  outcome,
  indexJson,
  metadataJson,
  output,
  turnCreatedAt,
) {
  const id = write.metadataKey[2];
  try {
    if (outcome.metadataJson === "")
      return session.catalog.entryOfWritten(id, metadataJson, indexJson, output);
    const known = await session.catalog.use((catalog) => catalog.entry(id), { underLock: true });
    // A reused result's ref is handed out again by this turn: its entry notes when
    // (`lastUsedAtMs`), and the core's retention keeps it as fresh as this turn. Without a
    // retention policy nothing reads the note: the catalog is not written again.
    if (known !== undefined && !session.hasRetention()) return undefined;
    const entry = known ?? (await session.catalog.entryOfStored(id));
    if (entry === undefined) return undefined;
    const usedAt = Date.parse(turnCreatedAt);
    return Number.isNaN(usedAt) ? entry : { ...entry, lastUsedAtMs: usedAt };
  } catch {
    return undefined;
  }
}

/**
 * The ids of this session's results a turn's parts refer to (refs of other sessions are not ours).
 * @param {Session} session
 * @param {ToolPart[]} finished
 * @param {CorePart[]} parts
 */
function referencedIds(session, finished, parts) {
  /** @type {Set<string>} */
  const ids = new Set();
  for (const [i, part] of finished.entries()) {
    for (const ref of [part.outputRef, part.sourceRef, parts[i]?.outputRef, parts[i]?.sourceRef]) {
      if (typeof ref !== "string" || ref === "") continue;
      try {
        ids.add(session.resolveId(ref));
      } catch {
        // Another session's ref, or not a ref: nothing of this session to keep.
      }
    }
  }
  return [...ids];
}

/**
 * Stores one planned output and its files unless an identical one is stored; never throws. The
 * outcome names the record found, or "" for the planned one.
 * @param {Session} session
 * @param {PlannedWrite} write
 * @param {string} indexJson
 * @param {string} metadataJson
 * @param {string} output
 * @returns {Promise<WriteOutcome>}
 */
async function storeOutput(session, write, indexJson, metadataJson, output) {
  try {
    const existing = await session.store.load(write.metadataKey);
    if (existing !== undefined && session.runtime.call("storedMatches", existing, write.sha256)) {
      // Reused only when the stored output is this very text: a record whose output is
      // missing, cut short or changed behind the store's back would make the new stub's ref
      // unreadable or wrong. Then everything is written again.
      if ((await session.store.load(write.outputKey)) === output) {
        const index = parseOutputIndex(await session.store.load(write.indexKey));
        if (session.store.expires === true) {
          // Values that expire (a TTL): the reused result is saved again, so it lives as long as
          // a result stored now; its new stub's ref must not vanish with the first one's TTL.
          await saveInOrder(session.store, [
            { key: write.outputKey, value: output },
            { key: write.indexKey, value: indexJson },
            { key: write.metadataKey, value: existing },
          ]);
        } else if (index?.utf16 !== output.length) {
          await session.store.save(write.indexKey, indexJson);
        }
        return { status: "stored", metadataJson: existing };
      }
    }
    // Output first: a record is only ever written for an output that is fully stored. The index
    // before the record, so a recorded result never has a stale one (see output-index.js). A
    // store with `saveMany` writes the three at once (a transaction: all or none).
    await saveInOrder(session.store, [
      { key: write.outputKey, value: output },
      { key: write.indexKey, value: indexJson },
      { key: write.metadataKey, value: metadataJson },
    ]);
    return { status: "stored", metadataJson: "" };
  } catch (error) {
    return { status: "failed", error: describeStoreError(error) };
  }
}

/**
 * The inverse of `externalize`: new parts with each externalized output put back from the
 * store (a read-back part gets the window it read), SHA-256 verified (`CORRUPT` on mismatch).
 * @param {Session} session
 * @param {unknown} parts
 * @returns {Promise<ToolPart[]>}
 */
export async function restore(session, parts) {
  // Each part is read once, here (see externalize).
  const { coreParts, restored } = readingCaller("parts", () => {
    if (!Array.isArray(parts)) throw invalid("parts must be an array of tool parts");
    /** @type {CorePart[]} */
    const coreParts = new Array(parts.length);
    /** @type {CorePart[]} */
    const restored = new Array(parts.length);
    for (let i = 0; i < parts.length; i++) {
      /** @type {unknown} */
      const part = parts[i];
      if (part === null || typeof part !== "object" || Array.isArray(part)) {
        throw invalid(
          `parts[${i}] must be a tool part object (got ${i in parts ? (part === null ? "null" : typeof part) : "a hole in a sparse array"})`,
        );
      }
      restored[i] = { ...part };
      // Through JSON, not a string argument: a lone surrogate would reach the core as a \uD800 escape.
      coreParts[i] = {
        ...restored[i],
        output: wellFormed(optionalString(restored[i].output, `parts[${i}].output`)),
      };
    }
    return { coreParts, restored };
  });
  /** @type {{ partIndex: number, ref: string }[]} */
  const needs = JSON.parse(
    await session.runtime.extras.call("restorePlan", callerJson(coreParts, "parts")),
  );
  for (const need of needs) {
    const owner = session.owner(need.ref);
    if (owner !== session) {
      // A granted session's result: restored by that session, in place.
      [restored[need.partIndex]] = await restore(owner, [restored[need.partIndex]]);
      continue;
    }
    const id = session.resolveId(need.ref);
    const content = await session.loadOutput(id);
    const metadata = await session.store.load(session.key(id, METADATA_FILE));
    // The core sees a lone surrogate as U+FFFD: for such an output it checks the digest of
    // what is stored, computed here.
    const exact = !isWellFormed(content);
    /** @type {{ part: { output: string }, window: [number, number] | null }} */
    const { part, window } = JSON.parse(
      await session.runtime.extras.call(
        "restorePart",
        JSON.stringify(coreParts[need.partIndex]),
        content,
        metadata,
        exact ? session.runtime.storedSha256(content) : "",
      ),
    );
    const output = !exact
      ? part.output
      : window
        ? exactWindow(content, window[0], window[1])
        : content;
    restored[need.partIndex] = { ...restored[need.partIndex], output, truncated: false };
  }
  // Each part with its `output` a string: checked above, or put back from the store.
  return /** @type {ToolPart[]} */ (restored);
}

/**
 * Saves `entries` with the store's `saveMany` (all or none) when it has one, else one `save` at a
 * time in their order (a crash in between leaves the earlier ones: the record goes last).
 * @param {import("./stores/store.js").Store} store
 * @param {import("./stores/store.js").StoreEntry[]} entries
 */
async function saveInOrder(store, entries) {
  if (typeof store.saveMany === "function") return store.saveMany(entries);
  for (const { key, value } of entries) await store.save(key, value);
}
