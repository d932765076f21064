// SIGKILL trials on NodeFsStore: a worker (crash-worker.mjs) externalizes, deletes and
// prunes at random and is killed at a random moment; then, in this process, every ref it got back
// must read back exactly (or, for one being deleted or pruned when it died, exactly or NOT_FOUND),
// everything listed must be readable and verify, temp files of the dead worker must be reclaimed
// by the next call that takes the session's lock (it finds the holder dead and rebuilds the
// catalog from the records), and nothing outside the store's layout may exist or change.
// Usage: node tests/soak/crash.mjs [--trials 200] [--seed 1] [--perStore 10]
import { spawn } from "node:child_process";
import {
  mkdtempSync,
  mkdirSync,
  writeFileSync,
  readFileSync,
  readdirSync,
  existsSync,
  rmSync,
} from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { PKG, output, random, layout, readWhole, checkListed, parseArgs } from "./lib.mjs";

const WORKER = fileURLToPath(new URL("./crash-worker.mjs", import.meta.url));

/** Runs `trials` kill trials; answers the counts and every violation found. */
export async function crashTrials({
  trials = 200,
  seed = 1,
  perStore = 10,
  print = () => {},
} = {}) {
  const { ToolStub, NodeFsStore } = await import(PKG);
  const rnd = random(seed);
  const stats = {
    trials: 0,
    killedIn: {},
    refsChecked: 0,
    exact: 0,
    inDoubtKept: 0,
    inDoubtGone: 0,
    goneChecked: 0,
    listed: 0,
    tempFilesLeft: 0,
    tempFilesReclaimed: 0,
    orphanFolders: 0,
    violations: [],
  };
  let parent, storeDir, logFile, refs, logged;
  for (let trial = 0; trial < trials; trial++) {
    if (trial % perStore === 0) {
      if (parent) rmSync(parent, { recursive: true, force: true });
      parent = mkdtempSync(path.join(tmpdir(), "tool-stub-soak-"));
      storeDir = path.join(parent, "store");
      mkdirSync(storeDir);
      writeFileSync(path.join(parent, "canary.txt"), "untouched");
      logFile = path.join(parent, "worker.log");
      writeFileSync(logFile, "");
      refs = new Map(); // ref -> { n, status: "solid" | "doubt" | "gone" }
      logged = 0;
    }
    const pool = seed * 1000 + Math.floor(trial / perStore);
    const worker = spawn(
      process.execPath,
      [WORKER, storeDir, logFile, String(pool), String(seed * 100_000 + trial)],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let stderr = "";
    worker.stderr.on("data", (d) => (stderr += d));
    const exited = new Promise((resolve) =>
      worker.on("exit", (code, signal) => resolve({ code, signal })),
    );
    await new Promise((resolve) => worker.stdout.once("data", resolve));
    await sleep(10 + Math.floor(rnd() * 600));
    worker.kill("SIGKILL");
    const { signal } = await exited;
    if (signal !== "SIGKILL")
      stats.violations.push(
        `trial ${trial}: the worker ended on its own (${stderr.trim().split("\n").slice(-3).join(" | ")})`,
      );
    stats.trials++;

    // What the worker did, from its log.
    const lines = readFileSync(logFile, "utf8").split("\n").filter(Boolean);
    let lastOp = "start";
    let inFlight = []; // the outputs of an externalize the kill cut short: they may have been stored
    for (const line of lines.slice(logged)) {
      let event;
      try {
        event = JSON.parse(line);
      } catch {
        continue; // a line cut by the kill
      }
      if (event.e === "begin") {
        lastOp = event.op;
        inFlight = event.ns ?? [];
      } else if (event.e === "end") inFlight = [];
      else if (event.e === "ok") refs.set(event.ref, { n: event.n, status: "solid" });
      else if (event.e === "del" && refs.has(event.ref)) refs.get(event.ref).status = "doubt";
      else if (event.e === "deld" && refs.has(event.ref)) refs.get(event.ref).status = "gone";
      else if (event.e === "prune")
        for (const r of refs.values())
          if (r.status === "solid") r.status = "pruning";
          else if (event.e === "pruned") {
            const deleted = new Set(event.deleted);
            for (const [ref, r] of refs)
              if (r.status === "pruning")
                r.status = deleted.has(ref.split("/").pop()) ? "gone" : "solid";
          } else if (event.e === "violation")
            stats.violations.push(`trial ${trial}: ${event.what}`);
    }
    logged = lines.length;
    for (const r of refs.values()) {
      if (r.status === "pruning" || (r.status === "gone" && inFlight.includes(r.n)))
        r.status = "doubt";
    }
    stats.killedIn[lastOp] = (stats.killedIn[lastOp] ?? 0) + 1;

    // The invariants, checked by a fresh process's view of the store.
    const ts = new ToolStub({ store: new NodeFsStore(storeDir), sessionId: "soak" });
    const before = layout(storeDir, ["soak"]);
    stats.tempFilesLeft += before.temps;
    stats.orphanFolders += before.orphans;
    for (const [ref, r] of refs) {
      const read = await readWhole(ts, ref);
      const exact = read.content !== undefined && read.content === output(pool, r.n);
      stats.refsChecked++;
      if (r.status === "solid") {
        if (exact) stats.exact++;
        else
          stats.violations.push(
            `trial ${trial}: ${ref} (output ${r.n}) reads ${read.code ?? "different text"}`,
          );
      } else if (r.status === "doubt") {
        if (exact) {
          stats.inDoubtKept++;
          r.status = "solid";
        } else if (read.code === "NOT_FOUND") {
          stats.inDoubtGone++;
          r.status = "gone";
        } else
          stats.violations.push(
            `trial ${trial}: ${ref}, being deleted or pruned, reads ${read.code ?? "different text"}`,
          );
      } else {
        stats.goneChecked++;
        if (read.code !== "NOT_FOUND")
          stats.violations.push(`trial ${trial}: deleted ${ref} reads ${read.code ?? "text"}`);
        refs.delete(ref);
      }
    }
    const listed = await checkListed(ts);
    stats.listed += listed.listed;
    stats.violations.push(...listed.problems.map((p) => `trial ${trial}: ${p}`));
    // A call that takes the lock (a delete of nothing): the dead worker held it if it died saving.
    await ts.delete("tr_soak_nothing_0000000000000000");
    const after = layout(storeDir, ["soak"]);
    stats.tempFilesReclaimed += before.temps - after.temps;
    if (after.temps > 0)
      stats.violations.push(
        `trial ${trial}: ${after.temps} temp file(s) of the dead worker left after a locked call`,
      );
    if (after.strays.length)
      stats.violations.push(`trial ${trial}: outside the layout: ${after.strays.join(", ")}`);
    const outside = readdirSync(parent).sort().join(",");
    if (
      outside !== "canary.txt,store,worker.log" ||
      readFileSync(path.join(parent, "canary.txt"), "utf8") !== "untouched"
    ) {
      stats.violations.push(`trial ${trial}: the store's parent folder changed: ${outside}`);
    }
    if ((trial + 1) % 20 === 0)
      print(`${trial + 1} trials, ${stats.violations.length} violation(s)`);
  }
  if (parent && existsSync(parent)) rmSync(parent, { recursive: true, force: true });
  return stats;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const options = parseArgs(process.argv.slice(2), { trials: 200, seed: 1, perStore: 10 });
  const stats = await crashTrials({ ...options, print: (line) => console.error(line) });
  console.log(
    JSON.stringify(
      {
        ...stats,
        violations: stats.violations.slice(0, 50),
        violationCount: stats.violations.length,
      },
      null,
      2,
    ),
  );
  process.exitCode = stats.violations.length ? 1 : 0;
}
