// The check of one externalized turn under store faults (faults.mjs, ro-worker.mjs).
import { readWhole } from "./lib.mjs";

/**
 * Every part came back with a ref whose stored output reads back exactly (through `reader`, a
 * ToolStub on the store without faults), or with its raw output and an externalizationError
 * that names no absolute path under `storeDir`. Counts go into `stats`.
 */
export async function checkTurn(reader, parts, done, stats, where, storeDir) {
  stats.turns++;
  for (const [i, result] of done.entries()) {
    stats.parts++;
    if (result.truncated && result.outputRef) {
      const read = await readWhole(reader, result.outputRef);
      if (read.content === parts[i].output) stats.stored++;
      else
        stats.violations.push(`${where}: part ${i}'s ref reads ${read.code ?? "different text"}`);
    } else if (result.output === parts[i].output && result.externalizationError) {
      stats.keptRaw++;
      const code =
        /\b(E[A-Z]{3,}|TimeoutError|injected|TOO_LARGE|CORRUPT)\b/.exec(
          result.externalizationError,
        )?.[1] ?? "STORE_FAILED (wrong type)";
      stats.errorCodes[code] = (stats.errorCodes[code] ?? 0) + 1;
      if (storeDir && result.externalizationError.includes(storeDir))
        stats.violations.push(
          `${where}: an error names the store's path: ${result.externalizationError}`,
        );
    } else {
      stats.violations.push(
        `${where}: part ${i} kept neither a readable ref nor its raw output (${result.externalizationError ?? "no error"})`,
      );
    }
  }
}
