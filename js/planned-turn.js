// A turn planned in the core and finished once its outputs are stored. The plan stays in the core
// between the two (sending it out and reading it back cost a sixth of a 1,000-part turn), so it
// lives only as long as the core's instance: a trap in another call in between restarts the core
// (runtime.js) and takes the plan with it. The turn then plans again from the same input, which
// gives the same plan (planning is deterministic), and finishes with that one: another call's trap
// never costs this one the outputs it stored.

import { ToolStubError } from "./stores/errors.js";
import { isWellFormed } from "./stores/wtf8.js";
import { parseOutputIndex } from "./output-index.js";

/** @typedef {import("./runtime.js").Runtime} Runtime */
/**
 * What the host needs of a planned write to store it (`WriteForHost` in the main module's
 * bindings).
 * @typedef {object} PlannedWrite
 * @property {number} partIndex
 * @property {string} sha256
 * @property {string[]} outputKey
 * @property {string[]} indexKey
 * @property {string[]} metadataKey
 */
/**
 * The first string of `planTurn`'s answer: the plan's number in the core and its writes.
 * @typedef {{ turn: number, writes: PlannedWrite[] }} TurnPlanHead
 */
/**
 * What became of one planned write (`WriteOutcome` in the core): stored (with the record as it
 * is in the store, "" for the planned one), or failed.
 * @typedef {{ status: "stored", metadataJson: string } | { status: "failed", error: string }} WriteOutcome
 */

/**
 * Plans a turn in the core with the outputs' SHA-256 from the fastest hasher the host has: one
 * the core calls on the bytes it holds (Node), an asynchronous one on the bytes staged in the core
 * (browsers: each output is encoded once), or a hasher of text (one installed by `useSha256`).
 * The core hashes what none of them gives. Call `release()` on the answer when done with it.
 * @param {Runtime} runtime
 * @param {string} inputJson
 * @param {string[]} outputs
 */
export async function planTurn(runtime, inputJson, outputs) {
  // Held from before planning: the core is not restarted to give memory back under a plan.
  runtime.holdInstance();
  try {
    const planned = planExactly(
      runtime,
      inputJson,
      outputs,
      await planInCore(runtime, inputJson, outputs),
    );
    return new PlannedTurn(runtime, inputJson, outputs, planned);
  } catch (error) {
    runtime.releaseInstance();
    throw error;
  }
}

/**
 * @param {Runtime} runtime
 * @param {string} inputJson
 * @param {string[]} outputs
 * @returns {Promise<string[]>}
 */
async function planInCore(runtime, inputJson, outputs) {
  const enhancedHost = runtime.enhanced.host;
  const inCore = runtime.inCoreSha256();
  if (inCore) return runtime.call("planTurn", inputJson, outputs, [], inCore, enhancedHost);
  const sha256OfBytes = runtime.stagedSha256();
  if (!sha256OfBytes) {
    const sha256s = await Promise.all(
      outputs.map((output) => (output === "" ? "" : runtime.hashOutput(output))),
    );
    return runtime.call("planTurn", inputJson, outputs, sha256s, undefined, enhancedHost);
  }
  /** @type {Promise<string>[]} */
  const digests = [];
  /**
   * @param {number} index
   * @param {Uint8Array<ArrayBuffer>} utf8
   */
  const start = (index, utf8) => {
    digests[index] = sha256OfBytes(utf8);
  };
  const staged = runtime.call("stageOutputs", outputs, { start });
  const stagedIn = runtime.coreInstance();
  try {
    // A digest that fails leaves that output to the core's SHA-256.
    const sha256s = await Promise.all(
      outputs.map((_, i) => Promise.resolve(digests[i] ?? "").catch(() => "")),
    );
    // Staged in an instance that is gone: plan from the outputs themselves.
    if (stagedIn !== runtime.coreInstance())
      return runtime.call("planTurn", inputJson, outputs, sha256s, undefined, enhancedHost);
    return runtime.call("planStagedTurn", inputJson, staged, sha256s, enhancedHost);
  } finally {
    // The staging's number means nothing to another instance (it may name another call's).
    if (stagedIn === runtime.coreInstance()) runtime.core.dropStagedOutputs(staged);
  }
}

/**
 * The core's answer `planned`, or, when an output that goes out holds lone surrogates, the turn
 * planned again with that output's exact digest (`storedSha256`: of the WTF-8 a store keeps).
 * The core sees each lone surrogate as U+FFFD, so its digest would give such an output the id
 * of the text with U+FFFD in their place, and one would dedupe onto the other. Only an output
 * whose index says it holds U+FFFD is looked at (rare): the others cost nothing.
 * @param {Runtime} runtime
 * @param {string} inputJson
 * @param {string[]} outputs
 * @param {string[]} planned
 * @returns {string[]}
 */
function planExactly(runtime, inputJson, outputs, planned) {
  /** @type {TurnPlanHead} */
  const { turn, writes } = JSON.parse(planned[0]);
  /** @type {string[] | undefined} */
  let sha256s;
  writes.forEach((write, i) => {
    const output = outputs[write.partIndex];
    if (parseOutputIndex(planned[1 + 2 * i])?.wellFormed !== false || isWellFormed(output)) return;
    if (sha256s === undefined) {
      const known = outputs.map(() => "");
      for (const w of writes) known[w.partIndex] = w.sha256;
      sha256s = known;
    }
    sha256s[write.partIndex] = runtime.storedSha256(output);
  });
  if (sha256s === undefined) return planned;
  runtime.core.dropTurn(turn);
  return runtime.call(
    "planTurn",
    inputJson,
    outputs,
    sha256s,
    runtime.inCoreSha256(),
    runtime.enhanced.host,
  );
}

class PlannedTurn {
  /** @type {Runtime} */
  #runtime;
  /** @type {string} */
  #inputJson;
  /** @type {string[]} */
  #outputs;
  /** @type {number} */
  #turn;
  /** @type {number} */
  #instance;
  #released = false;

  /**
   * @param {Runtime} runtime
   * @param {string} inputJson
   * @param {string[]} outputs
   * @param {string[]} answer `planTurn`'s
   */
  constructor(runtime, inputJson, outputs, [planned, ...files]) {
    this.#runtime = runtime;
    /** @type {TurnPlanHead} */
    const { turn, writes } = JSON.parse(planned);
    /** Each write's keys: `{ partIndex, sha256, outputKey, indexKey, metadataKey }`. */
    this.writes = writes;
    /** The contents of each write's index and record files, two strings per write. */
    this.files = files;
    this.#inputJson = inputJson;
    this.#outputs = outputs;
    this.#turn = turn;
    this.#instance = runtime.coreInstance();
  }

  /**
   * The turn's new parts, from one outcome per write and each failed write's output ("" else).
   * @param {WriteOutcome[]} outcomes
   * @param {string[]} failedOutputs
   * @returns {import("./index.js").ToolPart[]}
   */
  finish(outcomes, failedOutputs) {
    const runtime = this.#runtime;
    if (this.#instance !== runtime.coreInstance()) this.#planAgain();
    return JSON.parse(
      runtime.call(
        "finishTurn",
        this.#turn,
        JSON.stringify(outcomes),
        failedOutputs,
        runtime.enhanced.host,
      ),
    );
  }

  /** Frees the plan if it was not finished (an error came first); lets the core restart again. */
  release() {
    if (this.#released) return;
    this.#released = true;
    // Finishing took the plan out; a number of an instance that is gone may name another call's.
    const runtime = this.#runtime;
    if (this.#instance === runtime.coreInstance()) runtime.core.dropTurn(this.#turn);
    runtime.releaseInstance();
  }

  /** Plans the turn again in the core's new instance, with the SHA-256 of the planned writes. */
  #planAgain() {
    const sha256s = this.#outputs.map(() => "");
    for (const write of this.writes) sha256s[write.partIndex] = write.sha256;
    const runtime = this.#runtime;
    const [planned] = runtime.call(
      "planTurn",
      this.#inputJson,
      this.#outputs,
      sha256s,
      runtime.inCoreSha256(),
      runtime.enhanced.host,
    );
    /** @type {TurnPlanHead} */
    const { turn, writes } = JSON.parse(planned);
    this.#instance = runtime.coreInstance();
    this.#turn = turn;
    if (JSON.stringify(writes) !== JSON.stringify(this.writes)) {
      throw new ToolStubError(
        "INTERNAL",
        "the turn planned again after the core restarted differs from its first plan",
      );
    }
  }
}
