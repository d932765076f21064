// A turn planned in the core and finished once its outputs are stored. The plan stays in the core
// between the two (sending it out and reading it back cost a sixth of a 1,000-part turn), so it
// lives only as long as the core's instance: a trap in another call in between restarts the core
// (core-call.js) and takes the plan with it. The turn then plans again from the same input, which
// gives the same plan (planning is deterministic), and finishes with that one: another call's trap
// never costs this one the outputs it stored.

import * as core from "../wasm/tool_stub.js";
import { ToolStubError } from "./stores/errors.js";
import {
  callCore,
  coreInstance,
  holdInstance,
  releaseInstance,
  hashOutput,
  inCoreSha256,
  stagedSha256,
  storedSha256,
  isWellFormed,
} from "./core-call.js";
import { parseOutputIndex } from "./output-index.js";
import { enhancedHost } from "./enhanced-module.js";

/**
 * Plans a turn in the core with the outputs' SHA-256 from the fastest hasher the host has: one
 * the core calls on the bytes it holds (Node), an asynchronous one on the bytes staged in the core
 * (browsers: each output is encoded once), or a hasher of text (one installed by `useSha256`).
 * The core hashes what none of them gives. Call `release()` on the answer when done with it.
 */
export async function planTurn(inputJson, outputs) {
  // Held from before planning: the core is not restarted to give memory back under a plan.
  holdInstance();
  try {
    const planned = planExactly(inputJson, outputs, await planInCore(inputJson, outputs));
    return new PlannedTurn(inputJson, outputs, planned);
  } catch (error) {
    releaseInstance();
    throw error;
  }
}

async function planInCore(inputJson, outputs) {
  const inCore = inCoreSha256();
  if (inCore) return callCore(core.planTurn, inputJson, outputs, [], inCore, enhancedHost);
  const sha256OfBytes = stagedSha256();
  if (!sha256OfBytes) {
    const sha256s = await Promise.all(
      outputs.map((output) => (output === "" ? "" : hashOutput(output))),
    );
    return callCore(core.planTurn, inputJson, outputs, sha256s, undefined, enhancedHost);
  }
  const digests = [];
  const start = (index, utf8) => {
    digests[index] = sha256OfBytes(utf8);
  };
  const staged = callCore(core.stageOutputs, outputs, { start });
  const stagedIn = coreInstance();
  try {
    // A digest that fails leaves that output to the core's SHA-256.
    const sha256s = await Promise.all(
      outputs.map((_, i) => Promise.resolve(digests[i] ?? "").catch(() => "")),
    );
    // Staged in an instance that is gone: plan from the outputs themselves.
    if (stagedIn !== coreInstance())
      return callCore(core.planTurn, inputJson, outputs, sha256s, undefined, enhancedHost);
    return callCore(core.planStagedTurn, inputJson, staged, sha256s, enhancedHost);
  } finally {
    // The staging's number means nothing to another instance (it may name another call's).
    if (stagedIn === coreInstance()) core.dropStagedOutputs(staged);
  }
}

/**
 * The core's answer `planned`, or, when an output that goes out holds lone surrogates, the turn
 * planned again with that output's exact digest (`storedSha256`: of the WTF-8 a store keeps).
 * The core sees each lone surrogate as U+FFFD, so its digest would give such an output the id
 * of the text with U+FFFD in their place, and one would dedupe onto the other. Only an output
 * whose index says it holds U+FFFD is looked at (rare): the others cost nothing.
 */
function planExactly(inputJson, outputs, planned) {
  const { turn, writes } = JSON.parse(planned[0]);
  let sha256s;
  writes.forEach((write, i) => {
    const output = outputs[write.partIndex];
    if (parseOutputIndex(planned[1 + 2 * i])?.wellFormed !== false || isWellFormed(output)) return;
    sha256s ??= writes.reduce(
      (known, w) => ((known[w.partIndex] = w.sha256), known),
      outputs.map(() => ""),
    );
    sha256s[write.partIndex] = storedSha256(output);
  });
  if (sha256s === undefined) return planned;
  core.dropTurn(turn);
  return callCore(core.planTurn, inputJson, outputs, sha256s, inCoreSha256(), enhancedHost);
}

class PlannedTurn {
  #inputJson;
  #outputs;
  #turn;
  #instance;
  #released = false;

  constructor(inputJson, outputs, [planned, ...files]) {
    const { turn, writes } = JSON.parse(planned);
    /** Each write's keys: `{ partIndex, sha256, outputKey, indexKey, metadataKey }`. */
    this.writes = writes;
    /** The contents of each write's index and record files, two strings per write. */
    this.files = files;
    this.#inputJson = inputJson;
    this.#outputs = outputs;
    this.#turn = turn;
    this.#instance = coreInstance();
  }

  /** The turn's new parts, from one outcome per write and each failed write's output ("" else). */
  finish(outcomes, failedOutputs) {
    if (this.#instance !== coreInstance()) this.#planAgain();
    return JSON.parse(
      callCore(core.finishTurn, this.#turn, JSON.stringify(outcomes), failedOutputs, enhancedHost),
    );
  }

  /** Frees the plan if it was not finished (an error came first); lets the core restart again. */
  release() {
    if (this.#released) return;
    this.#released = true;
    // Finishing took the plan out; a number of an instance that is gone may name another call's.
    if (this.#instance === coreInstance()) core.dropTurn(this.#turn);
    releaseInstance();
  }

  /** Plans the turn again in the core's new instance, with the SHA-256 of the planned writes. */
  #planAgain() {
    const sha256s = this.#outputs.map(() => "");
    for (const write of this.writes) sha256s[write.partIndex] = write.sha256;
    const [planned] = callCore(
      core.planTurn,
      this.#inputJson,
      this.#outputs,
      sha256s,
      inCoreSha256(),
      enhancedHost,
    );
    const { turn, writes } = JSON.parse(planned);
    this.#instance = coreInstance();
    this.#turn = turn;
    if (JSON.stringify(writes) !== JSON.stringify(this.writes)) {
      throw new ToolStubError(
        "INTERNAL",
        "the turn planned again after the core restarted differs from its first plan",
      );
    }
  }
}
