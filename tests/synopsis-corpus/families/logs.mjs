// Logs: line grammars written from each format's documentation (RFC 3164/5424, Apache mod_log_config
// and ErrorLogFormat, nginx log_format/error_log, logcat -v threadtime, journalctl -o short, klog,
// Spring Boot/logback/log4j2 patterns, Python logging's default formats, Go's log and log/slog).
// Every output's facts come from the events the generator placed: level counts, the first ERROR
// line and its message, the exception a stack trace names, the programs and units involved.

import {
  MONTHS,
  clock,
  countRe,
  esc,
  factsFor,
  hms,
  iso,
  pad2,
  pad3,
  rng,
  seedOf,
  ymd,
} from "../lib.mjs";

const FAMILY = "logs";

/** Output lines with their 1-based numbers, and the first line and count of each level. */
class LogText {
  constructor() {
    this.lines = [];
    this.first = {};
    this.count = {};
    this.firstMessage = {};
  }
  push(line, level, message) {
    this.lines.push(line);
    if (level) {
      this.count[level] = (this.count[level] ?? 0) + 1;
      if (!this.first[level]) {
        this.first[level] = this.lines.length;
        this.firstMessage[level] = message;
      }
    }
  }
  more(lines) {
    for (const l of lines) this.lines.push(l);
  }
  get text() {
    return `${this.lines.join("\n")}\n`;
  }
}

const INFO_MESSAGES = [
  (r) =>
    `request completed method=GET path=/api/v2/orders/${r.int(1000, 9999)} status=200 duration_ms=${r.int(3, 180)}`,
  (r) => `cache warmed keys=${r.int(100, 5000)} took_ms=${r.int(10, 900)}`,
  (r) => `scheduled job reconcile-invoices finished in ${r.int(40, 4000)}ms`,
  (r) => `accepted connection from 10.0.${r.int(0, 20)}.${r.int(2, 250)}`,
  (r) => `user session refreshed user_id=${r.int(10000, 99999)}`,
  (r) => `published ${r.int(1, 40)} events to topic orders.created`,
  (r) => `health check ok upstream=inventory-api latency_ms=${r.int(1, 60)}`,
  (r) => `flushed ${r.int(10, 900)} metrics to collector`,
];
const WARN_MESSAGES = [
  (r) =>
    `slow query took ${r.int(1200, 9000)}ms: SELECT id, total FROM invoices WHERE customer_id = $1`,
  (r) => `retrying request to payments-api attempt=${r.int(2, 4)} backoff_ms=${r.int(100, 2000)}`,
  () => "connection pool usage above 90% (45/50)",
  () => "deprecated configuration key server.timeout used; use server.request-timeout",
];
const DEBUG_MESSAGES = [
  (r) => `loaded feature flags count=${r.int(10, 80)}`,
  (r) => `span exported trace_id=${r.hex(16)}`,
  (r) => `parsed request body bytes=${r.int(50, 9000)}`,
];
const ERROR_MESSAGES = [
  "failed to charge card: upstream timeout after 30000ms",
  "ledger snapshot checksum mismatch for partition 7",
  "could not acquire advisory lock reconcile_invoices",
  "message handler crashed on topic orders.created",
  "TLS handshake with inventory-api failed: certificate has expired",
  "write to object store bucket exports-eu rejected: AccessDenied",
];

/**
 * A plan of `n` levelled events: mostly INFO, some WARN/DEBUG, `errors` ERROR events none of which
 * falls in the first tenth. The first ERROR carries `firstError`; later ones repeat the pool.
 */
function planLevels(r, n, errors, { debug = true, warns = Math.round(n / 12) } = {}) {
  const levels = [];
  for (let i = 0; i < n; i++) levels.push(debug && r.chance(0.15) ? "DEBUG" : "INFO");
  const free = () => {
    for (;;) {
      const i = r.int(Math.ceil(n / 10), n - 1);
      if (levels[i] === "INFO" || levels[i] === "DEBUG") return i;
    }
  };
  for (let i = 0; i < warns; i++) levels[free()] = "WARN";
  for (let i = 0; i < errors; i++) levels[free()] = "ERROR";
  return levels;
}

function messageFor(r, level, firstError, state) {
  if (level === "ERROR") {
    if (!state.sawError) {
      state.sawError = true;
      return firstError;
    }
    return r.pick(ERROR_MESSAGES.filter((m) => m !== firstError));
  }
  const pool =
    level === "WARN" ? WARN_MESSAGES : level === "DEBUG" ? DEBUG_MESSAGES : INFO_MESSAGES;
  return r.pick(pool)(r);
}

/** The facts every levelled log gets: ERROR/WARN counts, the first ERROR's line and message. */
function levelFacts(
  F,
  log,
  {
    errorEvidence,
    warnEvidence,
    errorWords = ["error", "errors"],
    warnWords = ["warn", "warning", "warnings"],
  },
) {
  F.count("errors", `${log.count.ERROR} ERROR entries`, log.count.ERROR, errorWords, errorEvidence);
  if (warnEvidence && log.count.WARN)
    F.count("warns", `${log.count.WARN} WARN entries`, log.count.WARN, warnWords, warnEvidence);
  F.line(
    "first-error-line",
    `the first ERROR is on line ${log.first.ERROR}`,
    log.first.ERROR,
    errorEvidence,
  );
  const msg = log.firstMessage.ERROR;
  const key = msg.split(":")[0].split(" ").slice(0, 5).join(" ");
  F.has("first-error", `the first ERROR: ${msg}`, [key], esc(key));
}

function entry(file, format, toolName, mimeType, content, facts, kind = "log") {
  return { file, format, family: FAMILY, toolName, mimeType, kind, content, facts };
}

// --- Spring Boot / logback / log4j2 ----------------------------------------------------------

const JAVA_LOGGERS = [
  "c.a.billing.InvoiceService",
  "o.s.web.servlet.DispatcherServlet",
  "c.a.billing.PaymentClient",
  "o.h.engine.jdbc.spi.SqlExceptionHelper",
  "c.a.billing.LedgerJob",
  "com.zaxxer.hikari.pool.HikariPool",
];

function javaStack(r, exception, cause) {
  const frames = [];
  frames.push(`${exception}`);
  const n = r.int(6, 12);
  for (let i = 0; i < n; i++)
    frames.push(
      `\tat com.acme.billing.${r.pick(["InvoiceService", "PaymentClient", "LedgerJob", "RetryTemplate"])}.${r.pick(["charge", "apply", "run", "execute", "post"])}(${r.pick(["InvoiceService", "PaymentClient", "LedgerJob"])}.java:${r.int(30, 400)})`,
    );
  frames.push(`\tat java.base/java.lang.Thread.run(Thread.java:1583)`);
  if (cause) {
    frames.push(`Caused by: ${cause}`);
    frames.push(
      `\tat org.postgresql.core.v3.ConnectionFactoryImpl.openConnectionImpl(ConnectionFactoryImpl.java:${r.int(200, 400)})`,
    );
    frames.push(`\t... ${r.int(10, 40)} common frames omitted`);
  }
  return frames;
}

function springBoot(file, seed, n, firstError, exception, cause, mime) {
  const r = rng(seedOf(file) + seed);
  const next = clock(r, Date.UTC(2026, 10, 3, 8, 0, 0), 4000);
  const log = new LogText();
  const levels = planLevels(r, n, r.int(4, 9));
  const state = {};
  const pid = r.int(1000, 60000);
  let exceptionLine = 0;
  for (const level of levels) {
    const t = next();
    const stamp = `${iso(t)
      .replace("Z", "+00:00")
      .replace(/\.(\d{3})/, ".$1")}`;
    const msg = messageFor(r, level, firstError, state);
    const thread = r.pick([
      "main",
      "http-nio-8080-exec-3",
      "http-nio-8080-exec-7",
      "scheduling-1",
      "task-2",
    ]);
    log.push(
      `${stamp}  ${level.padStart(5)} ${pid} --- [billing] [${thread.padStart(15).slice(-15)}] ${r.pick(JAVA_LOGGERS).padEnd(40)} : ${msg}`,
      level,
      msg,
    );
    if (level === "ERROR" && !exceptionLine) {
      exceptionLine = log.lines.length + 1;
      log.more(javaStack(r, exception, cause));
    }
  }
  const F = factsFor(file);
  levelFacts(F, log, {
    errorEvidence: "^\\S+ +ERROR \\d+ ---",
    warnEvidence: "^\\S+ +WARN \\d+ ---",
  });
  const exName = exception.split(":")[0].split(".").pop();
  F.has(
    "exception",
    `the stack trace's exception ${exName}`,
    [exName],
    esc(exception.split(":")[0]),
  );
  if (cause) {
    const causeName = cause.split(":")[0].split(".").pop();
    F.has(
      "cause",
      `root cause ${causeName}`,
      [causeName],
      `^Caused by: ${esc(cause.split(":")[0])}`,
    );
  }
  return entry(file, "spring-boot", "bash", mime, log.text, F.list);
}

function logback(file, seed, n, firstError) {
  const r = rng(seedOf(file) + seed);
  const next = clock(r, Date.UTC(2026, 9, 14, 22, 10, 0), 9000);
  const log = new LogText();
  const state = {};
  for (const level of planLevels(r, n, r.int(3, 7))) {
    const t = next();
    const msg = messageFor(r, level, firstError, state);
    const stamp = `${ymd(t)} ${hms(t)}.${pad3(t.getUTCMilliseconds())}`;
    log.push(
      `${stamp} [${r.pick(["main", "pool-2-thread-1", "pool-2-thread-4", "kafka-consumer-1"])}] ${level.padEnd(5)} ${r.pick(["com.acme.orders.OrderConsumer", "com.acme.orders.OutboxRelay", "org.apache.kafka.clients.NetworkClient"])} - ${msg}`,
      level,
      msg,
    );
  }
  const F = factsFor(file);
  levelFacts(F, log, {
    errorEvidence: "^\\S+ \\S+ \\[[^\\]]+\\] ERROR ",
    warnEvidence: "^\\S+ \\S+ \\[[^\\]]+\\] WARN ",
  });
  F.has("consumer", "logger OrderConsumer", ["OrderConsumer"], "OrderConsumer");
  return entry(file, "logback", "read_file", "text/plain", log.text, F.list);
}

function log4j2(file, seed, n, firstError) {
  const r = rng(seedOf(file) + seed);
  const next = clock(r, Date.UTC(2026, 6, 2, 3, 0, 0), 20000);
  const log = new LogText();
  const state = {};
  for (const level of planLevels(r, n, r.int(3, 6))) {
    const t = next();
    const msg = messageFor(r, level, firstError, state);
    log.push(
      `${hms(t)}.${pad3(t.getUTCMilliseconds())} [${r.pick(["main", "Catalina-utility-1", "ForkJoinPool-1-worker-3"])}] ${level.padEnd(5)} ${r.pick(["com.acme.search.Indexer", "com.acme.search.QueryPlanner"])} - ${msg}`,
      level,
      msg,
    );
    if (level === "ERROR" && log.count.ERROR === 2)
      log.more(javaStack(r, "java.lang.IllegalStateException: index shard 3 is closed", null));
  }
  const F = factsFor(file);
  levelFacts(F, log, {
    errorEvidence: "^\\S+ \\[[^\\]]+\\] ERROR ",
    warnEvidence: "^\\S+ \\[[^\\]]+\\] WARN ",
  });
  F.has(
    "exception",
    "an IllegalStateException stack trace",
    ["IllegalStateException"],
    "IllegalStateException",
  );
  return entry(file, "log4j2", "bash", undefined, log.text, F.list);
}

// --- Python logging ---------------------------------------------------------------------------

function pythonLogging(file, seed, n, firstError, withTraceback) {
  const r = rng(seedOf(file) + seed);
  const next = clock(r, Date.UTC(2026, 2, 11, 14, 0, 0), 3000);
  const log = new LogText();
  const state = {};
  const names = ["worker.tasks", "worker.db", "urllib3.connectionpool", "celery.app.trace"];
  let traced = false;
  for (const level of planLevels(r, n, r.int(3, 8))) {
    const t = next();
    const msg = messageFor(r, level, firstError, state);
    const lvl = level === "WARN" ? "WARNING" : level;
    // logging's "%(asctime)s - %(name)s - %(levelname)s - %(message)s" with asctime's comma millis.
    log.push(
      `${ymd(t)} ${hms(t)},${pad3(t.getUTCMilliseconds())} - ${r.pick(names)} - ${lvl} - ${msg}`,
      level,
      msg,
    );
    if (withTraceback && level === "ERROR" && !traced) {
      traced = true;
      log.more([
        "Traceback (most recent call last):",
        '  File "/srv/worker/tasks/export.py", line 88, in run_export',
        "    upload(chunk, bucket=settings.EXPORT_BUCKET)",
        '  File "/srv/worker/storage.py", line 41, in upload',
        "    resp.raise_for_status()",
        "botocore.exceptions.ClientError: An error occurred (AccessDenied) when calling the PutObject operation: Access Denied",
      ]);
    }
  }
  const F = factsFor(file);
  levelFacts(F, log, { errorEvidence: " - ERROR - ", warnEvidence: " - WARNING - " });
  if (withTraceback)
    F.has(
      "exception",
      "a ClientError traceback",
      ["ClientError"],
      "^botocore\\.exceptions\\.ClientError",
    );
  return entry(file, "python-logging", "bash", "text/plain", log.text, F.list);
}

// --- Go log and slog ---------------------------------------------------------------------------

function goStdLog(file, seed, n) {
  const r = rng(seedOf(file) + seed);
  const next = clock(r, Date.UTC(2026, 4, 20, 6, 30, 0), 5000);
  const log = new LogText();
  let failures = 0;
  let firstFail = 0;
  for (let i = 0; i < n; i++) {
    const t = next();
    const d = `${t.getUTCFullYear()}/${pad2(t.getUTCMonth() + 1)}/${pad2(t.getUTCDate())} ${hms(t)}`;
    if (i > n / 5 && r.chance(0.05)) {
      failures++;
      log.push(
        `${d} sync.go:${r.int(40, 90)}: sync of tenant ${r.int(100, 999)} failed: context deadline exceeded`,
      );
      if (!firstFail) firstFail = log.lines.length;
    } else
      log.push(
        `${d} sync.go:${r.int(100, 200)}: synced tenant ${r.int(100, 999)}: ${r.int(0, 400)} objects in ${r.int(5, 900)}ms`,
      );
  }
  const F = factsFor(file);
  F.count(
    "failures",
    `${failures} sync failures`,
    failures,
    ["failed", "failures", "deadline exceeded"],
    "failed: context deadline exceeded$",
  );
  F.has(
    "deadline",
    "failures are 'context deadline exceeded'",
    ["context deadline exceeded"],
    "context deadline exceeded",
  );
  F.re(
    "lines",
    `${n} lines`,
    countRe(n, ["lines", "entries", "records"]),
    "^\\d{4}/\\d\\d/\\d\\d ",
    { evidenceCount: n },
  );
  F.has("start", "starts on 2026/05/20", ["2026/05/20", "2026-05-20"], "^2026/05/20");
  return entry(file, "go-log", "bash", undefined, log.text, F.list);
}

function slogText(file, seed, n, firstError) {
  const r = rng(seedOf(file) + seed);
  const next = clock(r, Date.UTC(2026, 7, 8, 12, 0, 0), 2500);
  const log = new LogText();
  const state = {};
  for (const level of planLevels(r, n, r.int(3, 7))) {
    const t = next();
    const msg = messageFor(r, level, firstError, state);
    const short = msg.split(/ \w+=/)[0].replace(/"/g, "'");
    log.push(
      `time=${iso(t)} level=${level} msg="${short}" service=ledger request_id=${r.hex(12)}${level === "ERROR" ? ` err="${r.pick(["EOF", "connection reset by peer", "i/o timeout"])}"` : ""}`,
      level,
      short,
    );
  }
  const F = factsFor(file);
  levelFacts(F, log, { errorEvidence: " level=ERROR ", warnEvidence: " level=WARN " });
  F.has("key", "records carry request_id", ["request_id"], "request_id=");
  return entry(file, "go-slog-text", "bash", undefined, log.text, F.list);
}

function slogJson(file, seed, n, firstError, mime) {
  const r = rng(seedOf(file) + seed);
  const next = clock(r, Date.UTC(2026, 7, 9, 1, 0, 0), 2500);
  const log = new LogText();
  const state = {};
  for (const level of planLevels(r, n, r.int(3, 7))) {
    const t = next();
    const msg = messageFor(r, level, firstError, state).split(/ \w+=/)[0];
    const rec = { time: iso(t), level, msg, component: r.pick(["scheduler", "api", "store"]) };
    if (level === "ERROR") rec.err = r.pick(["EOF", "connection refused", "no such host"]);
    else rec.duration_ms = r.int(1, 900);
    log.push(JSON.stringify(rec), level, msg);
  }
  const F = factsFor(file);
  levelFacts(F, log, { errorEvidence: '"level":"ERROR"', warnEvidence: '"level":"WARN"' });
  F.has("field", "records have a component field", ["component"], '"component":');
  // JSON Lines: a log by its records, JSON by its syntax (the MIME type may name either).
  return { ...entry(file, "go-slog-json", "bash", mime, log.text, F.list), alsoKinds: ["json"] };
}

function jsonLines(file, seed, n, firstError, mime) {
  const r = rng(seedOf(file) + seed);
  const next = clock(r, Date.UTC(2026, 1, 17, 9, 0, 0), 1500);
  const log = new LogText();
  const state = {};
  for (const level of planLevels(r, n, r.int(3, 9))) {
    const t = next();
    const msg = messageFor(r, level, firstError, state).split(/ \w+=/)[0];
    // pino-style numeric levels (30 info, 40 warn, 50 error) next to a name.
    const num = { DEBUG: 20, INFO: 30, WARN: 40, ERROR: 50 }[level];
    log.push(
      JSON.stringify({
        level: num,
        levelName: level.toLowerCase(),
        time: t.getTime(),
        pid: 4242,
        hostname: "api-7c9f",
        msg,
        reqId: `req-${r.int(1, 99999)}`,
      }),
      level,
      msg,
    );
  }
  const F = factsFor(file);
  levelFacts(F, log, { errorEvidence: '"levelName":"error"', warnEvidence: '"levelName":"warn"' });
  F.has("host", "hostname api-7c9f", ["api-7c9f"], "api-7c9f");
  // JSON Lines: a log by its records, JSON by its syntax (the MIME type may name either).
  return {
    ...entry(file, "json-lines-log", "read_file", mime, log.text, F.list),
    alsoKinds: ["json"],
  };
}

// --- syslog, journald --------------------------------------------------------------------------

function bsdStamp(t) {
  return `${MONTHS[t.getUTCMonth()]} ${String(t.getUTCDate()).padStart(2)} ${hms(t)}`;
}

function syslog3164(file, seed, n, host, withPri) {
  const r = rng(seedOf(file) + seed);
  const next = clock(r, Date.UTC(2026, 10, 28, 6, 25, 0), 30000);
  const lines = [];
  let failed = 0;
  let firstFailed = 0;
  const byProgram = {};
  for (let i = 0; i < n; i++) {
    const t = next();
    let prog;
    let msg;
    const roll = r.next();
    if (roll < 0.25) {
      prog = `sshd[${r.int(1000, 30000)}]`;
      if (r.chance(0.5)) {
        msg = `Failed password for invalid user ${r.pick(["admin", "oracle", "test", "ubuntu"])} from 203.0.113.${r.int(1, 250)} port ${r.int(30000, 60000)} ssh2`;
        failed++;
        if (!firstFailed) firstFailed = i + 1;
      } else
        msg = `Accepted publickey for deploy from 198.51.100.${r.int(1, 250)} port ${r.int(30000, 60000)} ssh2: ED25519 SHA256:${r.hex(20)}`;
    } else if (roll < 0.5) {
      prog = `CRON[${r.int(1000, 30000)}]`;
      msg = `(root) CMD (/usr/local/bin/backup.sh --incremental)`;
    } else if (roll < 0.7) {
      prog = "kernel:";
      msg = `[UFW BLOCK] IN=eth0 OUT= SRC=192.0.2.${r.int(1, 250)} DST=10.0.0.5 PROTO=TCP SPT=${r.int(1000, 60000)} DPT=${r.pick([22, 23, 3389, 5432])}`;
    } else {
      prog = `systemd[1]:`;
      msg = r.pick([
        "Started Daily apt download activities.",
        "Starting Cleanup of Temporary Directories...",
        "Finished Cleanup of Temporary Directories.",
      ]);
    }
    const name = prog.replace(/\[.*|:$/g, "");
    byProgram[name] = (byProgram[name] ?? 0) + 1;
    const pri = withPri ? `<${r.pick([38, 86, 4, 30])}>` : "";
    lines.push(`${pri}${bsdStamp(t)} ${host} ${prog.endsWith(":") ? prog : `${prog}:`} ${msg}`);
  }
  const F = factsFor(file);
  F.count(
    "failed",
    `${failed} failed ssh password attempts`,
    failed,
    ["Failed password", "failed"],
    "Failed password for",
  );
  F.line(
    "first-failed",
    `the first failed password is on line ${firstFailed}`,
    firstFailed,
    "Failed password for",
  );
  F.has("host", `host ${host}`, [host], esc(host));
  F.re(
    "lines",
    `${n} lines`,
    countRe(n, ["lines", "entries", "records", "messages"]),
    `^(<\\d+>)?[A-Z][a-z]{2} [ \\d]\\d \\d\\d:`,
    { evidenceCount: n },
  );
  F.has("programs", "programs include sshd", ["sshd"], "sshd\\[");
  return entry(file, "syslog-rfc3164", "bash", undefined, `${lines.join("\n")}\n`, F.list);
}

function syslog5424(file, seed, n, firstError) {
  const r = rng(seedOf(file) + seed);
  const next = clock(r, Date.UTC(2026, 3, 1, 0, 0, 0), 6000);
  const log = new LogText();
  const state = {};
  // RFC 5424 severities: 3 err, 4 warning, 6 info, 7 debug; facility local0 (16): PRI = 16*8 + sev.
  const sev = { ERROR: 3, WARN: 4, INFO: 6, DEBUG: 7 };
  for (const level of planLevels(r, n, r.int(3, 7))) {
    const t = next();
    const msg = messageFor(r, level, firstError, state);
    const app = r.pick(["billing-api", "billing-worker"]);
    log.push(
      `<${128 + sev[level]}>1 ${t.toISOString()} node-${r.int(1, 4)}.prod.example.net ${app} ${r.int(100, 9000)} ${r.pick(["ID47", "REQ", "-"])} [meta sequenceId="${log.lines.length + 1}"] ${msg}`,
      level,
      msg,
    );
  }
  const F = factsFor(file);
  levelFacts(F, log, {
    errorEvidence: "^<131>1 ",
    warnEvidence: "^<132>1 ",
    errorWords: ["error", "errors", "err"],
    warnWords: ["warn", "warning", "warnings"],
  });
  F.has("app", "app billing-worker", ["billing-worker"], "billing-worker");
  return entry(file, "syslog-rfc5424", "bash", undefined, log.text, F.list);
}

function journald(file, seed, n, host, failingUnit) {
  const r = rng(seedOf(file) + seed);
  const next = clock(r, Date.UTC(2026, 10, 30, 7, 0, 0), 20000);
  const lines = [];
  let firstFail = 0;
  let fails = 0;
  for (let i = 0; i < n; i++) {
    const t = next();
    const stamp = bsdStamp(t);
    let text;
    if (i === Math.floor(n / 2)) {
      lines.push(`-- Boot ${r.hex(32)} --`);
      continue;
    }
    if (i > n / 4 && r.chance(0.04)) {
      fails++;
      text = `systemd[1]: Failed to start ${failingUnit} - Application server.`;
      if (!firstFail) firstFail = lines.length + 1;
      lines.push(`${stamp} ${host} ${text}`);
      lines.push(
        `${stamp} ${host} systemd[1]: ${failingUnit}: Main process exited, code=exited, status=1/FAILURE`,
      );
      continue;
    }
    text = r.pick([
      () =>
        `systemd[1]: Started ${r.pick(["logrotate.service", "fstrim.service", "apt-daily.service"])} - ${r.pick(["Rotate log files", "Discard unused blocks", "Daily apt download activities"])}.`,
      () => `kernel: EXT4-fs (nvme0n1p2): re-mounted ${r.hex(8)}. Quota mode: none.`,
      () =>
        `dockerd[${r.int(800, 900)}]: time="${iso(t)}" level=info msg="ignoring event" module=libcontainerd namespace=moby topic=/tasks/delete`,
      () =>
        `NetworkManager[${r.int(600, 700)}]: <info>  [${Math.floor(t.getTime() / 1000)}.${r.int(1000, 9999)}] dhcp4 (eth0): state changed new lease, address=10.0.2.15`,
      () =>
        `sudo[${r.int(2000, 9000)}]:   deploy : TTY=pts/0 ; PWD=/home/deploy ; USER=root ; COMMAND=/usr/bin/systemctl restart ${failingUnit}`,
    ])();
    lines.push(`${stamp} ${host} ${text}`);
  }
  const F = factsFor(file);
  F.has(
    "unit",
    `unit ${failingUnit} failed to start`,
    [failingUnit],
    `Failed to start ${esc(failingUnit)}`,
  );
  F.count(
    "fails",
    `${fails} failed starts`,
    fails,
    ["Failed to start", "failed", "failures"],
    "Failed to start ",
  );
  F.line("first-fail", `the first failure is on line ${firstFail}`, firstFail, "Failed to start ");
  F.has("host", `host ${host}`, [host], esc(host));
  F.has("boot", "the journal spans a reboot", ["-- Boot", "boot"], "^-- Boot ");
  return entry(file, "journald-short", "bash", undefined, `${lines.join("\n")}\n`, F.list);
}

// --- klog, logcat -------------------------------------------------------------------------------

function klog(file, seed, n, component) {
  const r = rng(seedOf(file) + seed);
  const next = clock(r, Date.UTC(2026, 10, 12, 9, 0, 0), 3000);
  const log = new LogText();
  const levels = planLevels(r, n, r.int(4, 8), { debug: false });
  const first = "failed to sync pod payments/payments-api-7d9c6-xk2lp: ImagePullBackOff";
  let saw = false;
  for (const level of levels) {
    const t = next();
    const L = level[0];
    const d = `${pad2(t.getUTCMonth() + 1)}${pad2(t.getUTCDate())} ${hms(t)}.${String(r.int(0, 999999)).padStart(6, "0")}`;
    const src = `${r.pick(["kubelet.go", "pod_workers.go", "reconciler.go", "controller.go"])}:${r.int(100, 2500)}`;
    let msg;
    if (level === "ERROR") {
      msg = saw
        ? `"Error syncing pod, skipping" err="failed to \\"StartContainer\\" for \\"worker\\" with CrashLoopBackOff" pod="jobs/worker-${r.hex(5)}"`
        : first;
      saw = true;
    } else if (level === "WARN")
      msg = `"Readiness probe failed" probeResult="failure" pod="web/frontend-${r.hex(5)}" output="HTTP probe failed with statuscode: 503"`;
    else
      msg = r.pick([
        `"SyncLoop (PLEG): event for pod" pod="web/frontend-${r.hex(5)}" event={"Type":"ContainerStarted"}`,
        `"Successfully reconciled" controller="${component}" object="default/cfg-${r.hex(4)}"`,
        `"Volume is already mounted" volumeName="kubernetes.io/projected/kube-api-access-${r.hex(5)}"`,
      ]);
    log.push(`${L}${d}    ${r.int(1000, 9999)} ${src}] ${msg}`, level, msg);
  }
  const F = factsFor(file);
  F.count(
    "errors",
    `${log.count.ERROR} error (E) lines`,
    log.count.ERROR,
    ["error", "errors", "E"],
    "^E\\d{4} ",
  );
  F.count(
    "warns",
    `${log.count.WARN} warning (W) lines`,
    log.count.WARN,
    ["warn", "warning", "warnings", "W"],
    "^W\\d{4} ",
  );
  F.line(
    "first-error-line",
    `the first error is on line ${log.first.ERROR}`,
    log.first.ERROR,
    "^E\\d{4} ",
  );
  F.has(
    "first-error",
    "the first error: ImagePullBackOff for payments-api",
    ["ImagePullBackOff"],
    "ImagePullBackOff",
  );
  F.has("crashloop", "pods in CrashLoopBackOff", ["CrashLoopBackOff"], "CrashLoopBackOff");
  return entry(file, "klog", "kubectl", undefined, log.text, F.list);
}

function logcat(file, seed, n, pkg) {
  const r = rng(seedOf(file) + seed);
  const next = clock(r, Date.UTC(2026, 5, 1, 16, 40, 0), 900);
  const log = new LogText();
  const pid = r.int(2000, 30000);
  const levels = planLevels(r, n, r.int(3, 6));
  let crashed = false;
  for (const level of levels) {
    const t = next();
    const P = { ERROR: "E", WARN: "W", INFO: "I", DEBUG: "D" }[level];
    const stamp = `${pad2(t.getUTCMonth() + 1)}-${pad2(t.getUTCDate())} ${hms(t)}.${pad3(t.getUTCMilliseconds())}`;
    let tag;
    let msg;
    if (level === "ERROR" && !crashed) {
      crashed = true;
      tag = "AndroidRuntime";
      msg = "FATAL EXCEPTION: main";
      log.push(
        `${stamp} ${String(pid).padStart(5)} ${String(pid).padStart(5)} E ${tag}: ${msg}`,
        level,
        msg,
      );
      for (const fr of [
        `Process: ${pkg}, PID: ${pid}`,
        "java.lang.NullPointerException: Attempt to invoke virtual method 'java.lang.String android.content.Context.getString(int)' on a null object reference",
        `\tat ${pkg}.ui.CartFragment.onViewCreated(CartFragment.kt:57)`,
        "\tat androidx.fragment.app.Fragment.performViewCreated(Fragment.java:3128)",
      ])
        log.lines.push(
          `${stamp} ${String(pid).padStart(5)} ${String(pid).padStart(5)} E ${tag}: ${fr}`,
        );
      log.count.ERROR += 4;
      continue;
    }
    if (level === "ERROR") {
      tag = "OkHttp";
      msg = `<-- HTTP FAILED: java.net.SocketTimeoutException: timeout (https://api.example.com/v1/cart/${r.int(100, 999)})`;
    } else if (level === "WARN") {
      tag = r.pick(["Choreographer", "ActivityThread"]);
      msg =
        tag === "Choreographer"
          ? `Skipped ${r.int(30, 120)} frames!  The application may be doing too much work on its main thread.`
          : "handleWindowVisibility: no activity for token android.os.BinderProxy@5e3f1c";
    } else {
      tag = r.pick(["ActivityManager", "CartViewModel", "libc", "chromium"]);
      msg =
        tag === "CartViewModel"
          ? `cart refreshed items=${r.int(0, 12)}`
          : `Displayed ${pkg}/.MainActivity: +${r.int(200, 900)}ms`;
    }
    const tid = r.chance(0.6) ? pid : r.int(pid + 1, pid + 60);
    log.push(
      `${stamp} ${String(pid).padStart(5)} ${String(tid).padStart(5)} ${P} ${tag}: ${msg}`,
      level,
      msg,
    );
  }
  const F = factsFor(file);
  F.count(
    "errors",
    `${log.count.ERROR} E lines`,
    log.count.ERROR,
    ["error", "errors", "E"],
    "^\\S+ \\S+ +\\d+ +\\d+ E ",
  );
  F.line(
    "first-error-line",
    `the first E line is on line ${log.first.ERROR}`,
    log.first.ERROR,
    "^\\S+ \\S+ +\\d+ +\\d+ E ",
  );
  F.has("fatal", "a FATAL EXCEPTION in main", ["FATAL EXCEPTION"], "FATAL EXCEPTION: main");
  F.has("npe", "NullPointerException", ["NullPointerException"], "NullPointerException");
  F.has("tag", "tag AndroidRuntime", ["AndroidRuntime"], "AndroidRuntime");
  return entry(file, "android-logcat", "adb", undefined, log.text, F.list);
}

// --- Apache and nginx ---------------------------------------------------------------------------

const PATHS = [
  "/",
  "/api/v1/products",
  "/api/v1/cart",
  "/static/app.4f9a2c.js",
  "/static/app.css",
  "/login",
  "/api/v1/search?q=lamp",
  "/favicon.ico",
  "/healthz",
  "/wp-login.php",
];
const AGENTS = [
  '"Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0"',
  '"curl/8.5.0"',
  '"Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15"',
  '"kube-probe/1.30"',
];

function clfStamp(t) {
  return `${pad2(t.getUTCDate())}/${MONTHS[t.getUTCMonth()]}/${t.getUTCFullYear()}:${hms(t)} +0000`;
}

function accessLog(file, seed, n, format, combined) {
  const r = rng(seedOf(file) + seed);
  const next = clock(r, Date.UTC(2026, 10, 20, 10, 0, 0), 2000);
  const lines = [];
  const statusCount = {};
  const pathCount = {};
  let first5xx = 0;
  const hot = r.pick(["/api/v1/products", "/api/v1/cart"]);
  for (let i = 0; i < n; i++) {
    const t = next();
    const path = r.chance(0.35) ? hot : r.pick(PATHS);
    let status = 200;
    const roll = r.next();
    if (path === "/wp-login.php" || roll < 0.06) status = 404;
    else if (i > n / 5 && roll < 0.1) status = r.pick([500, 502, 503]);
    else if (roll < 0.16) status = 304;
    else if (roll < 0.2) status = 301;
    statusCount[status] = (statusCount[status] ?? 0) + 1;
    pathCount[path] = (pathCount[path] ?? 0) + 1;
    if (status >= 500 && !first5xx) first5xx = i + 1;
    const method = path.startsWith("/api/v1/cart") && r.chance(0.4) ? "POST" : "GET";
    const bytes = status === 304 ? 0 : r.int(200, 50000);
    const base = `${r.pick(["203.0.113", "198.51.100", "192.0.2"])}.${r.int(1, 254)} - ${r.chance(0.1) ? "alice" : "-"} [${clfStamp(t)}] "${method} ${path} HTTP/1.1" ${status} ${format === "nginx" && bytes === 0 ? 0 : bytes === 0 ? "-" : bytes}`;
    lines.push(
      combined
        ? `${base} "${r.pick(["-", "https://shop.example.com/", "https://www.google.com/"])}" ${r.pick(AGENTS)}${format === "nginx" ? ` rt=${(r.int(1, 3000) / 1000).toFixed(3)}` : ""}`
        : base,
    );
  }
  const F = factsFor(file);
  F.re(
    "requests",
    `${n} requests`,
    countRe(n, ["requests", "lines", "entries", "hits"]),
    "^\\S+ - \\S+ \\[",
    { evidenceCount: n },
  );
  F.count(
    "404",
    `${statusCount[404]} responses with status 404`,
    statusCount[404],
    ["404"],
    '" 404 ',
  );
  F.re(
    "5xx",
    "some responses are 5xx",
    "(?<![.\\d])50[0-4](?![.\\d])|\\b5xx\\b|server errors?",
    '" 50[023] ',
  );
  F.line("first-5xx", `the first 5xx is on line ${first5xx}`, first5xx, '" 50[023] ');
  F.has("hot-path", `the most requested path is ${hot}`, [hot], esc(hot));
  return entry(
    file,
    `${format}-access${combined ? "-combined" : "-common"}`,
    "bash",
    undefined,
    `${lines.join("\n")}\n`,
    F.list,
  );
}

function apacheError(file, seed, n) {
  const r = rng(seedOf(file) + seed);
  const next = clock(r, Date.UTC(2026, 10, 21, 3, 0, 0), 40000);
  const log = new LogText();
  const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
  for (const level of planLevels(r, n, r.int(5, 10), { debug: false })) {
    const t = next();
    const stamp = `[${DAYS[t.getUTCDay()]} ${MONTHS[t.getUTCMonth()]} ${pad2(t.getUTCDate())} ${hms(t)}.${String(r.int(0, 999999)).padStart(6, "0")} ${t.getUTCFullYear()}]`;
    let line;
    let msg;
    const client = `[client 203.0.113.${r.int(1, 254)}:${r.int(30000, 60000)}]`;
    if (level === "ERROR") {
      msg = log.count.ERROR
        ? `AH01071: Got error 'PHP message: PHP Fatal error:  Uncaught PDOException: SQLSTATE[HY000] [2002] Connection refused in /var/www/shop/src/Db.php:${r.int(20, 60)}'`
        : "AH01630: client denied by server configuration: /var/www/shop/.env";
      line = `${stamp} [${log.count.ERROR ? "proxy_fcgi" : "authz_core"}:error] [pid ${r.int(1000, 9000)}:tid ${r.int(100000, 999999)}] ${client} ${msg}`;
    } else if (level === "WARN") {
      msg = "AH00485: scoreboard is full, not at MaxRequestWorkers";
      line = `${stamp} [mpm_event:warn] [pid ${r.int(1000, 9000)}:tid ${r.int(100000, 999999)}] ${msg}`;
    } else {
      msg = r.pick([
        "AH00489: Apache/2.4.62 (Debian) OpenSSL/3.0.15 configured -- resuming normal operations",
        "AH00094: Command line: '/usr/sbin/apache2'",
        `AH01909: www.example.com:443:0 server certificate does NOT include an ID which matches the server name`,
      ]);
      line = `${stamp} [${r.pick(["mpm_event", "core", "ssl"])}:notice] [pid ${r.int(1000, 9000)}:tid ${r.int(100000, 999999)}] ${msg}`;
    }
    log.push(line, level, msg);
  }
  const F = factsFor(file);
  F.count(
    "errors",
    `${log.count.ERROR} error entries`,
    log.count.ERROR,
    ["error", "errors"],
    ":error\\] ",
  );
  F.line(
    "first-error-line",
    `the first error is on line ${log.first.ERROR}`,
    log.first.ERROR,
    ":error\\] ",
  );
  F.has(
    "denied",
    "the first error: client denied by server configuration",
    ["client denied by server configuration"],
    "client denied",
  );
  F.has(
    "pdo",
    "PHP fatal errors: PDOException Connection refused",
    ["PDOException"],
    "PDOException",
  );
  F.count(
    "warns",
    `${log.count.WARN} warn entries`,
    log.count.WARN,
    ["warn", "warning", "warnings"],
    ":warn\\] ",
  );
  return entry(file, "apache-error", "bash", undefined, log.text, F.list);
}

function nginxError(file, seed, n) {
  const r = rng(seedOf(file) + seed);
  const next = clock(r, Date.UTC(2026, 10, 22, 13, 0, 0), 30000);
  const log = new LogText();
  for (const level of planLevels(r, n, r.int(6, 12), { debug: false, warns: Math.round(n / 5) })) {
    const t = next();
    const stamp = `${t.getUTCFullYear()}/${pad2(t.getUTCMonth() + 1)}/${pad2(t.getUTCDate())} ${hms(t)}`;
    const pid = `${r.int(20, 40)}#${r.int(20, 40)}: *${r.int(1000, 99999)}`;
    let msg;
    let lvl;
    if (level === "ERROR") {
      lvl = "error";
      msg = log.count.ERROR
        ? `connect() failed (111: Connection refused) while connecting to upstream, client: 198.51.100.${r.int(1, 254)}, server: shop.example.com, request: "GET /api/v1/cart HTTP/1.1", upstream: "http://10.0.3.${r.int(2, 9)}:8080/api/v1/cart", host: "shop.example.com"`
        : `upstream timed out (110: Connection timed out) while reading response header from upstream, client: 198.51.100.7, server: shop.example.com, request: "POST /api/v1/checkout HTTP/2.0", upstream: "http://10.0.3.4:8080/api/v1/checkout", host: "shop.example.com"`;
    } else if (level === "WARN") {
      lvl = "warn";
      msg = `an upstream response is buffered to a temporary file /var/cache/nginx/proxy_temp/${r.int(1, 9)}/${pad2(r.int(0, 99))}/${r.int(1000000, 9999999)} while reading upstream, client: 192.0.2.${r.int(1, 254)}`;
    } else {
      lvl = "notice";
      msg = r.pick([
        "signal process started",
        'using the "epoll" event method',
        `start worker process ${r.int(30, 40)}`,
      ]);
    }
    log.push(
      `${stamp} [${lvl}] ${lvl === "notice" ? `${r.int(1, 9)}#${r.int(1, 9)}:` : pid} ${msg}`,
      level,
      msg,
    );
  }
  const F = factsFor(file);
  F.count(
    "errors",
    `${log.count.ERROR} [error] entries`,
    log.count.ERROR,
    ["error", "errors"],
    " \\[error\\] ",
  );
  F.count(
    "warns",
    `${log.count.WARN} [warn] entries`,
    log.count.WARN,
    ["warn", "warning", "warnings"],
    " \\[warn\\] ",
  );
  F.line(
    "first-error-line",
    `the first error is on line ${log.first.ERROR}`,
    log.first.ERROR,
    " \\[error\\] ",
  );
  F.has(
    "first-error",
    "the first error: upstream timed out",
    ["upstream timed out"],
    "upstream timed out",
  );
  F.has(
    "refused",
    "later errors: connect() failed (Connection refused)",
    ["Connection refused"],
    "Connection refused",
  );
  return entry(file, "nginx-error", "bash", undefined, log.text, F.list);
}

export function logs() {
  return [
    springBoot(
      "billing-spring.log",
      1,
      260,
      ERROR_MESSAGES[0],
      'org.springframework.web.client.ResourceAccessException: I/O error on POST request for "https://payments.internal/charges": Read timed out',
      null,
      "text/plain",
    ),
    springBoot(
      "ledger-boot.log",
      2,
      340,
      ERROR_MESSAGES[1],
      "org.springframework.dao.DataAccessResourceFailureException: unable to obtain isolated JDBC connection",
      "org.postgresql.util.PSQLException: Connection to db-2:5432 refused.",
      undefined,
    ),
    logback("orders-logback.log", 3, 300, ERROR_MESSAGES[3]),
    logback("outbox-logback.log", 4, 150, ERROR_MESSAGES[2]),
    logback("notifier-logback.log", 32, 220, ERROR_MESSAGES[4]),
    log4j2("search-log4j2.log", 5, 280, ERROR_MESSAGES[4]),
    pythonLogging("export-worker.log", 6, 320, ERROR_MESSAGES[5], true),
    pythonLogging("celery-tasks.log", 7, 180, ERROR_MESSAGES[2], false),
    pythonLogging("reports-job.log", 33, 120, ERROR_MESSAGES[1], true),
    goStdLog("tenant-sync.log", 8, 300),
    slogText("ledger-slog.txt", 9, 260, ERROR_MESSAGES[1]),
    slogText("gateway-slog.log", 34, 140, ERROR_MESSAGES[3]),
    slogJson("scheduler-slog.jsonl", 10, 240, ERROR_MESSAGES[2], "application/x-ndjson"),
    slogJson("api-slog.json.log", 11, 160, ERROR_MESSAGES[4], undefined),
    jsonLines("pino-api.ndjson", 12, 300, ERROR_MESSAGES[0], "application/x-ndjson"),
    jsonLines("pino-worker.log", 13, 180, ERROR_MESSAGES[3], "text/plain"),
    syslog3164("auth-syslog.log", 14, 320, "bastion-01", false),
    syslog3164("relay-syslog.txt", 15, 200, "edge-relay-3", true),
    syslog5424("billing-5424.log", 16, 260, ERROR_MESSAGES[0]),
    syslog5424("worker-5424.log", 17, 140, ERROR_MESSAGES[5]),
    journald("journal-app01.txt", 18, 260, "app01", "shop-api.service"),
    journald("journal-db02.txt", 19, 160, "db02", "pgbouncer.service"),
    klog("kubelet-klog.log", 20, 240, "kubelet"),
    klog("controller-klog.log", 21, 150, "configmap-controller"),
    logcat("logcat-shop.txt", 22, 300, "com.example.shop"),
    logcat("logcat-notes.txt", 23, 160, "org.example.notes"),
    accessLog("apache-access.log", 24, 260, "apache", true),
    accessLog("apache-access-common.log", 25, 300, "apache", false),
    accessLog("nginx-access.log", 26, 280, "nginx", true),
    accessLog("nginx-access-small.log", 27, 90, "nginx", true),
    apacheError("apache-error.log", 28, 200),
    apacheError("apache-error-small.log", 29, 70),
    nginxError("nginx-error.log", 30, 160),
    nginxError("nginx-error-small.log", 31, 60),
  ];
}
