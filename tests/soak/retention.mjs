// Concurrency with retention: 4 processes x 200 externalizes, each with a retention
// policy (maxResults: 10), into one session of one NodeFsStore. Each ref an externalize returns
// must read back at once (retention must not delete a result of a call in flight), no externalize
// may throw or lose its output, and afterwards everything listed must be readable.
// Usage: node tests/soak/retention.mjs [--processes 4] [--count 200]
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { PKG, layout, checkListed, parseArgs } from "./lib.mjs";

const WORKER = fileURLToPath(new URL("./retention-worker.mjs", import.meta.url));

export async function retentionRace({ processes = 4, count = 200 } = {}) {
  const parent = mkdtempSync(path.join(tmpdir(), "tool-stub-retention-"));
  const storeDir = path.join(parent, "store");
  const runs = await Promise.all(
    Array.from(
      { length: processes },
      (_, worker) =>
        new Promise((resolve) => {
          const child = spawn(process.execPath, [WORKER, storeDir, String(worker), String(count)], {
            stdio: ["ignore", "pipe", "pipe"],
          });
          let out = "";
          let err = "";
          child.stdout.on("data", (d) => (out += d));
          child.stderr.on("data", (d) => (err += d));
          child.on("close", (status) => {
            try {
              resolve(JSON.parse(out));
            } catch {
              resolve({
                crashed: `exit ${status}: ${err.trim().split("\n").slice(-3).join(" | ")}`,
              });
            }
          });
        }),
    ),
  );
  const total = {
    processes,
    externalizes: 0,
    readBack: 0,
    keptRaw: 0,
    threw: 0,
    unreadable: {},
    errors: {},
    crashed: [],
  };
  for (const run of runs) {
    if (run.crashed) {
      total.crashed.push(run.crashed);
      continue;
    }
    for (const key of ["externalizes", "readBack", "keptRaw", "threw"]) total[key] += run[key];
    for (const key of ["unreadable", "errors"])
      for (const [k, v] of Object.entries(run[key])) total[key][k] = (total[key][k] ?? 0) + v;
  }
  const { ToolStub, NodeFsStore } = await import(PKG);
  const listed = await checkListed(
    new ToolStub({ store: new NodeFsStore(storeDir), sessionId: "shared" }),
  );
  total.listedAtEnd = listed.listed;
  total.listedProblems = listed.problems;
  const { strays, temps, orphans } = layout(storeDir, ["shared"]);
  Object.assign(total, { strays, tempFilesLeft: temps, orphanFolders: orphans });
  total.violations = [
    ...total.crashed,
    ...listed.problems,
    ...(total.threw ? [`${total.threw} externalize call(s) threw`] : []),
    ...(total.keptRaw ? [`${total.keptRaw} part(s) kept raw`] : []),
    ...Object.entries(total.unreadable).map(
      ([code, n]) => `${n} ref(s) unreadable right after externalize returned: ${code}`,
    ),
    ...strays.map((s) => `outside the layout: ${s}`),
  ];
  rmSync(parent, { recursive: true, force: true });
  return total;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const options = parseArgs(process.argv.slice(2), { processes: 4, count: 200 });
  const report = await retentionRace(options);
  console.log(JSON.stringify(report, null, 2));
  process.exitCode = report.violations.length ? 1 : 0;
}
