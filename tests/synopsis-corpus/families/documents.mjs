// Documents: Markdown (CommonMark + YAML front matter), MDX (imports and JSX between Markdown),
// reStructuredText (underlined titles, directives) and AsciiDoc (`=` titles, attributes, [source]
// blocks). Facts: the title, sections of the outline, code-block languages, front matter.

import { esc, factsFor, rng, seedOf } from "../lib.mjs";

const FAMILY = "documents";

const SUBJECTS = [
  "the client",
  "each worker",
  "the scheduler",
  "a retry",
  "the cache",
  "your deployment",
  "the exporter",
  "this option",
  "the queue",
  "a request",
];
const VERBS = [
  "reads",
  "writes",
  "keeps",
  "drops",
  "retries",
  "batches",
  "validates",
  "signs",
  "streams",
  "rotates",
];
const OBJECTS = [
  "the session token",
  "every pending job",
  "idempotency keys",
  "the response body",
  "stale entries",
  "the audit trail",
  "partial uploads",
  "the connection pool",
  "webhook payloads",
  "the rate limit",
];
const TAILS = [
  "before the deadline passes",
  "when the server answers 429",
  "unless you disable it",
  "once per minute",
  "in the order they arrived",
  "so nothing is lost on restart",
  "for at most five attempts",
  "without blocking the caller",
];

function sentence(r) {
  const s = `${r.pick(SUBJECTS)} ${r.pick(VERBS)} ${r.pick(OBJECTS)} ${r.pick(TAILS)}.`;
  return s[0].toUpperCase() + s.slice(1);
}

function paragraph(r, n = r.int(2, 5)) {
  return Array.from({ length: n }, () => sentence(r)).join(" ");
}

const SNIPPETS = {
  bash: (r) => [
    `curl -sS -X POST https://api.example.com/v2/jobs \\`,
    `  -H "Authorization: Bearer $TOKEN" \\`,
    `  -d '{"queue": "exports", "priority": ${r.int(1, 9)}}'`,
  ],
  yaml: (r) => [
    "retry:",
    `  attempts: ${r.int(2, 8)}`,
    `  backoff: ${r.int(100, 900)}ms`,
    "exporter:",
    "  endpoint: https://collector.example.com:4318",
  ],
  python: (r) => [
    "from acme import Client",
    "",
    `client = Client(timeout=${r.int(5, 60)})`,
    'job = client.jobs.create(queue="exports")',
    "print(job.id)",
  ],
  go: (r) => [
    `ctx, cancel := context.WithTimeout(ctx, ${r.int(2, 30)}*time.Second)`,
    "defer cancel()",
    'job, err := client.Jobs.Create(ctx, acme.JobParams{Queue: "exports"})',
  ],
  json: (r) => [
    "{",
    `  "queue": "exports",`,
    `  "priority": ${r.int(1, 9)},`,
    `  "dedupe_key": "${r.hex(8)}"`,
    "}",
  ],
  typescript: (r) => [
    'import { Client } from "@acme/sdk";',
    "",
    `const client = new Client({ timeoutMs: ${r.int(1000, 9000)} });`,
    'const job = await client.jobs.create({ queue: "exports" });',
  ],
};

function markdown(file, seed, { title, frontMatter, h2, langs, mdx, minChars, mime }) {
  const r = rng(seedOf(file) + seed);
  const lines = [];
  if (frontMatter)
    lines.push(
      "---",
      `title: "${title}"`,
      `description: ${paragraph(r, 1)}`,
      `tags: [${frontMatter.tags.join(", ")}]`,
      `sidebar_position: ${r.int(1, 20)}`,
      "---",
      "",
    );
  if (mdx)
    lines.push(
      'import { Callout, Tabs, Tab } from "@/components/docs";',
      'import ApiTable from "./_api-table.mdx";',
      "",
      'export const meta = { section: "guides" };',
      "",
    );
  lines.push(`# ${title}`, "", paragraph(r), "");
  const used = new Set();
  let _links = 0;
  for (const [i, h] of h2.entries()) {
    lines.push(`## ${h}`, "", paragraph(r), "");
    if (i % 2 === 0) {
      lines.push(
        `See [${h.toLowerCase()} reference](https://docs.example.com/${h.toLowerCase().replace(/\W+/g, "-")}) for every field.`,
        "",
      );
      _links++;
    }
    const lang = langs[i % langs.length];
    used.add(lang);
    lines.push(`\`\`\`${lang}`, ...SNIPPETS[lang](r), "```", "");
    if (mdx && i % 3 === 1)
      lines.push('<Callout type="warning">', `  ${sentence(r)}`, "</Callout>", "");
    lines.push(`### ${h}: options`, "", "| option | default | meaning |", "|---|---|---|");
    for (let k = 0; k < r.int(3, 7); k++)
      lines.push(`| \`${r.word(6)}\` | \`${r.int(0, 100)}\` | ${sentence(r)} |`);
    lines.push("");
    for (let k = 0; k < Math.ceil(minChars / (h2.length * 700)); k++)
      lines.push(paragraph(r), "", `- ${sentence(r)}`, `- ${sentence(r)}`, "");
  }
  const content = `${lines.join("\n")}\n`;
  const F = factsFor(file);
  F.has("title", `the title: ${title}`, [title], `^# ${esc(title)}$`);
  F.has("section-1", `a section ${h2[1]}`, [h2[1]], `^## ${esc(h2[1])}$`);
  F.has(
    "section-last",
    `a section ${h2[h2.length - 1]}`,
    [h2[h2.length - 1]],
    `^## ${esc(h2[h2.length - 1])}$`,
  );
  F.re(
    "sections",
    `${h2.length} sections (## headings)`,
    `(?<![\\d.])${h2.length}[^\\n\\d]{0,20}\\b(sections|headings|h2)|\\b(sections|headings|h2)\\b[^\\n\\d]{0,20}(?<![\\d.])${h2.length}\\b`,
    "^## ",
    { evidenceCount: h2.length },
  );
  const lang = langs[0];
  F.re("lang", `code blocks in ${lang}`, `\\b${lang}\\b`, `^\`\`\`${lang}$`);
  if (frontMatter)
    F.has(
      "tag",
      `front matter tags include ${frontMatter.tags[0]}`,
      [frontMatter.tags[0]],
      `^tags: \\[${esc(frontMatter.tags[0])}`,
    );
  if (mdx)
    F.has("import", "imports Callout from @/components/docs", ["Callout"], "^import \\{ Callout");
  return {
    file,
    format: mdx ? "mdx" : frontMatter ? "markdown-front-matter" : "markdown",
    family: FAMILY,
    toolName: "read_file",
    mimeType: mime,
    kind: "markdown",
    content,
    facts: F.list,
  };
}

function rst(file, seed, title, secs, minChars) {
  const r = rng(seedOf(file) + seed);
  const lines = [
    "=".repeat(title.length),
    title,
    "=".repeat(title.length),
    "",
    ".. contents:: Table of Contents",
    "   :depth: 2",
    "",
    paragraph(r),
    "",
  ];
  const per = Math.ceil(minChars / (secs.length * 600));
  for (const [i, s] of secs.entries()) {
    lines.push(s, "-".repeat(s.length), "", paragraph(r), "");
    if (i % 2 === 0)
      lines.push(".. code-block:: python", "", ...SNIPPETS.python(r).map((l) => `   ${l}`), "");
    else lines.push(".. note::", "", `   ${sentence(r)}`, "");
    for (let k = 0; k < per; k++)
      lines.push(
        paragraph(r),
        "",
        `* ${sentence(r)}`,
        `* See :ref:\`${r.word(6)}-${r.word(4)}\` and \`the API <https://api.example.com/${r.word(5)}>\`_.`,
        "",
      );
  }
  const F = factsFor(file);
  F.has("title", `the title: ${title}`, [title], `^${esc(title)}$`);
  F.has("sec", `a section ${secs[1]}`, [secs[1]], `^${esc(secs[1])}\\n-+$`);
  F.has(
    "sec-last",
    `a section ${secs[secs.length - 1]}`,
    [secs[secs.length - 1]],
    `^${esc(secs[secs.length - 1])}\\n-+$`,
  );
  F.re("lang", "code blocks in python", "\\bpython\\b", "^\\.\\. code-block:: python$");
  return {
    file,
    format: "restructuredtext",
    family: FAMILY,
    toolName: "read_file",
    mimeType: r.chance(0.5) ? "text/x-rst" : undefined,
    kind: "text",
    content: `${lines.join("\n")}\n`,
    facts: F.list,
  };
}

function asciidoc(file, seed, title, secs, minChars) {
  const r = rng(seedOf(file) + seed);
  const lines = [
    `= ${title}`,
    "Platform Team <platform@example.com>",
    "v3.2, 2026-11-01",
    ":toc: left",
    ":source-highlighter: rouge",
    ":icons: font",
    "",
    paragraph(r),
    "",
  ];
  const per = Math.ceil(minChars / (secs.length * 600));
  for (const [i, s] of secs.entries()) {
    lines.push(`== ${s}`, "", paragraph(r), "");
    if (i % 2 === 0) lines.push("[source,yaml]", "----", ...SNIPPETS.yaml(r), "----", "");
    else lines.push(`NOTE: ${sentence(r)}`, "");
    lines.push(`=== ${s} in practice`, "");
    for (let k = 0; k < per; k++)
      lines.push(
        paragraph(r),
        "",
        `* ${sentence(r)}`,
        `* link:https://docs.example.com/${r.word(6)}[${r.word(5)} guide]`,
        "",
      );
  }
  const F = factsFor(file);
  F.has("title", `the title: ${title}`, [title], `^= ${esc(title)}$`);
  F.has("sec", `a section ${secs[1]}`, [secs[1]], `^== ${esc(secs[1])}$`);
  F.has(
    "sec-last",
    `a section ${secs[secs.length - 1]}`,
    [secs[secs.length - 1]],
    `^== ${esc(secs[secs.length - 1])}$`,
  );
  F.re("lang", "source blocks in yaml", "\\byaml\\b", "^\\[source,yaml\\]$");
  F.has("author", "by the Platform Team", ["Platform Team"], "^Platform Team");
  return {
    file,
    format: "asciidoc",
    family: FAMILY,
    toolName: "read_file",
    mimeType: undefined,
    kind: "text",
    content: `${lines.join("\n")}\n`,
    facts: F.list,
  };
}

export function documents() {
  return [
    markdown("retries-guide.md", 1, {
      title: "Retries and idempotency",
      h2: [
        "Why requests fail",
        "Choosing a backoff",
        "Idempotency keys",
        "Timeouts per call",
        "Observability",
        "Troubleshooting",
      ],
      langs: ["python", "bash", "json"],
      minChars: 12000,
      mime: "text/markdown",
    }),
    markdown("exporter-setup.md", 2, {
      title: "Setting up the metrics exporter",
      frontMatter: { tags: ["observability", "metrics"] },
      h2: [
        "Prerequisites",
        "Installing the agent",
        "Configuring scrape targets",
        "Dashboards",
        "Upgrading",
      ],
      langs: ["yaml", "bash"],
      minChars: 9000,
      mime: "text/markdown",
    }),
    markdown("CONTRIBUTING.md", 3, {
      title: "Contributing to Acme SDK",
      h2: [
        "Code of conduct",
        "Development setup",
        "Running the tests",
        "Commit messages",
        "Release process",
        "Security issues",
        "Getting help",
      ],
      langs: ["bash", "go"],
      minChars: 6000,
      mime: undefined,
    }),
    markdown("queues-overview.md", 4, {
      title: "Queues overview",
      frontMatter: { tags: ["queues", "jobs", "concepts"] },
      h2: ["What a queue holds", "Priorities", "Dead letters", "Limits"],
      langs: ["typescript", "json"],
      minChars: 4000,
      mime: "text/plain",
    }),
    markdown("sdk-quickstart.mdx", 5, {
      title: "SDK quickstart",
      frontMatter: { tags: ["sdk", "getting-started"] },
      h2: ["Install", "Authenticate", "Create a job", "Handle errors", "Next steps"],
      langs: ["typescript", "bash"],
      mdx: true,
      minChars: 7000,
      mime: "text/mdx",
    }),
    markdown("webhooks.mdx", 6, {
      title: "Receiving webhooks",
      frontMatter: { tags: ["webhooks"] },
      h2: ["Endpoints", "Verifying signatures", "Retries", "Event types"],
      langs: ["go", "json", "python"],
      mdx: true,
      minChars: 5000,
      mime: undefined,
    }),
    rst(
      "scheduler-docs.rst",
      7,
      "Scheduler Configuration",
      [
        "Installation",
        "Cron expressions",
        "Time zones",
        "Concurrency limits",
        "Failure handling",
        "API reference",
      ],
      9000,
    ),
    rst(
      "changelog-notes.rst",
      8,
      "Upgrade Notes for 5.0",
      ["Breaking changes", "Deprecations", "New settings", "Migration steps"],
      4000,
    ),
    asciidoc(
      "operations-manual.adoc",
      9,
      "Ledger Operations Manual",
      ["Architecture", "Deploying", "Backups and restore", "Monitoring", "Incident response"],
      9000,
    ),
    asciidoc(
      "api-conventions.adoc",
      10,
      "API Conventions",
      ["Naming", "Pagination", "Errors", "Versioning"],
      4000,
    ),
  ];
}
