// Command output: database clients' tables (psql aligned, mysql and sqlite box/column modes),
// CLI listings (kubectl get, docker ps, helm list, ls -l, tar -tv, du, find), infrastructure plans
// (terraform/tofu plan and apply), describe/inspect dumps, the Prometheus/OpenMetrics exposition
// format, and package-manager installs and audits. Written from each tool's documented layout.

import {
  FIRST_NAMES,
  MONTHS,
  SERVICES,
  alignColumns,
  boxTable,
  countRe,
  esc,
  factsFor,
  pad2,
  psqlTable,
  rng,
  seedOf,
  join,
} from "../lib.mjs";

const FAMILY = "commands";

function entry(file, format, toolName, mimeType, kind, content, facts) {
  return { file, format, family: FAMILY, toolName, mimeType, kind, content, facts };
}

// --- database clients -------------------------------------------------------------------------

const STATUSES = ["paid", "pending", "refunded", "failed"];

function orderRows(r, n) {
  const rows = [];
  for (let i = 0; i < n; i++) {
    const d = new Date(Date.UTC(2026, 9, 1) + r.int(0, 60 * 86400) * 1000);
    rows.push([
      10000 + i * 7,
      `${r.pick(FIRST_NAMES)}@example.com`,
      r.pick(STATUSES),
      Number((r.int(100, 99999) / 100).toFixed(2)),
      d.toISOString().replace("T", " ").slice(0, 19),
    ]);
  }
  return rows;
}

function psql(file, seed, n) {
  const r = rng(seedOf(file) + seed);
  const rows = orderRows(r, n);
  const header = ["order_id", "customer_email", "status", "total", "created_at"];
  const lines = psqlTable(
    header,
    rows.map((x) => [x[0], x[1], x[2], x[3].toFixed(2), x[4]]),
  );
  const failed = rows.filter((x) => x[2] === "failed").length;
  const F = factsFor(file);
  F.count("rows", `${n} rows`, n, ["rows", "records", "row count"], "^\\s+\\d{5} \\|");
  F.has("columns", "columns include customer_email", ["customer_email"], "customer_email");
  F.has("status-col", "a status column", ["status"], "\\bstatus\\b");
  F.re(
    "created-type",
    "created_at holds timestamps",
    "created_at[^\\n]{0,40}\\b(timestamp|datetime|date|time)",
    "\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d",
  );
  F.re("failed", `${failed} orders failed`, countRe(failed, ["failed"]), "\\| failed +\\|", {
    evidenceCount: failed,
  });
  return entry(file, "psql-aligned", "psql", undefined, "text_table", join(lines), F.list);
}

function mysql(file, seed, n) {
  const r = rng(seedOf(file) + seed);
  const rows = [];
  for (let i = 0; i < n; i++)
    rows.push([
      i + 1,
      `${r.pick(SERVICES)}-${r.hex(4)}`,
      r.pick(["InnoDB", "InnoDB", "InnoDB", "MyISAM"]),
      r.int(0, 900000),
      r.pick(["utf8mb4_0900_ai_ci", "latin1_swedish_ci"]),
    ]);
  const lines = [
    `mysql> SELECT id, table_name, engine, table_rows, table_collation FROM catalog_tables;`,
    ...boxTable(["id", "table_name", "engine", "table_rows", "table_collation"], rows),
    `${n} rows in set (0.01 sec)`,
    "",
  ];
  const myisam = rows.filter((x) => x[2] === "MyISAM").length;
  const F = factsFor(file);
  F.count("rows", `${n} rows`, n, ["rows", "records"], "^\\| +\\d+ \\| ");
  F.has("engine-col", "an engine column", ["engine"], "\\bengine\\b");
  F.re("myisam", `${myisam} MyISAM tables`, countRe(myisam, ["MyISAM"]), "\\| MyISAM \\|", {
    evidenceCount: myisam,
  });
  F.has("collation", "a table_collation column", ["table_collation"], "table_collation");
  return entry(file, "mysql-table", "mysql", "text/plain", "text_table", join(lines), F.list);
}

function sqlite(file, seed, n) {
  const r = rng(seedOf(file) + seed);
  const rows = [];
  for (let i = 0; i < n; i++)
    rows.push([
      String(i + 1),
      r.pick(["sensor-a", "sensor-b", "sensor-c"]),
      (r.int(-200, 400) / 10).toFixed(1),
      `2026-07-${pad2(r.int(1, 28))} ${pad2(r.int(0, 23))}:${pad2(r.int(0, 59))}`,
    ]);
  // sqlite3 with `.headers on` and `.mode column`: names, a dashed rule, values two spaces apart.
  const header = ["id", "sensor", "celsius", "taken_at"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((x) => x[i].length)));
  const fmt = (x) =>
    x
      .map((c, i) => c.padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  const lines = [fmt(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(fmt)];
  const F = factsFor(file);
  F.count("rows", `${n} rows`, n, ["rows", "records", "readings"], "^\\d+ +sensor-");
  F.has("celsius", "a celsius column", ["celsius"], "celsius");
  F.has("sensor", "sensors include sensor-b", ["sensor-b"], "sensor-b");
  F.re(
    "taken",
    "taken_at holds dates",
    "taken_at[^\\n]{0,40}\\b(date|datetime|timestamp|time)",
    "2026-07-\\d\\d",
  );
  return entry(file, "sqlite-column", "sqlite3", undefined, "text_table", join(lines), F.list);
}

// --- CLI listings -----------------------------------------------------------------------------

function kubectlPods(file, seed, n, wide) {
  const r = rng(seedOf(file) + seed);
  const rows = [
    wide
      ? ["NAMESPACE", "NAME", "READY", "STATUS", "RESTARTS", "AGE", "IP", "NODE"]
      : ["NAMESPACE", "NAME", "READY", "STATUS", "RESTARTS", "AGE"],
  ];
  const counts = {};
  for (let i = 0; i < n; i++) {
    const st = r.chance(0.8)
      ? "Running"
      : r.pick(["CrashLoopBackOff", "Pending", "Completed", "ImagePullBackOff"]);
    counts[st] = (counts[st] ?? 0) + 1;
    const ns = r.pick(["default", "payments", "web", "jobs", "monitoring"]);
    const restarts =
      st === "CrashLoopBackOff" ? `${r.int(5, 90)} (${r.int(1, 59)}s ago)` : String(r.int(0, 2));
    const row = [
      ns,
      `${r.pick(SERVICES)}-${r.hex(9)}-${r.word(5)}`,
      st === "Running" ? "1/1" : "0/1",
      st,
      restarts,
      `${r.int(1, 40)}d`,
    ];
    if (wide) row.push(`10.244.${r.int(0, 9)}.${r.int(2, 250)}`, `node-${r.int(1, 6)}`);
    rows.push(row);
  }
  const F = factsFor(file);
  F.count("pods", `${n} pods`, n, ["pods", "rows", "items", "entries"], "^\\S+ +\\S+ +\\d/\\d ");
  F.re("running", `${counts.Running} Running`, countRe(counts.Running, ["Running"]), " Running ", {
    evidenceCount: counts.Running,
  });
  const odd = ["CrashLoopBackOff", "ImagePullBackOff", "Pending", "Completed"].find(
    (s) => counts[s],
  );
  F.has("odd", `some pods ${odd}`, [odd], ` ${odd} `);
  F.has("status-col", "a STATUS column", ["STATUS"], "STATUS");
  F.has("ns", "namespaces include payments", ["payments"], "^payments ");
  return entry(
    file,
    `kubectl-get-pods${wide ? "-wide" : ""}`,
    "kubectl",
    undefined,
    "text_table",
    join(alignColumns(rows)),
    F.list,
  );
}

function kubectlDeployments(file, seed, n) {
  const r = rng(seedOf(file) + seed);
  const rows = [["NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"]];
  let _unavailable = 0;
  for (let i = 0; i < n; i++) {
    const want = r.int(1, 6);
    const have = r.chance(0.85) ? want : r.int(0, want - 1);
    if (have < want) _unavailable++;
    rows.push([
      `${r.pick(SERVICES)}-${r.pick(["api", "worker", "web", "cron"])}-${i}`,
      `${have}/${want}`,
      String(want),
      String(have),
      `${r.int(1, 300)}d`,
    ]);
  }
  const F = factsFor(file);
  F.count(
    "deployments",
    `${n} deployments`,
    n,
    ["deployments", "rows", "items", "entries"],
    "^\\S+ +\\d+/\\d+ ",
  );
  F.has("cols", "columns READY, UP-TO-DATE, AVAILABLE", ["UP-TO-DATE"], "UP-TO-DATE");
  F.has("avail", "an AVAILABLE column", ["AVAILABLE"], "AVAILABLE");
  F.has("first", `the first deployment ${rows[1][0]}`, [rows[1][0]], `^${esc(rows[1][0])} `);
  return entry(
    file,
    "kubectl-get-deployments",
    "kubectl",
    undefined,
    "text_table",
    join(alignColumns(rows)),
    F.list,
  );
}

function dockerPs(file, seed, n) {
  const r = rng(seedOf(file) + seed);
  const rows = [["CONTAINER ID", "IMAGE", "COMMAND", "CREATED", "STATUS", "PORTS", "NAMES"]];
  let exited = 0;
  for (let i = 0; i < n; i++) {
    const up = r.chance(0.75);
    if (!up) exited++;
    const svc = r.pick(SERVICES);
    rows.push([
      r.hex(12),
      `registry.example.com/${svc}:${r.int(1, 9)}.${r.int(0, 20)}.${r.int(0, 9)}`,
      `"${r.pick(["/entrypoint.sh", "node server.js", "python -m app", "/bin/sh -c 'exec…'"])}"`,
      `${r.int(2, 50)} hours ago`,
      up
        ? `Up ${r.int(1, 48)} hours`
        : `Exited (${r.pick([0, 1, 137])}) ${r.int(2, 50)} minutes ago`,
      up && r.chance(0.5) ? `0.0.0.0:${r.int(3000, 9999)}->8080/tcp` : "",
      `${svc}_${i}`,
    ]);
  }
  const F = factsFor(file);
  F.count("containers", `${n} containers`, n, ["containers", "rows", "entries"], "^[0-9a-f]{12} ");
  F.count("exited", `${exited} exited`, exited, ["exited", "Exited"], " Exited \\(");
  F.has("names", "a NAMES column", ["NAMES"], "NAMES");
  F.has(
    "registry",
    "images from registry.example.com",
    ["registry.example.com"],
    "registry\\.example\\.com",
  );
  return entry(
    file,
    "docker-ps",
    "docker",
    undefined,
    "text_table",
    join(alignColumns(rows)),
    F.list,
  );
}

/** helm's table writer: each cell padded to its column's width, then a tab. */
function helmColumns(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  return rows.map((row) =>
    row.map((c, i) => (i === row.length - 1 ? c : `${c.padEnd(widths[i])}\t`)).join(""),
  );
}

function helmList(file, seed, n) {
  const r = rng(seedOf(file) + seed);
  const rows = [["NAME", "NAMESPACE", "REVISION", "UPDATED", "STATUS", "CHART", "APP VERSION"]];
  let failed = 0;
  for (let i = 0; i < n; i++) {
    const st = r.chance(0.85) ? "deployed" : r.pick(["failed", "pending-upgrade"]);
    if (st === "failed") failed++;
    const name = `${r.pick(SERVICES)}-${i}`;
    rows.push([
      name,
      r.pick(["prod", "staging", "platform"]),
      String(r.int(1, 60)),
      `2026-11-${pad2(r.int(1, 28))} ${pad2(r.int(0, 23))}:${pad2(r.int(0, 59))}:${pad2(r.int(0, 59))}.${r.int(100000, 999999)} +0000 UTC`,
      st,
      `${name.split("-")[0]}-${r.int(0, 3)}.${r.int(0, 20)}.${r.int(0, 9)}`,
      `${r.int(1, 4)}.${r.int(0, 30)}.${r.int(0, 9)}`,
    ]);
  }
  const F = factsFor(file);
  F.count(
    "releases",
    `${n} releases`,
    n,
    ["releases", "rows", "entries", "charts"],
    "^\\S+\\s+(prod|staging|platform)\\s",
  );
  F.has("chart-col", "a CHART column", ["CHART"], "CHART");
  if (failed)
    F.re("failed", `${failed} failed releases`, countRe(failed, ["failed"]), "\\tfailed\\s", {
      evidenceCount: failed,
    });
  F.has("status-col", "a STATUS column", ["STATUS"], "STATUS");
  return entry(file, "helm-list", "helm", undefined, "tsv", join(helmColumns(rows)), F.list);
}

function lsLong(file, seed, n) {
  const r = rng(seedOf(file) + seed);
  const lines = [];
  let dirs = 0;
  let blocks = 0;
  const body = [];
  let biggest = ["", 0];
  for (let i = 0; i < n; i++) {
    const isDir = r.chance(0.2);
    if (isDir) dirs++;
    const size = isDir ? 4096 : r.int(0, 9000000);
    blocks += Math.ceil(size / 1024);
    const name = isDir
      ? `${r.word(r.int(3, 9))}`
      : `${r.word(r.int(3, 10))}.${r.pick(["go", "md", "json", "tar.gz", "png", "log"])}`;
    if (size > biggest[1]) biggest = [name, size];
    body.push(
      `${isDir ? "d" : "-"}${r.pick(["rwxr-xr-x", "rw-r--r--", "rw-rw-r--"])} ${r.int(1, 9)} ${r.pick(FIRST_NAMES).padEnd(6)} ${"staff".padEnd(6)} ${String(size).padStart(8)} ${MONTHS[r.int(0, 11)]} ${String(r.int(1, 28)).padStart(2)} ${r.chance(0.5) ? `${pad2(r.int(0, 23))}:${pad2(r.int(0, 59))}` : " 2025"} ${name}`,
    );
  }
  lines.push(`total ${blocks}`, ...body);
  const F = factsFor(file);
  F.count(
    "entries",
    `${n} entries`,
    n,
    ["entries", "files", "items", "rows", "lines"],
    "^[-d][rwx-]{9} ",
  );
  F.count(
    "dirs",
    `${dirs} directories`,
    dirs,
    ["directories", "dirs", "directory"],
    "^d[rwx-]{9} ",
  );
  F.has("largest", `the largest file is ${biggest[0]}`, [biggest[0]], ` ${esc(biggest[0])}$`);
  F.has("total", `total ${blocks}`, [`total ${blocks}`, `total: ${blocks}`], `^total ${blocks}$`);
  return entry(file, "ls-l", "bash", undefined, "text_table", join(lines), F.list);
}

function tarTv(file, seed, n) {
  const r = rng(seedOf(file) + seed);
  const lines = [];
  let dirs = 0;
  const root = `release-${r.int(1, 9)}.${r.int(0, 20)}.${r.int(0, 9)}`;
  const subdirs = ["bin", "lib", "share/doc", "share/man/man1", "etc"];
  for (let i = 0; i < n; i++) {
    const isDir = i < subdirs.length + 1;
    const path =
      i === 0
        ? `${root}/`
        : isDir
          ? `${root}/${subdirs[i - 1]}/`
          : `${root}/${r.pick(subdirs)}/${r.word(r.int(3, 10))}${r.pick(["", ".so.1", ".1", ".conf", ".md"])}`;
    if (isDir) dirs++;
    lines.push(
      `${isDir ? "d" : "-"}${isDir ? "rwxr-xr-x" : r.pick(["rwxr-xr-x", "rw-r--r--"])} builder/builder ${String(isDir ? 0 : r.int(100, 4000000)).padStart(9)} 2026-10-${pad2(r.int(1, 30))} ${pad2(r.int(0, 23))}:${pad2(r.int(0, 59))} ${path}`,
    );
  }
  const F = factsFor(file);
  F.count(
    "entries",
    `${n} entries`,
    n,
    ["entries", "files", "members", "items", "lines"],
    "^[-d][rwx-]{9} builder/builder ",
  );
  F.has("root", `the archive's root folder ${root}`, [root], `${esc(root)}/$`);
  F.has("owner", "owner builder/builder", ["builder/builder", "builder"], "builder/builder");
  F.count("dirs", `${dirs} directories`, dirs, ["directories", "dirs"], "^d[rwx-]{9} ");
  return entry(file, "tar-tv", "bash", undefined, "text_table", join(lines), F.list);
}

function du(file, seed, n) {
  const r = rng(seedOf(file) + seed);
  const entries = [];
  for (let i = 0; i < n; i++)
    entries.push([
      r.int(4, 9000000),
      `./${r.pick(["node_modules", "src", "vendor", "assets", "build"])}/${r.word(r.int(3, 9))}${r.chance(0.3) ? `/${r.word(4)}` : ""}`,
    ]);
  const total = entries.reduce((s, e) => s + e[0], 0);
  entries.push([total, "."]);
  const biggest = entries.slice(0, -1).reduce((a, b) => (b[0] > a[0] ? b : a));
  const F = factsFor(file);
  F.count(
    "entries",
    `${n + 1} entries`,
    n + 1,
    ["entries", "rows", "lines", "paths", "records"],
    "^\\d+\t",
  );
  F.has("total", `total ${total} KB for .`, [String(total)], `^${total}\t\\.$`);
  F.has("biggest", `the biggest is ${biggest[1]}`, [biggest[1].slice(2)], `\t${esc(biggest[1])}$`);
  return entry(
    file,
    "du",
    "bash",
    undefined,
    "tsv",
    join(entries.map((e) => `${e[0]}\t${e[1]}`)),
    F.list,
  );
}

function find(file, seed, n) {
  const r = rng(seedOf(file) + seed);
  const lines = [];
  const ext = {};
  for (let i = 0; i < n; i++) {
    const e = r.pick(["ts", "ts", "tsx", "json", "md", "css"]);
    ext[e] = (ext[e] ?? 0) + 1;
    lines.push(
      `./${r.pick(["src", "packages/ui/src", "packages/api/src", "docs"])}/${r.word(r.int(3, 8))}/${r.word(r.int(3, 10))}.${e}`,
    );
  }
  const F = factsFor(file);
  F.count("paths", `${n} paths`, n, ["paths", "files", "lines", "entries", "results"], "^\\./");
  F.has("pkg", "paths under packages/ui/src", ["packages/ui/src"], "packages/ui/src");
  F.has("first", `the first path ${lines[0]}`, [lines[0].slice(2)], `^${esc(lines[0])}$`);
  return entry(file, "find", "bash", undefined, "text", join(lines), F.list);
}

// --- plans, describe, inspect -----------------------------------------------------------------

function terraformPlan(file, seed, n, tool, apply) {
  const r = rng(seedOf(file) + seed);
  const out = [];
  if (!apply) {
    out.push(
      `${tool === "tofu" ? "OpenTofu" : "Terraform"} used the selected providers to generate the following execution plan. Resource actions are indicated with the following symbols:`,
      "  + create",
      "  ~ update in-place",
      "  - destroy",
      "-/+ destroy and then create replacement",
      "",
      `${tool === "tofu" ? "OpenTofu" : "Terraform"} will perform the following actions:`,
      "",
    );
  }
  const counts = { add: 0, change: 0, destroy: 0 };
  const names = [];
  for (let i = 0; i < n; i++) {
    const type = r.pick([
      "aws_s3_bucket",
      "aws_iam_role_policy",
      "aws_security_group_rule",
      "aws_lambda_function",
      "aws_cloudwatch_log_group",
    ]);
    const name = `${type}.${r.pick(SERVICES)}_${i}`;
    names.push(name);
    const act = r.chance(0.6) ? "create" : r.chance(0.7) ? "update" : "destroy";
    if (act === "create") counts.add++;
    else if (act === "update") counts.change++;
    else counts.destroy++;
    if (apply) {
      const verb = {
        create: ["Creating...", `Creation complete after ${r.int(1, 40)}s [id=${r.hex(12)}]`],
        update: ["Modifying...", `Modifications complete after ${r.int(1, 9)}s [id=${r.hex(12)}]`],
        destroy: ["Destroying...", `Destruction complete after ${r.int(1, 9)}s`],
      }[act];
      out.push(`${name}: ${verb[0]}`, `${name}: ${verb[1]}`);
      continue;
    }
    const sym = { create: "+", update: "~", destroy: "-" }[act];
    out.push(
      `  # ${name} will be ${act === "create" ? "created" : act === "update" ? "updated in-place" : "destroyed"}`,
    );
    out.push(`  ${sym} resource "${type}" "${name.split(".")[1]}" {`);
    for (let k = 0; k < r.int(3, 8); k++) {
      const key = r.pick([
        "arn",
        "name",
        "tags",
        "timeout",
        "memory_size",
        "retention_in_days",
        "policy",
        "bucket",
      ]);
      out.push(
        act === "update"
          ? `      ~ ${key.padEnd(18)} = "${r.word(6)}" -> "${r.word(6)}"`
          : `      ${sym} ${key.padEnd(18)} = ${r.chance(0.5) ? "(known after apply)" : `"${r.word(8)}"`}`,
      );
    }
    out.push("    }", "");
  }
  if (apply)
    out.push(
      "",
      `Apply complete! Resources: ${counts.add} added, ${counts.change} changed, ${counts.destroy} destroyed.`,
    );
  else
    out.push(
      `Plan: ${counts.add} to add, ${counts.change} to change, ${counts.destroy} to destroy.`,
    );
  const F = factsFor(file);
  if (apply) {
    F.re(
      "added",
      `${counts.add} added`,
      countRe(counts.add, ["added", "add", "created"]),
      `Resources: ${counts.add} added`,
    );
    F.re(
      "destroyed",
      `${counts.destroy} destroyed`,
      countRe(counts.destroy, ["destroyed", "destroy"]),
      `${counts.destroy} destroyed\\.`,
    );
    F.has("complete", "Apply complete", ["Apply complete"], "^Apply complete!");
  } else {
    F.re(
      "add",
      `${counts.add} to add`,
      countRe(counts.add, ["to add", "add", "create", "created"]),
      `Plan: ${counts.add} to add`,
    );
    F.re(
      "change",
      `${counts.change} to change`,
      countRe(counts.change, ["to change", "change", "update", "updated"]),
      `${counts.change} to change`,
    );
    F.re(
      "destroy",
      `${counts.destroy} to destroy`,
      countRe(counts.destroy, ["to destroy", "destroy", "destroyed"]),
      `${counts.destroy} to destroy\\.`,
    );
  }
  F.has("resource", `resources include ${names[0]}`, [names[0]], esc(names[0]));
  return entry(
    file,
    `${tool}-${apply ? "apply" : "plan"}`,
    tool === "tofu" ? "tofu" : "terraform",
    undefined,
    "text",
    join(out),
    F.list,
  );
}

function kubectlDescribe(file, seed, events) {
  const r = rng(seedOf(file) + seed);
  const pod = `checkout-api-${r.hex(9)}-${r.word(5)}`;
  const out = [
    `Name:             ${pod}`,
    "Namespace:        payments",
    "Priority:         0",
    "Service Account:  checkout",
    `Node:             node-4/10.0.1.${r.int(2, 250)}`,
    "Start Time:       Mon, 30 Nov 2026 09:12:44 +0000",
    "Labels:           app=checkout-api",
    "                  pod-template-hash=7d9c6",
    "Annotations:      kubectl.kubernetes.io/restartedAt: 2026-11-30T09:12:40Z",
    "Status:           Running",
    `IP:               10.244.3.${r.int(2, 250)}`,
    "Controlled By:  ReplicaSet/checkout-api-7d9c6",
    "Containers:",
    "  api:",
    `    Container ID:   containerd://${r.hex(64)}`,
    "    Image:          registry.example.com/checkout-api:4.12.0",
    "    Port:           8080/TCP",
    "    State:          Waiting",
    "      Reason:       CrashLoopBackOff",
    "    Last State:     Terminated",
    "      Reason:       OOMKilled",
    "      Exit Code:    137",
    "    Ready:          False",
    "    Restart Count:  23",
    "    Limits:",
    "      memory:  512Mi",
    "    Requests:",
    "      cpu:     250m",
    "      memory:  256Mi",
    "    Environment:",
  ];
  for (let i = 0; i < 30; i++)
    out.push(`      ${r.word(6).toUpperCase()}_${r.word(4).toUpperCase()}:  ${r.word(10)}`);
  out.push(
    "Conditions:",
    "  Type              Status",
    "  Initialized       True",
    "  Ready             False",
    "  ContainersReady   False",
    "  PodScheduled      True",
    "Volumes:",
    "  kube-api-access-x2x9q:",
    "    Type:                    Projected (a volume that contains injected data from multiple sources)",
    "QoS Class:                   Burstable",
    "Events:",
    "  Type     Reason     Age                   From     Message",
    "  ----     ------     ----                  ----     -------",
  );
  let _backoffs = 0;
  for (let i = 0; i < events; i++) {
    const ev = r.pick([
      ["Warning", "BackOff", "Back-off restarting failed container api in pod"],
      [
        "Normal",
        "Pulled",
        'Container image "registry.example.com/checkout-api:4.12.0" already present on machine',
      ],
      [
        "Warning",
        "Unhealthy",
        'Liveness probe failed: Get "http://10.244.3.9:8080/healthz": context deadline exceeded',
      ],
    ]);
    if (ev[1] === "BackOff") _backoffs++;
    out.push(
      `  ${ev[0].padEnd(8)} ${ev[1].padEnd(10)} ${`${r.int(2, 59)}m (x${r.int(2, 300)} over 3h)`.padEnd(21)} kubelet  ${ev[2]}`,
    );
  }
  const F = factsFor(file);
  F.has("name", `pod ${pod}`, [pod], esc(pod));
  F.has("crash", "waiting in CrashLoopBackOff", ["CrashLoopBackOff"], "CrashLoopBackOff");
  F.has("oom", "last terminated OOMKilled", ["OOMKilled"], "OOMKilled");
  F.re("restarts", "restart count 23", "restart[^\\n\\d]{0,20}\\b23\\b", "Restart Count:  23");
  F.has("image", "image checkout-api:4.12.0", ["checkout-api:4.12.0"], "checkout-api:4\\.12\\.0");
  return entry(file, "kubectl-describe", "kubectl", undefined, "text", join(out), F.list);
}

function dockerInspect(file, seed) {
  const r = rng(seedOf(file) + seed);
  const list = [];
  const names = [];
  for (let i = 0; i < 6; i++) {
    const name = `/${r.pick(SERVICES)}_${i}`;
    names.push(name);
    list.push({
      Id: r.hex(64),
      Created: `2026-11-${pad2(r.int(1, 28))}T10:00:00.${r.int(100000000, 999999999)}Z`,
      Path: "/entrypoint.sh",
      Args: ["serve", "--port", "8080"],
      State: {
        Status: i === 2 ? "exited" : "running",
        Running: i !== 2,
        Paused: false,
        Restarting: false,
        OOMKilled: i === 2,
        Dead: false,
        Pid: i === 2 ? 0 : r.int(1000, 9000),
        ExitCode: i === 2 ? 137 : 0,
        Error: "",
        StartedAt: "2026-11-30T08:00:00Z",
        FinishedAt: "0001-01-01T00:00:00Z",
      },
      Image: `sha256:${r.hex(64)}`,
      Name: name,
      RestartCount: r.int(0, 5),
      HostConfig: {
        NetworkMode: "bridge",
        RestartPolicy: { Name: "unless-stopped", MaximumRetryCount: 0 },
        Memory: 536870912,
        NanoCpus: 500000000,
        PortBindings: { "8080/tcp": [{ HostIp: "", HostPort: String(8000 + i) }] },
      },
      Config: {
        Hostname: r.hex(12),
        Env: Array.from({ length: 8 }, () => `${r.word(5).toUpperCase()}=${r.word(8)}`),
        Image: `registry.example.com${name}:2.${i}.0`,
        Labels: {
          "com.docker.compose.project": "shop",
          "com.docker.compose.service": name.slice(1),
        },
      },
      NetworkSettings: {
        Networks: {
          shop_default: {
            IPAddress: `172.18.0.${i + 2}`,
            Gateway: "172.18.0.1",
            MacAddress: `02:42:ac:12:00:0${i + 2}`,
          },
        },
      },
    });
  }
  const F = factsFor(file);
  F.count(
    "containers",
    "6 containers",
    6,
    ["containers", "items", "elements", "objects", "entries", "array"],
    '"Path": "/entrypoint\\.sh"',
  );
  F.has("state", "records carry State", ["State"], '"State"');
  F.has("exited", "one container exited", ["exited"], '"Status": "exited"');
  F.has("name", `names include ${names[0]}`, [names[0].slice(1)], esc(names[0]));
  return entry(
    file,
    "docker-inspect",
    "docker",
    "application/json",
    "json",
    `${JSON.stringify(list, null, 4)}\n`,
    F.list,
  );
}

function helmStatus(file, seed) {
  const r = rng(seedOf(file) + seed);
  const out = [
    "NAME: checkout",
    "LAST DEPLOYED: Mon Nov 30 09:12:40 2026",
    "NAMESPACE: payments",
    "STATUS: failed",
    "REVISION: 42",
    "TEST SUITE: None",
    'DESCRIPTION: Upgrade "checkout" failed: context deadline exceeded',
    "NOTES:",
    "1. Get the application URL by running these commands:",
  ];
  for (let i = 0; i < 70; i++)
    out.push(
      `  ${r.pick(['export POD_NAME=$(kubectl get pods --namespace payments -l "app.kubernetes.io/name=checkout" -o jsonpath="{.items[0].metadata.name}")', "kubectl --namespace payments port-forward $POD_NAME 8080:$CONTAINER_PORT", 'echo "Visit http://127.0.0.1:8080 to use your application"', `# ${r.word(8)} ${r.word(5)} ${r.word(7)} ${r.word(4)}`])}`,
    );
  const F = factsFor(file);
  F.has("status", "status failed", ["failed"], "^STATUS: failed");
  F.re("revision", "revision 42", "revision[^\\n\\d]{0,10}\\b42\\b", "^REVISION: 42");
  F.has(
    "why",
    "context deadline exceeded",
    ["context deadline exceeded"],
    "context deadline exceeded",
  );
  F.has("ns", "namespace payments", ["payments"], "^NAMESPACE: payments");
  return entry(file, "helm-status", "helm", undefined, "text", join(out), F.list);
}

// --- Prometheus / OpenMetrics -----------------------------------------------------------------

function prometheus(file, seed, openMetrics) {
  const r = rng(seedOf(file) + seed);
  const out = [];
  const families = [
    ["http_requests_total", "counter", "Total HTTP requests by method, route and status."],
    ["http_request_duration_seconds", "histogram", "HTTP request latency."],
    ["process_resident_memory_bytes", "gauge", "Resident memory size in bytes."],
    ["db_pool_connections", "gauge", "Connections in the database pool by state."],
    ["jobs_processed_total", "counter", "Background jobs processed by queue and outcome."],
    ["go_goroutines", "gauge", "Number of goroutines that currently exist."],
  ];
  let series = 0;
  for (const [name, type, help] of families) {
    const base = openMetrics && type === "counter" ? name.replace(/_total$/, "") : name;
    out.push(`# HELP ${base} ${help}`, `# TYPE ${base} ${type}`);
    if (type === "histogram") {
      for (const route of ["/api/orders", "/api/cart", "/healthz"]) {
        let acc = 0;
        for (const le of [
          "0.005",
          "0.01",
          "0.025",
          "0.05",
          "0.1",
          "0.25",
          "0.5",
          "1",
          "2.5",
          "5",
          "+Inf",
        ]) {
          acc += r.int(0, 400);
          out.push(`${name}_bucket{route="${route}",le="${le}"} ${acc}`);
          series++;
        }
        out.push(
          `${name}_sum{route="${route}"} ${(acc * 0.07).toFixed(3)}`,
          `${name}_count{route="${route}"} ${acc}`,
        );
        series += 2;
      }
    } else if (name === "http_requests_total") {
      for (const m of ["GET", "POST", "DELETE"])
        for (const code of ["200", "404", "500"])
          for (const route of ["/api/orders", "/api/cart", "/api/users", "/healthz"]) {
            out.push(`${name}{method="${m}",route="${route}",code="${code}"} ${r.int(0, 900000)}`);
            series++;
          }
    } else if (name === "jobs_processed_total") {
      for (const q of ["emails", "exports", "webhooks", "billing"])
        for (const o of ["ok", "retry", "dead"]) {
          out.push(`${name}{queue="${q}",outcome="${o}"} ${r.int(0, 50000)}`);
          series++;
        }
    } else if (name === "db_pool_connections") {
      for (const s of ["idle", "in_use", "max"]) {
        out.push(`${name}{state="${s}"} ${r.int(0, 50)}`);
        series++;
      }
    } else {
      out.push(
        `${name} ${type === "gauge" && name.includes("bytes") ? `${r.int(100, 900)}${r.int(100000, 999999)}` : r.int(10, 500)}`,
      );
      series++;
    }
  }
  if (openMetrics) out.push("# EOF");
  const F = factsFor(file);
  F.count(
    "families",
    "6 metric families",
    6,
    ["metrics", "metric families", "families", "HELP", "TYPE"],
    "^# TYPE ",
  );
  F.has(
    "histogram",
    "http_request_duration_seconds is a histogram",
    ["http_request_duration_seconds"],
    "^# TYPE http_request_duration_seconds histogram",
  );
  F.has(
    "counter",
    "jobs_processed is a counter",
    ["jobs_processed"],
    "^# TYPE jobs_processed(_total)? counter",
  );
  F.re(
    "types",
    "types counter, gauge and histogram",
    "\\bcounter\\b[^\\n]{0,80}\\bgauge\\b|\\bgauge\\b[^\\n]{0,80}\\bcounter\\b",
    "^# TYPE \\S+ gauge",
  );
  F.re(
    "series",
    `${series} samples`,
    countRe(series, ["samples", "series", "lines", "values", "time series"]),
    "^[a-z_]+(\\{[^}]*\\})? [\\d.]+$",
    { evidenceCount: series },
  );
  return entry(
    file,
    openMetrics ? "openmetrics" : "prometheus-exposition",
    "curl",
    openMetrics
      ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
      : "text/plain; version=0.0.4; charset=utf-8",
    "metrics",
    join(out),
    F.list,
  );
}

// --- package managers -------------------------------------------------------------------------

function npmInstall(file, seed) {
  const r = rng(seedOf(file) + seed);
  const out = [];
  for (let i = 0; i < 40; i++)
    out.push(
      `npm warn deprecated ${r.pick(["inflight@1.0.6", "glob@7.2.3", "rimraf@3.0.2", "@humanwhocodes/config-array@0.11.14", "abab@2.0.6"])}: ${r.pick(["This module is not supported, and leaks memory.", "Glob versions prior to v9 are no longer supported", "Use @eslint/config-array instead"])}`,
    );
  out.push(
    "",
    "added 1287 packages, and audited 1288 packages in 41s",
    "",
    "214 packages are looking for funding",
    "  run `npm fund` for details",
    "",
    "9 vulnerabilities (2 low, 4 moderate, 3 high)",
    "",
    "To address issues that do not require attention, run:",
    "  npm audit fix",
    "",
    "To address all issues (including breaking changes), run:",
    "  npm audit fix --force",
    "",
    "Run `npm audit` for details.",
  );
  const F = factsFor(file);
  F.re(
    "added",
    "1287 packages added",
    countRe(1287, ["packages", "added"]),
    "^added 1287 packages",
  );
  F.re("vulns", "9 vulnerabilities", countRe(9, ["vulnerabilities"]), "^9 vulnerabilities");
  F.has("high", "3 high", ["3 high"], "3 high");
  F.re(
    "deprecated",
    "40 deprecation warnings",
    countRe(40, ["deprecated", "warnings", "warn"]),
    "^npm warn deprecated",
    { evidenceCount: 40 },
  );
  return entry(file, "npm-install", "npm", undefined, "text", join(out), F.list);
}

function npmAudit(file, seed) {
  const r = rng(seedOf(file) + seed);
  const out = ["# npm audit report", ""];
  const pkgs = [
    "semver",
    "braces",
    "micromatch",
    "ws",
    "cross-spawn",
    "path-to-regexp",
    "cookie",
    "body-parser",
    "express",
    "send",
    "serve-static",
    "tar",
  ];
  const sev = { low: 0, moderate: 0, high: 0, critical: 0 };
  for (const p of pkgs) {
    const s = r.pick(["low", "moderate", "high", "high", "critical"]);
    sev[s]++;
    out.push(
      `${p}  <${r.int(1, 7)}.${r.int(0, 9)}.${r.int(0, 9)}`,
      `Severity: ${s}`,
      `${r.pick(["Regular Expression Denial of Service", "Uncontrolled resource consumption", "Prototype pollution", "Path traversal"])} - https://github.com/advisories/GHSA-${r.word(4)}-${r.word(4)}-${r.word(4)}`,
      "fix available via `npm audit fix`",
      `node_modules/${p}`,
    );
    for (let k = 0; k < r.int(2, 6); k++)
      out.push(
        `  ${r.pick(pkgs)}  ${r.int(1, 4)}.0.0 - ${r.int(4, 9)}.${r.int(0, 9)}.${r.int(0, 9)}`,
        `  Depends on vulnerable versions of ${p}`,
        `  node_modules/${r.word(6)}`,
      );
    out.push("");
  }
  const total = pkgs.length;
  out.push(
    `${total} vulnerabilities (${sev.low} low, ${sev.moderate} moderate, ${sev.high} high, ${sev.critical} critical)`,
    "",
    "To address all issues, run:",
    "  npm audit fix",
  );
  const F = factsFor(file);
  F.re(
    "total",
    `${total} vulnerabilities`,
    countRe(total, ["vulnerabilities"]),
    `^${total} vulnerabilities`,
  );
  F.re(
    "critical",
    `${sev.critical} critical`,
    countRe(sev.critical, ["critical"]),
    `${sev.critical} critical\\)`,
  );
  F.has("pkg", "semver is vulnerable", ["semver"], "^semver ");
  F.has("fix", "fix with npm audit fix", ["npm audit fix"], "npm audit fix");
  return entry(file, "npm-audit", "npm", undefined, "text", join(out), F.list);
}

function pipInstall(file, seed) {
  const r = rng(seedOf(file) + seed);
  const out = [];
  const pkgs = [
    "requests",
    "urllib3",
    "idna",
    "certifi",
    "charset-normalizer",
    "numpy",
    "pandas",
    "python-dateutil",
    "pytz",
    "tzdata",
    "six",
    "pydantic",
    "pydantic-core",
    "typing-extensions",
    "annotated-types",
    "sqlalchemy",
    "greenlet",
    "psycopg2",
  ];
  for (const p of pkgs) {
    const v = `${r.int(1, 3)}.${r.int(0, 30)}.${r.int(0, 9)}`;
    out.push(`Collecting ${p}${r.chance(0.3) ? `>=${v}` : ""}`);
    out.push(
      `  Downloading ${p.replace(/-/g, "_")}-${v}-${r.pick(["py3-none-any", "cp312-cp312-manylinux_2_17_x86_64.manylinux2014_x86_64"])}.whl.metadata (${r.int(2, 60)} kB)`,
    );
    out.push(`Downloading ${p.replace(/-/g, "_")}-${v}-py3-none-any.whl (${r.int(30, 900)} kB)`);
    out.push(
      `   ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ ${r.int(30, 900)}.0/${r.int(30, 900)}.0 kB ${r.int(1, 40)}.${r.int(0, 9)} MB/s eta 0:00:00`,
    );
  }
  out.push(
    "Building wheels for collected packages: psycopg2",
    "  Building wheel for psycopg2 (pyproject.toml) ... error",
    "  error: subprocess-exited-with-error",
    "  ",
    "  × Building wheel for psycopg2 (pyproject.toml) did not run successfully.",
    "  │ exit code: 1",
    "  ╰─> [12 lines of output]",
    "      running bdist_wheel",
    "      Error: pg_config executable not found.",
    "      ",
    "      pg_config is required to build psycopg2 from source.",
    "      [end of output]",
    "  ",
    "  note: This error originates from a subprocess, and is likely not a problem with pip.",
    "  ERROR: Failed building wheel for psycopg2",
    "Failed to build psycopg2",
    "ERROR: ERROR: Failed to build installable wheels for some pyproject.toml based projects (psycopg2)",
  );
  const F = factsFor(file);
  F.has("failed", "psycopg2 failed to build", ["psycopg2"], "Failed to build psycopg2");
  F.has(
    "pgconfig",
    "pg_config executable not found",
    ["pg_config"],
    "pg_config executable not found",
  );
  F.re(
    "collected",
    `${pkgs.length} packages collected`,
    countRe(pkgs.length, ["packages", "collected", "collecting"]),
    "^Collecting ",
    { evidenceCount: pkgs.length },
  );
  return entry(file, "pip-install", "pip", undefined, "text", join(out), F.list);
}

export function commands() {
  return [
    psql("psql-orders.txt", 1, 180),
    psql("psql-orders-small.txt", 2, 45),
    psql("psql-orders-large.txt", 35, 400),
    mysql("mysql-tables.txt", 3, 160),
    mysql("mysql-tables-small.txt", 4, 40),
    sqlite("sqlite-readings.txt", 5, 300),
    sqlite("sqlite-readings-small.txt", 6, 70),
    kubectlPods("kubectl-pods.txt", 7, 160, false),
    kubectlPods("kubectl-pods-wide.txt", 8, 120, true),
    kubectlPods("kubectl-pods-small.txt", 34, 30, false),
    kubectlDeployments("kubectl-deployments.txt", 9, 80),
    dockerPs("docker-ps.txt", 10, 90),
    dockerPs("docker-ps-small.txt", 11, 25),
    dockerPs("docker-ps-large.txt", 38, 200),
    helmList("helm-list.txt", 12, 60),
    lsLong("ls-l.txt", 13, 240),
    lsLong("ls-l-small.txt", 14, 50),
    tarTv("tar-tv.txt", 15, 220),
    tarTv("tar-tv-small.txt", 16, 50),
    du("du.txt", 17, 400),
    du("du-small.txt", 18, 90),
    du("du-deps.txt", 37, 220),
    find("find-src.txt", 19, 600),
    find("find-small.txt", 20, 90),
    terraformPlan("terraform-plan.txt", 21, 40, "terraform", false),
    terraformPlan("terraform-plan-small.txt", 22, 12, "terraform", false),
    terraformPlan("tofu-plan.txt", 23, 25, "tofu", false),
    terraformPlan("terraform-apply.txt", 24, 70, "terraform", true),
    terraformPlan("tofu-apply.txt", 36, 30, "tofu", true),
    kubectlDescribe("kubectl-describe-pod.txt", 25, 40),
    kubectlDescribe("kubectl-describe-pod-2.txt", 26, 12),
    dockerInspect("docker-inspect.json", 27),
    helmStatus("helm-status.txt", 28),
    prometheus("metrics.prom", 29, false),
    prometheus("metrics-openmetrics.txt", 30, true),
    npmInstall("npm-install.txt", 31),
    npmAudit("npm-audit.txt", 32),
    pipInstall("pip-install.txt", 33),
  ];
}
