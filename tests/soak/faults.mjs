// Store faults: saves that throw (before or after writing), hang (storeTimeoutMs ends
// them), or answer junk, and loads that answer junk, on a NodeFsStore; folders turning read-only
// in the middle of a turn, as a non-root user (runuser); ENOSPC on a small tmpfs (mount, as root).
// After every turn: each part has a ref that reads back exactly or kept its raw output, with an
// error naming no path; after each scenario: everything listed is readable and verifies, no temp
// file is left, and nothing outside the store's layout exists.
// Usage: node tests/soak/faults.mjs [--turns 100] [--seed 1]
import { spawnSync, execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, chownSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { PKG, part, random, layout, checkListed, parseArgs } from "./lib.mjs";
import { checkTurn } from "./faults-lib.mjs";

const JUNK = [42, Buffer.from("junk"), { not: "a string" }, ["x"], null];

/** `inner` with faults injected at the given rates (per call). */
function faulty(inner, rnd, rates) {
  const roll = (name) => rnd() < (rates[name] ?? 0);
  return {
    sliceUnit: inner.sliceUnit,
    loadSlice: (key, start, end) => inner.loadSlice(key, start, end),
    loadRange: (prefix) => inner.loadRange(prefix),
    remove: (key) => inner.remove(key),
    removeRange: (prefix) => inner.removeRange(prefix),
    async load(key) {
      if (roll("junkLoad")) return JUNK[Math.floor(rnd() * JUNK.length)];
      return inner.load(key);
    },
    async save(key, value) {
      if (roll("throwBefore")) throw new Error("injected: save failed before writing");
      if (roll("hang")) return new Promise(() => {});
      await inner.save(key, value);
      if (roll("throwAfter")) throw new Error("injected: save failed after writing");
      if (roll("junkSave")) return JUNK[Math.floor(rnd() * JUNK.length)];
    },
  };
}

const SCENARIOS = {
  "saves throw": { throwBefore: 0.15, throwAfter: 0.1 },
  "saves hang (storeTimeoutMs: 200)": { hang: 0.1 },
  "saves and loads answer junk": { junkSave: 0.3, junkLoad: 0.1 },
  "everything at once": {
    throwBefore: 0.05,
    throwAfter: 0.05,
    hang: 0.03,
    junkSave: 0.1,
    junkLoad: 0.05,
  },
};

function newStats() {
  return { turns: 0, parts: 0, stored: 0, keptRaw: 0, errorCodes: {}, listed: 0, violations: [] };
}

async function afterScenario(ts, storeDir, stats, where) {
  const listed = await checkListed(ts);
  stats.listed += listed.listed;
  stats.violations.push(...listed.problems.map((p) => `${where}: ${p}`));
  const { strays, temps } = layout(storeDir, ["soak"]);
  if (strays.length) stats.violations.push(`${where}: outside the layout: ${strays.join(", ")}`);
  if (temps) stats.violations.push(`${where}: ${temps} temp file(s) left`);
}

export async function injectedFaults({ turns = 100, seed = 1 } = {}) {
  const { ToolStub, NodeFsStore } = await import(PKG);
  const report = {};
  for (const [name, rates] of Object.entries(SCENARIOS)) {
    const stats = newStats();
    const storeDir = path.join(mkdtempSync(path.join(tmpdir(), "tool-stub-faults-")), "store");
    const inner = new NodeFsStore(storeDir);
    const rnd = random(seed);
    const ts = new ToolStub({
      store: faulty(inner, rnd, rates),
      sessionId: "soak",
      config: { thresholdChars: 1000, storeTimeoutMs: 200 },
    });
    const reader = new ToolStub({ store: inner, sessionId: "soak" });
    for (let t = 0; t < turns; t++) {
      const parts = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () =>
        part(seed, Math.floor(rnd() * 50)),
      );
      try {
        await checkTurn(
          reader,
          parts,
          await ts.externalize(parts, { messageId: `m${t}` }),
          stats,
          `${name}, turn ${t}`,
          storeDir,
        );
      } catch (error) {
        stats.violations.push(
          `${name}, turn ${t}: externalize threw ${error?.code} ${error?.message}`,
        );
      }
    }
    await afterScenario(reader, storeDir, stats, name);
    rmSync(path.dirname(storeDir), { recursive: true, force: true });
    report[name] = stats;
  }
  return report;
}

/** Folders read-only mid-turn, as user nobody: needs root and runuser. */
export function readOnlyMidTurn({ turns = 60, seed = 1 } = {}) {
  if (process.getuid?.() !== 0)
    return { skipped: "not root: cannot run the worker as another user" };
  const who = spawnSync(
    "runuser",
    [
      "-u",
      "nobody",
      "--",
      process.execPath,
      "-e",
      "process.stdout.write(String(process.getuid()))",
    ],
    { encoding: "utf8" },
  );
  if (who.status !== 0 || who.stdout === "0")
    return { skipped: `runuser -u nobody does not work here (${who.stderr?.trim() || who.error})` };
  // The worker imports the package from this checkout: a checkout under a folder that user
  // cannot enter (a mode-700 temp clone) cannot run the scenario at all.
  const worker = fileURLToPath(new URL("./ro-worker.mjs", import.meta.url));
  const reach = spawnSync(
    "runuser",
    [
      "-u",
      "nobody",
      "--",
      process.execPath,
      "-e",
      "require('fs').accessSync(process.argv[1])",
      worker,
    ],
    { encoding: "utf8" },
  );
  if (reach.status !== 0)
    return {
      skipped:
        "user nobody cannot read this checkout (a folder on its path is closed to other users)",
    };
  const parent = mkdtempSync(path.join(tmpdir(), "tool-stub-ro-"));
  const storeDir = path.join(parent, "store");
  mkdirSync(storeDir);
  chownSync(parent, 65534, 65534);
  chownSync(storeDir, 65534, 65534);
  const run = spawnSync(
    "runuser",
    ["-u", "nobody", "--", process.execPath, worker, storeDir, String(turns), String(seed)],
    { encoding: "utf8", timeout: 300_000 },
  );
  let stats;
  try {
    stats = JSON.parse(run.stdout);
  } catch {
    stats = { violations: [`the worker failed: ${run.status} ${run.stderr}`] };
  }
  stats.storeDir = storeDir;
  return { stats, parent };
}

/** ENOSPC on a 1 MiB tmpfs: needs root and `mount -t tmpfs`. */
export async function diskFull({ turns = 40, seed = 1 } = {}) {
  if (process.getuid?.() !== 0) return { skipped: "not root: cannot mount a tmpfs" };
  const mountPoint = mkdtempSync(path.join(tmpdir(), "tool-stub-enospc-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", mountPoint], { stdio: "pipe" });
  } catch (error) {
    rmSync(mountPoint, { recursive: true, force: true });
    return {
      skipped: `mount -t tmpfs does not work here (${String(error.stderr ?? error.message).trim()})`,
    };
  }
  const { ToolStub, NodeFsStore } = await import(PKG);
  const stats = newStats();
  const storeDir = path.join(mountPoint, "store");
  try {
    const ts = new ToolStub({
      store: new NodeFsStore(storeDir),
      sessionId: "soak",
      config: { thresholdChars: 1000 },
    });
    const rnd = random(seed);
    for (let t = 0; t < turns; t++) {
      const parts = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () =>
        part(seed + 7, Math.floor(rnd() * 80)),
      );
      try {
        await checkTurn(
          ts,
          parts,
          await ts.externalize(parts, { messageId: `m${t}` }),
          stats,
          `ENOSPC, turn ${t}`,
          storeDir,
        );
      } catch (error) {
        stats.violations.push(
          `ENOSPC, turn ${t}: externalize threw ${error?.code} ${error?.message}`,
        );
      }
      // Now and then space comes back: the oldest result goes.
      if (t % 10 === 9) {
        const [oldest] = (await ts.list({ limit: 1 })).toolResults;
        if (oldest) await ts.delete(oldest.storage_uri);
      }
    }
    await afterScenario(ts, storeDir, stats, "ENOSPC");
  } finally {
    execFileSync("umount", [mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  }
  if (!stats.errorCodes.ENOSPC)
    stats.violations.push("ENOSPC: the disk never filled up (the scenario tested nothing)");
  return { stats };
}

/** readOnlyMidTurn, checked afterwards from this process: its stats, or `{ skipped }`. */
export async function readOnlyChecked(options = {}) {
  const ro = readOnlyMidTurn(options);
  if (ro.skipped) return ro;
  const { ToolStub, NodeFsStore } = await import(PKG);
  const reader = new ToolStub({ store: new NodeFsStore(ro.stats.storeDir), sessionId: "soak" });
  ro.stats.listed = 0;
  ro.stats.violations ??= [];
  await afterScenario(reader, ro.stats.storeDir, ro.stats, "read-only mid-turn");
  if (!ro.stats.errorCodes?.EACCES)
    ro.stats.violations.push(
      "read-only mid-turn: no save was refused (the scenario tested nothing)",
    );
  delete ro.stats.storeDir;
  rmSync(ro.parent, { recursive: true, force: true });
  return ro.stats;
}

export async function allFaults(options = {}) {
  const full = await diskFull(options);
  return {
    injected: await injectedFaults(options),
    readOnlyMidTurn: await readOnlyChecked(options),
    diskFull: full.stats ?? full,
  };
}

export function violationsOf(report) {
  return Object.values(report).flatMap((entry) =>
    entry?.violations
      ? entry.violations
      : entry && typeof entry === "object"
        ? Object.values(entry).flatMap((s) => s?.violations ?? [])
        : [],
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const options = parseArgs(process.argv.slice(2), { turns: 100, seed: 1 });
  const report = await allFaults(options);
  console.log(JSON.stringify(report, null, 2));
  process.exitCode = violationsOf(report).length ? 1 : 0;
}
