// A turn planned in the core and finished once its outputs are stored. The plan stays in the core
// between the two (sending it out and reading it back cost a sixth of a 1,000-part turn), so it
// lives only as long as the core's instance: a trap in another call in between restarts the core
// (runtime.js) and takes the plan with it. The turn then plans again from the same input, which
// gives the same plan (planning is deterministic), and finishes with that one: another call's trap
// never costs this one the outputs it stored.

import { ToolStubError } from "./stores/errors.js";
import { isWellFormed } from "./stores/wtf8.js";
import { parseOutputIndex } from "./output-index.js";

/**
 * Plans a turn in the core with the outputs' SHA-256 from the fastest hasher the host has: one
 * the core calls on the bytes it holds (Node), an asynchronous one on the bytes staged in the core
 * (browsers: each output is encoded once), or a hasher of text (one installed by `useSha256`).
 * The core hashes what none of them gives. Call `release()` on the answer when done with it.
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
  const digests = [];
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
 */
function planExactly(runtime, inputJson, outputs, planned) {
  const { turn, writes } = JSON.parse(planned[0]);
  let sha256s;
  writes.forEach((write, i) => {
    const output = outputs[write.partIndex];
    if (parseOutputIndex(planned[1 + 2 * i])?.wellFormed !== false || isWellFormed(output)) return;
    if (sha256s === undefined) {
      sha256s = outputs.map(() => "");
      for (const w of writes) sha256s[w.partIndex] = w.sha256;
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
  #runtime;
  #inputJson;
  #outputs;
  #turn;
  #instance;
  #released = false;

  constructor(runtime, inputJson, outputs, [planned, ...files]) {
    this.#runtime = runtime;
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

  /** The turn's new parts, from one outcome per write and each failed write's output ("" else). */
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
