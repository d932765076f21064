// Deterministic benchmark inputs: each generator repeats varied records until the text reaches
// the requested size in UTF-8 bytes. A small LCG keeps runs identical without Math.random.

export function lcg(seed = 42) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state;
  };
}

const WORDS = [
  "alpha",
  "bravo",
  "charlie",
  "delta",
  "echo",
  "foxtrot",
  "golf",
  "hotel",
  "india",
  "juliet",
  "kilo",
  "lima",
  "mike",
  "november",
  "oscar",
  "papa",
  "quebec",
  "romeo",
  "sierra",
  "tango",
  "café",
  "naïve",
  "über",
  "日本語",
  "数据",
];

function words(next, n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(WORDS[next() % WORDS.length]);
  return out.join(" ");
}

/** Repeats `piece(i)` until `bytes` UTF-8 bytes; `open`/`close` wrap the whole. */
function fill(bytes, piece, open = "", close = "") {
  const encoder = new TextEncoder();
  const chunks = [open];
  let size = encoder.encode(open).length + encoder.encode(close).length;
  for (let i = 0; size < bytes; i++) {
    const chunk = piece(i);
    chunks.push(chunk);
    size += encoder.encode(chunk).length;
  }
  chunks.push(close);
  return chunks.join("");
}

const GENERATORS = {
  json(bytes, next) {
    return fill(
      bytes,
      (i) =>
        (i ? "," : "") +
        JSON.stringify({
          id: i,
          name: words(next, 2),
          active: next() % 2 === 0,
          score: (next() % 10000) / 100,
          tags: [words(next, 1), words(next, 1)],
          address: { city: words(next, 1), zip: String(next() % 100000).padStart(5, "0") },
          note: next() % 7 === 0 ? null : words(next, 6),
        }),
      "[",
      "]",
    );
  },
  csv(bytes, next) {
    return fill(
      bytes,
      (i) =>
        `${i},${words(next, 2)},${next() % 1000},${(next() % 10000) / 100},${next() % 2 ? "yes" : "no"}\n`,
      "id,name,count,price,flag\n",
    );
  },
  tsv(bytes, next) {
    return fill(
      bytes,
      (i) =>
        `${i}\t${words(next, 2)}\t${next() % 1000}\t${(next() % 10000) / 100}\t${next() % 2 ? "yes" : "no"}\n`,
      "id\tname\tcount\tprice\tflag\n",
    );
  },
  yaml(bytes, next) {
    return fill(
      bytes,
      (i) =>
        `item_${i}:\n  name: ${words(next, 2)}\n  count: ${next() % 1000}\n  enabled: ${next() % 2 === 0}\n` +
        `  tags:\n    - ${words(next, 1)}\n    - ${words(next, 1)}\n`,
      "---\n",
    );
  },
  xml(bytes, next) {
    return fill(
      bytes,
      (i) =>
        `  <item id="${i}" kind="${words(next, 1)}"><name>${words(next, 2)}</name><count>${next() % 1000}</count></item>\n`,
      '<?xml version="1.0"?>\n<catalog>\n',
      "</catalog>\n",
    );
  },
  code(bytes, next) {
    return fill(
      bytes,
      (i) =>
        (i % 50 === 0 ? `import mod_${i}\nfrom pkg_${i} import thing\n` : "") +
        `def handler_${i}(request, limit=${next() % 100}):\n    """${words(next, 5)}"""\n` +
        `    value = compute(request, ${next() % 1000})\n    return value\n\n`,
      "#!/usr/bin/env python3\n",
    );
  },
  text(bytes, next) {
    return fill(bytes, (i) => `${i % 40 === 0 ? `# Section ${i}\n` : ""}${words(next, 12)}.\n`);
  },
  "binary-like": (bytes, next) =>
    fill(bytes, () => {
      let s = "";
      for (let j = 0; j < 64; j++) s += String.fromCharCode(next() % 128);
      return s;
    }),
};

export const KINDS = Object.keys(GENERATORS);

/**
 * Outputs enhanced mode has analyzers of its own for, each with the MIME type it arrives with:
 * the enhanced rows time them beside the reference mode (none of them is a target 1 kind).
 */
const ENHANCED_GENERATORS = {
  "markdown headings": [
    "text/markdown",
    (bytes, next) =>
      fill(
        bytes,
        (i) =>
          `${i % 3 === 0 ? "#" : "##"} Heading ${i} ${words(next, 3)}\n\n${words(next, 8)}.\n\n`,
      ),
  ],
  "jsonl distinct keys": [
    "application/x-ndjson",
    (bytes, next) =>
      fill(
        bytes,
        (i) =>
          `${JSON.stringify({ [`key_${i}`]: i, [`field_${i % 997}`]: words(next, 2), level: next() % 9 ? "info" : "error" })}\n`,
      ),
  ],
  html: [
    "text/html",
    (bytes, next) =>
      fill(
        bytes,
        (i) =>
          `${i % 20 === 0 ? `<h2 id="s${i}">Section ${i}</h2>\n` : ""}<p>${words(next, 10)} <a href="/doc/${i}">${words(next, 2)}</a>.</p>\n`,
        "<!DOCTYPE html>\n<html><head><title>Reference</title></head><body>\n<h1>Reference</h1>\n",
        "</body></html>\n",
      ),
  ],
  "build errors": [
    "text/plain",
    (bytes, next) =>
      fill(
        bytes,
        (i) =>
          `src/mod_${i % 300}.c:${(next() % 900) + 1}:${(next() % 40) + 1}: ${i % 4 ? "warning" : "error"}: ${words(next, 5)}\n` +
          `  ${(next() % 900) + 1} |   value = compute(${words(next, 1)});\n      |           ^~~~~~~\n`,
        "gcc -O2 -c src/*.c\n",
        "make: *** [Makefile:12: all] Error 1\n",
      ),
  ],
  "yaml list of records": [
    "application/yaml",
    (bytes, next) =>
      fill(
        bytes,
        (i) => `- id: ${i}\n  name: ${words(next, 2)}\n  state: ${next() % 5 ? "ok" : "failed"}\n`,
      ),
  ],
  "log with levels": ["text/plain", (bytes, next) => makeLog(bytes, { seed: next() })],
  "syslog without levels": [
    "text/plain",
    (bytes, next) =>
      fill(bytes, (i) => {
        const second = String(i % 60).padStart(2, "0");
        const minute = String(Math.floor(i / 60) % 60).padStart(2, "0");
        const stamp = `Dec  ${1 + (Math.floor(i / 3600) % 9)} 12:${minute}:${second}`;
        const host = `web-${next() % 4}`;
        const pid = 1000 + (next() % 9000);
        const ip = `10.0.${next() % 256}.${next() % 256}`;
        switch (next() % 8) {
          case 0:
            return `${stamp} ${host} sshd[${pid}]: Failed password for invalid user ${WORDS[next() % 20]} from ${ip} port ${next() % 65536} ssh2\n`;
          case 1:
            return `${stamp} ${host} CRON[${pid}]: (root) CMD (/usr/local/bin/backup --${WORDS[next() % 20]})\n`;
          case 2:
            return `${stamp} ${host} kernel: [${next() % 100000}.${next() % 1000000}] eth0: link up, 1000Mbps, full-duplex\n`;
          case 3:
            return `${stamp} ${host} systemd[1]: Started Session ${next() % 9999} of user ${WORDS[next() % 20]}.\n`;
          default:
            return `${stamp} ${host} sshd[${pid}]: Accepted publickey for deploy from ${ip} port ${next() % 65536} ssh2: RSA SHA256:${words(next, 1)}\n`;
        }
      }),
  ],
  "json array of log records": [
    "application/json",
    (bytes, next) =>
      fill(
        bytes,
        (i) =>
          (i ? ",\n" : "") +
          JSON.stringify({
            ts: `2024-05-01T12:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}Z`,
            level: ["info", "info", "info", "warn", "error", "debug"][next() % 6],
            service: `svc-${next() % 12}`,
            msg: words(next, 5),
            status: [200, 200, 201, 404, 500][next() % 5],
            latency_ms: next() % 2000,
          }),
        "[\n",
        "\n]\n",
      ),
  ],
  // Merges and aliases as configuration files repeat them: every item merges an anchored base
  // (`<<: *base`), and anchors a list of aliases (`&refs_N`) that the next item reuses.
  "yaml merges and aliases": [
    "application/yaml",
    (bytes, next) =>
      fill(
        bytes,
        (i) =>
          `  - <<: *base\n    name: ${words(next, 1)}-${i}\n    port: ${next() % 65536}\n` +
          `    peers: &refs_${i}\n      - *base\n      - *base\n` +
          (i ? `    previous: *refs_${i - 1}\n` : ""),
        "base: &base\n  timeout: 30\n  retries: 3\n  region: eu-west-1\nservices:\n",
      ),
  ],
  // Wide tables (the column cap): 20 rows of 200,000 columns, and 2,000 rows of 2,000.
  "csv 20 x 200,000 columns": ["text/csv", (bytes, next) => wideCsv(bytes, 200_000, next)],
  "csv 2,000 x 2,000": ["text/csv", (bytes, next) => wideCsv(bytes, 2_000, next)],
};

/** A CSV of `columns` columns (a header of `c1..cN`, short numeric cells) of about `bytes`. */
function wideCsv(bytes, columns, next) {
  const header = Array.from({ length: columns }, (_, i) => `c${i + 1}`).join(",");
  return fill(
    bytes,
    () => `${Array.from({ length: columns }, () => next() % 100).join(",")}\n`,
    `${header}\n`,
  );
}

export const ENHANCED_KINDS = Object.keys(ENHANCED_GENERATORS);

/** A deterministic input of enhanced kind `kind` of about `bytes` bytes, and its MIME type. */
export function makeEnhancedInput(kind, bytes, seed = 42) {
  const [mimeType, generate] = ENHANCED_GENERATORS[kind];
  return { mimeType, output: generate(bytes, lcg(seed)) };
}

/** A deterministic input of `kind` of about `bytes` UTF-8 bytes. */
export function makeInput(kind, bytes, seed = 42) {
  return GENERATORS[kind](bytes, lcg(seed));
}

/**
 * The parts of a turn of `count` outputs of about `totalBytes` in all (target 4), six kinds in
 * turn. Sizes run from 0.2x to 1.8x the mean, so some parts fall under the single-part threshold
 * and the turn budget's greedy selection has work to do.
 */
export function turnParts(count, totalBytes) {
  const mixed = ["json", "csv", "text", "code", "xml", "tsv"];
  return Array.from({ length: count }, (_, i) => {
    const bytes = Math.round((totalBytes / count) * (0.2 + (1.6 * ((i * 37) % count)) / count));
    return {
      toolId: `call_${i}`,
      toolName: "bench",
      output: makeInput(mixed[i % mixed.length], bytes, i),
    };
  });
}

/** Pretty-printed JSON (2-space indent, one field a line) of about `bytes` UTF-8 bytes. */
export function makePrettyJson(bytes, seed = 42) {
  const next = lcg(seed);
  const record = (i) =>
    JSON.stringify(
      {
        id: i,
        name: words(next, 2),
        active: next() % 2 === 0,
        score: (next() % 10000) / 100,
        tags: [words(next, 1), words(next, 1)],
        address: { city: words(next, 1), zip: String(next() % 100000).padStart(5, "0") },
      },
      null,
      2,
    ).replace(/\n/g, "\n  ");
  return fill(bytes, (i) => `${i ? ",\n  " : "  "}${record(i)}`, "[\n", "\n]\n");
}

const CJK_WORDS = [
  "数据",
  "服务器",
  "请求",
  "日本語",
  "処理",
  "結果",
  "用户",
  "配置",
  "错误",
  "完成",
];

/** Chinese and Japanese prose (full-width punctuation, no spaces) of about `bytes` UTF-8 bytes. */
export function makeCjkProse(bytes, seed = 42) {
  const next = lcg(seed);
  const sentence = () =>
    Array.from({ length: 8 }, () => CJK_WORDS[(next() >>> 8) % CJK_WORDS.length]).join(
      (next() >>> 8) % 3 === 0 ? "，" : "",
    );
  return fill(bytes, (i) => `${sentence()}。${i % 12 === 11 ? "\n" : ""}`);
}

/** The first 20 of WORDS are ASCII. */
const ASCII_WORDS = 20;
const LEVELS = ["INFO", "INFO", "INFO", "INFO", "DEBUG", "DEBUG", "WARN", "ERROR", "INFO", "Error"];
const ASCII_MESSAGES = [
  "request served",
  "cache miss for key",
  "retrying upstream call",
  "disk usage at",
  "connection reset by peer",
];
const UNICODE_MESSAGES = [
  "requête servie pour «Zoë»",
  "échec du cache, clé",
  "σφάλμα σύνδεσης στον διακομιστή",
  "上游调用重试 数据",
  "ディスク使用率 日本語",
];

/**
 * A deterministic log of `bytes` UTF-8 bytes for the grep rows: timestamps, levels (some ERROR,
 * some mixed-case Error), numbers with `ms`; with `unicode`, every line also holds non-ASCII text.
 */
export function makeLog(bytes, { unicode = false, seed = 5 } = {}) {
  const lowBits = lcg(seed);
  // An LCG's low bits cycle quickly (every level would fall on the same lines): use the high ones.
  const next = () => lowBits() >>> 8;
  const messages = unicode ? UNICODE_MESSAGES : ASCII_MESSAGES;
  return fill(bytes, (i) => {
    const level = LEVELS[next() % LEVELS.length];
    const message = messages[next() % messages.length];
    const word = () => WORDS[next() % (unicode ? WORDS.length : ASCII_WORDS)];
    return `2024-05-01T12:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}.${String(next() % 1000).padStart(3, "0")}Z ${level} worker-${next() % 16} ${message} ${word()} ${word()} took ${next() % 5000}ms id=${next() % 100000}\n`;
  });
}

/**
 * Kubernetes-like manifests as one YAML document (a `List` of Deployments) of about `bytes` UTF-8
 * bytes, with what real ones hold and the benchmark's plain-block `yaml` input does not: flow
 * sequences and mappings (`args: ["--port", "80"]`), quoted strings, an anchor merged with
 * `<<: *defaults`, and block scalars. `json` is the same data (merges applied) as JSON, the
 * baseline the YAML synopsis is measured against.
 */
export function makeManifests(bytes, seed = 42) {
  const next = lcg(seed);
  const encoder = new TextEncoder();
  const defaults = {
    imagePullPolicy: "IfNotPresent",
    terminationMessagePath: "/dev/termination-log",
  };
  const head =
    'apiVersion: v1\nkind: List\nmetadata:\n  name: "bench-manifests"\n' +
    "defaults: &defaults\n  imagePullPolicy: IfNotPresent\n  terminationMessagePath: /dev/termination-log\nitems:\n";
  const chunks = [head];
  const items = [];
  let size = encoder.encode(head).length;
  for (let i = 0; size < bytes; i++) {
    const name = `svc-${i}`;
    const port = 1000 + (next() % 9000);
    const description = words(next, 4);
    const replicas = 1 + (next() % 5);
    const image = `registry.example.com/${name}:1.${i % 10}.0`;
    const chunk =
      `- apiVersion: apps/v1\n  kind: Deployment\n  metadata:\n    name: "${name}"\n` +
      `    labels: {app: ${name}, tier: "backend"}\n    annotations:\n      description: |\n` +
      `        ${description}\n        owned by team ${i % 7}\n  spec:\n    replicas: ${replicas}\n` +
      `    template:\n      spec:\n        containers:\n        - name: main\n          <<: *defaults\n` +
      `          image: "${image}"\n          args: ["--port", "${port}", "--log-level", 'info']\n` +
      `          ports:\n          - containerPort: ${port}\n            protocol: TCP\n` +
      `          env:\n          - {name: MODE, value: "production"}\n          - name: DESCRIPTION\n` +
      `            value: '${description}'\n`;
    chunks.push(chunk);
    size += encoder.encode(chunk).length;
    items.push({
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: {
        name,
        labels: { app: name, tier: "backend" },
        annotations: { description: `${description}\nowned by team ${i % 7}\n` },
      },
      spec: {
        replicas,
        template: {
          spec: {
            containers: [
              {
                name: "main",
                ...defaults,
                image,
                args: ["--port", `${port}`, "--log-level", "info"],
                ports: [{ containerPort: port, protocol: "TCP" }],
                env: [
                  { name: "MODE", value: "production" },
                  { name: "DESCRIPTION", value: description },
                ],
              },
            ],
          },
        },
      },
    });
  }
  const data = {
    apiVersion: "v1",
    kind: "List",
    metadata: { name: "bench-manifests" },
    defaults,
    items,
  };
  return { yaml: chunks.join(""), json: JSON.stringify(data) };
}
