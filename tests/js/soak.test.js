// The short version of the soak (scripts/soak.sh runs the full one): 20 SIGKILL trials at random
// points of externalize/delete/prune on NodeFsStore, and store faults (saves that throw, hang or
// answer junk; read-only folders mid-turn as a non-root user and ENOSPC on a tmpfs where this
// machine allows them, skipped, and said so, where not). Every invariant of tests/soak/*.mjs must hold.
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { crashTrials } from "../soak/crash.mjs";
import { injectedFaults, readOnlyChecked, diskFull } from "../soak/faults.mjs";

describe("soak (short)", () => {
  it("20 SIGKILL trials: every returned ref reads back exactly, nothing listed is unreadable, nothing outside the layout", async () => {
    const stats = await crashTrials({ trials: 20, seed: 7, perStore: 10 });
    assert.deepEqual(stats.violations, []);
    assert.equal(stats.trials, 20);
    assert.ok(stats.exact > 0 && stats.listed > 0, JSON.stringify(stats));
  });

  it("saves that throw, hang or answer junk: every part has a readable ref or its raw output", async () => {
    const report = await injectedFaults({ turns: 15, seed: 3 });
    for (const [name, stats] of Object.entries(report)) {
      assert.deepEqual(stats.violations, [], name);
      assert.ok(
        stats.stored > 0 && stats.keptRaw > 0,
        `${name} exercised both outcomes: ${JSON.stringify(stats)}`,
      );
    }
  });

  it("folders read-only mid-turn (as user nobody)", async (t) => {
    const stats = await readOnlyChecked({ turns: 15, seed: 3 });
    if (stats.skipped) return t.skip(stats.skipped);
    assert.deepEqual(stats.violations, []);
    assert.ok(stats.stored > 0 && stats.keptRaw > 0, JSON.stringify(stats));
  });

  it("ENOSPC on a 1 MiB tmpfs", async (t) => {
    const result = await diskFull({ turns: 20, seed: 3 });
    if (result.skipped) return t.skip(result.skipped);
    assert.deepEqual(result.stats.violations, []);
  });
});
