// Structured data: paginated API responses, GeoJSON, OpenAPI, JSON Schema, package manifests and
// lock files, CI pipelines, Helm values, compose files, Kubernetes lists, Maven POM, JUnit XML,
// SVG, RSS/Atom, .csproj, JMeter plans, CSV/TSV tables and HTML pages, each shaped as its
// specification describes. Facts: counts, key fields, names, pagination, value distributions.

import { FIRST_NAMES, SERVICES, countRe, esc, factsFor, pad2, rng, seedOf } from "../lib.mjs";

const FAMILY = "structured";

function entry(file, format, toolName, mimeType, kind, content, facts) {
  return { file, format, family: FAMILY, toolName, mimeType, kind, content, facts };
}

const ITEMS = ["items", "elements", "objects", "records", "entries", "values"];

/** A small YAML emitter for plain data (maps, lists, scalars), block style. */
function yaml(value, indent = 0) {
  const pad = " ".repeat(indent);
  const scalar = (v) => {
    if (v === null) return "null";
    if (typeof v === "string")
      return /^[\w./-][\w ./:@-]*$/.test(v) &&
        !/^(true|false|null|yes|no|\d[\d.]*)$/i.test(v) &&
        !/: /.test(v)
        ? v
        : JSON.stringify(v);
    return String(v);
  };
  if (Array.isArray(value)) {
    if (value.length === 0) return `${pad}[]\n`;
    return value
      .map((v) => {
        if (v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length) {
          const inner = yaml(v, indent + 2).slice(indent + 2);
          return `${pad}- ${inner}`;
        }
        return `${pad}- ${v && typeof v === "object" ? yaml(v, indent + 2).trim() : scalar(v)}\n`;
      })
      .join("");
  }
  if (value && typeof value === "object") {
    return Object.entries(value)
      .map(([k, v]) => {
        const key = /^[\w./-]+$/.test(k) ? k : JSON.stringify(k);
        if (v && typeof v === "object" && (Array.isArray(v) ? v.length : Object.keys(v).length))
          return `${pad}${key}:\n${yaml(v, Array.isArray(v) ? indent : indent + 2)}`;
        if (v && typeof v === "object") return `${pad}${key}: ${Array.isArray(v) ? "[]" : "{}"}\n`;
        return `${pad}${key}: ${scalar(v)}\n`;
      })
      .join("");
  }
  return `${pad}${scalar(value)}\n`;
}

// --- JSON -----------------------------------------------------------------------------------

function paginated(file, seed, n, style) {
  const r = rng(seedOf(file) + seed);
  const data = [];
  const statuses = {};
  for (let i = 0; i < n; i++) {
    const status = r.pick(["succeeded", "succeeded", "succeeded", "pending", "failed"]);
    statuses[status] = (statuses[status] ?? 0) + 1;
    data.push({
      id: `pi_${r.hex(14)}`,
      object: "payment_intent",
      amount: r.int(100, 99999),
      currency: r.pick(["usd", "eur", "gbp"]),
      status,
      customer: `cus_${r.hex(10)}`,
      created: 1790000000 + i * 37,
      metadata: { order_id: String(r.int(10000, 99999)) },
    });
  }
  const cursor =
    style === "stripe" ? data[n - 1].id : Buffer.from(`offset:${n}:${r.hex(6)}`).toString("base64");
  const body =
    style === "stripe"
      ? { object: "list", url: "/v1/payment_intents", has_more: true, data }
      : {
          data,
          meta: { total_count: n * 7, page_size: n },
          links: { next: `https://api.example.com/v2/payments?cursor=${cursor}` },
          next_cursor: cursor,
          has_more: true,
        };
  const F = factsFor(file);
  F.count(
    "items",
    `${n} items in data`,
    n,
    ["data", ...ITEMS, "payment"],
    '"object": "payment_intent"',
  );
  F.re("has-more", "has_more is true", "has_more[^\\n]{0,10}\\btrue\\b", '"has_more": true');
  if (style !== "stripe") F.has("cursor", "the next cursor", [cursor], esc(cursor));
  F.re(
    "failed",
    `${statuses.failed} failed`,
    countRe(statuses.failed, ["failed"]),
    '"status": "failed"',
    { evidenceCount: statuses.failed },
  );
  F.has("field", "records have a currency field", ["currency"], '"currency"');
  return entry(
    file,
    "paginated-api-json",
    "http_get",
    "application/json",
    "json",
    `${JSON.stringify(body, null, 2)}\n`,
    F.list,
  );
}

function geojson(file, seed, n) {
  const r = rng(seedOf(file) + seed);
  const features = [];
  let _polygons = 0;
  for (let i = 0; i < n; i++) {
    const poly = r.chance(0.2);
    if (poly) _polygons++;
    const x = 13 + r.next();
    const y = 52 + r.next();
    features.push({
      type: "Feature",
      id: `station-${i}`,
      geometry: poly
        ? {
            type: "Polygon",
            coordinates: [
              [
                [x, y],
                [x + 0.01, y],
                [x + 0.01, y + 0.01],
                [x, y],
              ],
            ],
          }
        : { type: "Point", coordinates: [Number(x.toFixed(5)), Number(y.toFixed(5))] },
      properties: {
        name: `${r.pick(["Nord", "Süd", "Ost", "West"])}platz ${i}`,
        capacity: r.int(5, 40),
        operator: r.pick(["nextbike", "cityride"]),
      },
    });
  }
  const F = factsFor(file);
  F.has("fc", "a FeatureCollection", ["FeatureCollection"], '"FeatureCollection"');
  F.count("features", `${n} features`, n, ["features", ...ITEMS], '"type":"Feature"');
  F.has("poly", "geometries include Polygon", ["Polygon"], '"Polygon"');
  F.has("prop", "properties include capacity", ["capacity"], '"capacity"');
  return entry(
    file,
    "geojson",
    "http_get",
    "application/geo+json",
    "json",
    `${JSON.stringify({ type: "FeatureCollection", features })}\n`,
    F.list,
  );
}

function openapi(file, seed, nPaths, asYaml) {
  const r = rng(seedOf(file) + seed);
  const paths = {};
  const names = [];
  for (let i = 0; i < nPaths; i++) {
    const res = `${r.pick(SERVICES)}${i}`;
    names.push(`/v1/${res}`);
    paths[`/v1/${res}`] = {
      get: {
        operationId: `list_${res}`,
        summary: `List ${res}`,
        parameters: [{ name: "cursor", in: "query", schema: { type: "string" } }],
        responses: {
          200: {
            description: "OK",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Page" } } },
          },
        },
      },
      post: {
        operationId: `create_${res}`,
        requestBody: {
          required: true,
          content: { "application/json": { schema: { $ref: `#/components/schemas/${res}` } } },
        },
        responses: { 201: { description: "Created" }, 422: { description: "Validation error" } },
      },
    };
  }
  const doc = {
    openapi: "3.1.0",
    info: { title: "Acme Commerce API", version: "2.7.0" },
    servers: [{ url: "https://api.example.com" }],
    paths,
    components: {
      schemas: {
        Page: {
          type: "object",
          properties: { has_more: { type: "boolean" }, next_cursor: { type: "string" } },
        },
      },
      securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
    },
  };
  const text = asYaml ? yaml(doc) : `${JSON.stringify(doc, null, 2)}\n`;
  const F = factsFor(file);
  F.has("title", "title Acme Commerce API", ["Acme Commerce API"], "Acme Commerce API");
  F.re(
    "paths",
    `${nPaths} paths`,
    countRe(nPaths, ["paths", "endpoints", "routes", "keys"]),
    asYaml ? "^  /v1/" : '^    "/v1/',
    { evidenceCount: nPaths },
  );
  F.has("version", "OpenAPI 3.1.0", ["3.1.0"], "3\\.1\\.0");
  F.has("path", `a path ${names[0]}`, [names[0]], esc(names[0]));
  F.has("components", "top-level keys include components", ["components"], "components");
  return entry(
    file,
    asYaml ? "openapi-yaml" : "openapi-json",
    "read_file",
    asYaml ? "application/yaml" : "application/json",
    asYaml ? "yaml" : "json",
    text,
    F.list,
  );
}

function jsonSchema(file, seed, nProps) {
  const r = rng(seedOf(file) + seed);
  const properties = {};
  for (let i = 0; i < nProps; i++)
    properties[`${r.pick(["billing", "shipping", "customer", "line", "tax"])}_${r.word(5)}_${i}`] =
      {
        type: r.pick(["string", "integer", "number", "boolean"]),
        description: `The ${r.word(7)} of the order.`,
      };
  const required = Object.keys(properties).slice(0, 4);
  const doc = {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: "https://schemas.example.com/order.json",
    title: "Order",
    type: "object",
    required,
    properties,
    additionalProperties: false,
  };
  const F = factsFor(file);
  F.has(
    "title",
    "title Order",
    ['"Order"', "title: Order", "title=Order", "Order"],
    '"title": "Order"',
  );
  F.has("draft", "draft 2020-12", ["2020-12"], "2020-12");
  F.has("required", `required includes ${required[0]}`, [required[0]], esc(required[0]));
  F.re(
    "props",
    `${nProps} properties`,
    countRe(nProps, ["properties", "keys", "fields"]),
    '"type": "(string|integer|number|boolean)"',
    { evidenceCount: nProps },
  );
  return entry(
    file,
    "json-schema",
    "read_file",
    "application/schema+json",
    "json",
    `${JSON.stringify(doc, null, 2)}\n`,
    F.list,
  );
}

function packageJson(file, seed) {
  const r = rng(seedOf(file) + seed);
  const deps = {};
  for (const d of [
    "react",
    "react-dom",
    "next",
    "zod",
    "@tanstack/react-query",
    "date-fns",
    "clsx",
    "lodash-es",
  ])
    deps[d] = `^${r.int(1, 19)}.${r.int(0, 20)}.${r.int(0, 9)}`;
  const dev = {};
  for (let i = 0; i < 70; i++)
    dev[`@types/${r.word(r.int(3, 9))}`] = `^${r.int(1, 20)}.${r.int(0, 9)}.${r.int(0, 9)}`;
  const scripts = {
    dev: "next dev",
    build: "next build",
    test: "vitest run",
    lint: "eslint .",
    typecheck: "tsc --noEmit",
  };
  const doc = {
    name: "@acme/storefront",
    version: "3.14.2",
    private: true,
    type: "module",
    scripts,
    dependencies: deps,
    devDependencies: dev,
    engines: { node: ">=20" },
    packageManager: "pnpm@9.12.0",
  };
  const F = factsFor(file);
  F.has("name", "name @acme/storefront", ["@acme/storefront"], "@acme/storefront");
  F.has("version", "version 3.14.2", ["3.14.2"], "3\\.14\\.2");
  F.has("dep", "depends on react", ["react"], '"react"');
  F.has("scripts", "scripts include typecheck", ["typecheck"], '"typecheck"');
  F.re(
    "devdeps",
    "70 devDependencies",
    countRe(70, ["devDependencies", "keys", "entries", "dev dependencies"]),
    '"@types/',
    { evidenceCount: 70 },
  );
  return entry(
    file,
    "package-json",
    "read_file",
    "application/json",
    "json",
    `${JSON.stringify(doc, null, 2)}\n`,
    F.list,
  );
}

function packageLock(file, seed, n) {
  const r = rng(seedOf(file) + seed);
  const packages = {
    "": { name: "storefront", version: "3.14.2", dependencies: { react: "^19.0.0" } },
  };
  for (let i = 0; i < n; i++) {
    const name = `${r.word(r.int(3, 8))}${i}`;
    packages[`node_modules/${name}`] = {
      version: `${r.int(0, 9)}.${r.int(0, 20)}.${r.int(0, 9)}`,
      resolved: `https://registry.npmjs.org/${name}/-/${name}-1.0.0.tgz`,
      integrity: `sha512-${Buffer.from(r.hex(40)).toString("base64")}`,
      ...(r.chance(0.3) ? { dev: true } : {}),
      license: r.pick(["MIT", "ISC", "Apache-2.0"]),
    };
  }
  const doc = {
    name: "storefront",
    version: "3.14.2",
    lockfileVersion: 3,
    requires: true,
    packages,
  };
  const F = factsFor(file);
  F.has("name", "name storefront", ["storefront"], '"name": "storefront"');
  F.re("lockv", "lockfileVersion 3", "lockfileVersion[^\\n\\d]{0,5}3\\b", '"lockfileVersion": 3');
  F.re(
    "pkgs",
    `${n + 1} packages`,
    countRe(n + 1, ["packages", "keys", "entries"]),
    '^    "(node_modules/[^"]+)?": \\{',
    { evidenceCount: n + 1 },
  );
  F.has("field", "entries have integrity", ["integrity"], '"integrity"');
  return entry(
    file,
    "package-lock-json",
    "read_file",
    "application/json",
    "json",
    `${JSON.stringify(doc, null, 2)}\n`,
    F.list,
  );
}

// --- TOML ---------------------------------------------------------------------------------------

function cargoToml(file, seed) {
  const r = rng(seedOf(file) + seed);
  const lines = [
    "[package]",
    'name = "ledger-server"',
    'version = "0.9.3"',
    'edition = "2021"',
    'rust-version = "1.80"',
    'license = "Apache-2.0"',
    'description = "Double-entry ledger service"',
    "",
    "[dependencies]",
  ];
  const deps = [
    "tokio",
    "axum",
    "serde",
    "serde_json",
    "sqlx",
    "tracing",
    "tracing-subscriber",
    "thiserror",
    "anyhow",
    "uuid",
    "chrono",
    "tower",
    "tower-http",
    "hyper",
    "bytes",
    "futures",
  ];
  for (const d of deps)
    lines.push(
      r.chance(0.5)
        ? `${d} = "${r.int(0, 1)}.${r.int(1, 40)}"`
        : `${d} = { version = "${r.int(0, 1)}.${r.int(1, 40)}", features = ["${r.pick(["full", "derive", "macros", "runtime-tokio"])}"] }`,
    );
  lines.push("", "[dev-dependencies]", 'proptest = "1.5"', 'insta = "1.40"', "");
  for (let i = 0; i < 40; i++)
    lines.push(`[[bench]]`, `name = "bench_${r.word(6)}_${i}"`, "harness = false", "");
  lines.push("[profile.release]", "lto = true", "codegen-units = 1");
  const F = factsFor(file);
  F.has("name", "package ledger-server", ["ledger-server"], 'name = "ledger-server"');
  F.has("edition", "edition 2021", ["2021"], 'edition = "2021"');
  F.has("dep", "depends on axum", ["axum"], "^axum = ");
  F.has("section", "a [dev-dependencies] table", ["dev-dependencies"], "^\\[dev-dependencies\\]");
  return entry(
    file,
    "cargo-toml",
    "read_file",
    "application/toml",
    "text",
    `${lines.join("\n")}\n`,
    F.list,
  );
}

function cargoLock(file, seed, n) {
  const r = rng(seedOf(file) + seed);
  const lines = [
    "# This file is automatically @generated by Cargo.",
    "# It is not intended for manual editing.",
    "version = 4",
    "",
  ];
  for (let i = 0; i < n; i++) {
    lines.push(
      "[[package]]",
      `name = "${r.word(r.int(3, 9))}-${i}"`,
      `version = "${r.int(0, 2)}.${r.int(0, 30)}.${r.int(0, 9)}"`,
      'source = "registry+https://github.com/rust-lang/crates.io-index"',
      `checksum = "${r.hex(64)}"`,
    );
    if (r.chance(0.5))
      lines.push(
        "dependencies = [",
        ...Array.from({ length: r.int(1, 4) }, () => ` "${r.word(6)}",`),
        "]",
      );
    lines.push("");
  }
  const F = factsFor(file);
  F.re("version", "lock format version 4", "version[^\\n\\d]{0,5}\\b4\\b", "^version = 4$");
  F.re(
    "pkgs",
    `${n} packages`,
    countRe(n, ["packages", "[[package]]", "entries", "crates"]),
    "^\\[\\[package\\]\\]$",
    { evidenceCount: n },
  );
  F.has("registry", "from crates.io", ["crates.io"], "crates\\.io-index");
  return entry(file, "cargo-lock", "read_file", undefined, "text", `${lines.join("\n")}\n`, F.list);
}

// --- YAML -------------------------------------------------------------------------------------

function githubActions(file, seed) {
  const r = rng(seedOf(file) + seed);
  const jobs = {};
  const names = ["lint", "test", "build", "e2e", "publish"];
  for (const j of names)
    jobs[j] = {
      "runs-on": j === "e2e" ? "ubuntu-24.04" : "ubuntu-latest",
      ...(j !== "lint" ? { needs: j === "test" ? ["lint"] : ["test"] } : {}),
      ...(j === "test"
        ? { strategy: { matrix: { node: [18, 20, 22], os: ["ubuntu-latest", "windows-latest"] } } }
        : {}),
      steps: [
        { uses: "actions/checkout@v4" },
        { uses: "actions/setup-node@v4", with: { "node-version": 20, cache: "pnpm" } },
        ...Array.from({ length: r.int(6, 12) }, (_, k) => ({
          name: `${j} step ${k}`,
          run: `pnpm run ${j}:${r.word(5)}`,
          env: { CI: "true" },
        })),
      ],
    };
  const doc = {
    name: "CI",
    on: {
      push: { branches: ["main"] },
      pull_request: { branches: ["main", "release/**"] },
      workflow_dispatch: null,
    },
    permissions: { contents: "read" },
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression
    concurrency: { group: "ci-${{ github.ref }}", "cancel-in-progress": true },
    jobs,
  };
  const F = factsFor(file);
  F.has("trigger", "triggered by pull_request", ["pull_request"], "pull_request");
  F.has("job", "jobs include e2e", ["e2e"], "^  e2e:");
  F.has("checkout", "uses actions/checkout@v4", ["actions/checkout"], "actions/checkout@v4");
  F.re("jobs", "5 jobs", countRe(5, ["jobs"]), "^  (lint|test|build|e2e|publish):$", {
    evidenceCount: 5,
  });
  return entry(file, "github-actions", "read_file", undefined, "yaml", yaml(doc), F.list);
}

function gitlabCi(file, seed) {
  const r = rng(seedOf(file) + seed);
  const doc = {
    stages: ["build", "test", "deploy"],
    variables: { DOCKER_DRIVER: "overlay2", GIT_DEPTH: 20 },
    default: { image: "node:20-bookworm" },
  };
  const jobs = [];
  for (let i = 0; i < 24; i++) {
    const stage = r.pick(["build", "test", "test", "deploy"]);
    const name = `${stage}:${r.pick(SERVICES)}-${i}`;
    jobs.push(name);
    doc[name] = {
      stage,
      script: [`cd services/${name.split(":")[1]}`, "npm ci", `npm run ${stage}`],
      ...(stage === "deploy"
        ? {
            environment: { name: "production" },
            rules: [{ if: '$CI_COMMIT_BRANCH == "main"', when: "manual" }],
          }
        : { artifacts: { paths: ["dist/"], expire_in: "1 week" } }),
    };
  }
  const F = factsFor(file);
  F.has("stages", "stages build, test, deploy", ["deploy"], "^- deploy$");
  F.has("image", "image node:20-bookworm", ["node:20-bookworm"], "node:20-bookworm");
  F.has("job", `a job ${jobs[0]}`, [jobs[0]], esc(jobs[0]));
  F.has("env", "an environment production", ["production"], "production");
  return entry(file, "gitlab-ci", "read_file", "application/x-yaml", "yaml", yaml(doc), F.list);
}

function helmValues(file, seed) {
  const r = rng(seedOf(file) + seed);
  const doc = {
    replicaCount: 3,
    image: {
      repository: "registry.example.com/checkout-api",
      tag: "4.12.0",
      pullPolicy: "IfNotPresent",
    },
    serviceAccount: { create: true, name: "checkout" },
    service: { type: "ClusterIP", port: 8080 },
    ingress: {
      enabled: true,
      className: "nginx",
      hosts: [{ host: "checkout.example.com", paths: [{ path: "/", pathType: "Prefix" }] }],
    },
    resources: {
      limits: { cpu: "1", memory: "512Mi" },
      requests: { cpu: "250m", memory: "256Mi" },
    },
    autoscaling: {
      enabled: true,
      minReplicas: 3,
      maxReplicas: 12,
      targetCPUUtilizationPercentage: 70,
    },
    env: {},
  };
  for (let i = 0; i < 90; i++)
    doc.env[`${r.word(6).toUpperCase()}_${r.word(4).toUpperCase()}`] = r.chance(0.5)
      ? r.word(10)
      : String(r.int(1, 9999));
  const F = factsFor(file);
  F.re("replicas", "replicaCount 3", "replicaCount[^\\n\\d]{0,5}3\\b", "^replicaCount: 3$");
  F.has("repo", "image registry.example.com/checkout-api", ["checkout-api"], "checkout-api");
  F.has("keys", "top-level keys include autoscaling", ["autoscaling"], "^autoscaling:");
  F.has(
    "ingress",
    "ingress host checkout.example.com",
    ["checkout.example.com"],
    "checkout\\.example\\.com",
  );
  return entry(file, "helm-values", "read_file", undefined, "yaml", yaml(doc), F.list);
}

function compose(file, seed) {
  const r = rng(seedOf(file) + seed);
  const services = {};
  const names = [];
  for (let i = 0; i < 14; i++) {
    const name = `${SERVICES[i % SERVICES.length]}${i >= SERVICES.length ? "-2" : ""}`;
    names.push(name);
    services[name] = {
      image: `registry.example.com/${name}:${r.int(1, 5)}.${r.int(0, 9)}`,
      restart: "unless-stopped",
      environment: Object.fromEntries(
        Array.from({ length: 8 }, () => [
          `${r.word(5).toUpperCase()}_URL`,
          `http://${r.pick(SERVICES)}:8080`,
        ]),
      ),
      depends_on: [r.pick(SERVICES)],
      ...(i === 6 ? { ports: ["8443:8443"] } : {}),
      healthcheck: {
        test: ["CMD", "curl", "-f", "http://localhost:8080/healthz"],
        interval: "10s",
      },
    };
  }
  services.postgres = {
    image: "postgres:16",
    volumes: ["pgdata:/var/lib/postgresql/data"],
    environment: { POSTGRES_PASSWORD: "example" },
  };
  const doc = { name: "shop", services, volumes: { pgdata: {} } };
  const F = factsFor(file);
  F.re("services", "15 services", countRe(15, ["services", "keys", "entries"]), "^    image: ", {
    evidenceCount: 15,
  });
  F.has("postgres", "a postgres:16 service", ["postgres"], "postgres:16");
  F.has("port", "the gateway publishes port 8443", ["8443"], "8443:8443");
  F.has("svc", `services include ${names[1]}`, [names[1]], `^  ${esc(names[1])}:`);
  return entry(file, "docker-compose", "read_file", undefined, "yaml", yaml(doc), F.list);
}

function k8sList(file, seed, n, asJson) {
  const r = rng(seedOf(file) + seed);
  const items = [];
  const kinds = {};
  for (let i = 0; i < n; i++) {
    const kind = r.pick(["Deployment", "Service", "ConfigMap", "Deployment"]);
    kinds[kind] = (kinds[kind] ?? 0) + 1;
    const name = `${r.pick(SERVICES)}-${i}`;
    const meta = {
      name,
      namespace: "prod",
      labels: { app: name, "app.kubernetes.io/part-of": "shop" },
    };
    if (kind === "Deployment")
      items.push({
        apiVersion: "apps/v1",
        kind,
        metadata: meta,
        spec: {
          replicas: r.int(1, 5),
          selector: { matchLabels: { app: name } },
          template: {
            metadata: { labels: { app: name } },
            spec: {
              containers: [
                {
                  name: "app",
                  image: `registry.example.com/${name}:1.${r.int(0, 9)}`,
                  ports: [{ containerPort: 8080 }],
                },
              ],
            },
          },
        },
      });
    else if (kind === "Service")
      items.push({
        apiVersion: "v1",
        kind,
        metadata: meta,
        spec: { selector: { app: name }, ports: [{ port: 80, targetPort: 8080 }] },
      });
    else
      items.push({
        apiVersion: "v1",
        kind,
        metadata: meta,
        data: { LOG_LEVEL: "info", REGION: "eu-west-1" },
      });
  }
  const doc = { apiVersion: "v1", kind: "List", metadata: { resourceVersion: "" }, items };
  const F = factsFor(file);
  F.count(
    "items",
    `${n} items`,
    n,
    ["items", "resources", "objects", "entries", "elements"],
    asJson ? '^ {16}"name": "[a-z]+-\\d+",$' : "^    name: [a-z]+-\\d+$",
  );
  F.has("kinds", "kinds include Deployment", ["Deployment"], "Deployment");
  F.has("cm", "kinds include ConfigMap", ["ConfigMap"], "ConfigMap");
  F.has("list", "a List", ["List"], "List");
  return entry(
    file,
    asJson ? "kubernetes-list-json" : "kubernetes-list-yaml",
    "kubectl",
    asJson ? "application/json" : undefined,
    asJson ? "json" : "yaml",
    asJson ? `${JSON.stringify(doc, null, 4)}\n` : yaml(doc),
    F.list,
  );
}

// --- XML --------------------------------------------------------------------------------------

function pom(file, seed) {
  const r = rng(seedOf(file) + seed);
  const deps = [];
  for (let i = 0; i < 30; i++)
    deps.push(
      `    <dependency>\n      <groupId>${r.pick(["org.springframework.boot", "io.micrometer", "com.fasterxml.jackson.core", "org.postgresql"])}</groupId>\n      <artifactId>${r.pick(["spring-boot-starter", "micrometer", "jackson", "postgresql"])}-${r.word(5)}</artifactId>\n${r.chance(0.3) ? "      <scope>test</scope>\n" : ""}    </dependency>`,
    );
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">\n  <modelVersion>4.0.0</modelVersion>\n  <parent>\n    <groupId>org.springframework.boot</groupId>\n    <artifactId>spring-boot-starter-parent</artifactId>\n    <version>3.3.5</version>\n  </parent>\n  <groupId>com.acme</groupId>\n  <artifactId>invoice-service</artifactId>\n  <version>1.8.0-SNAPSHOT</version>\n  <properties>\n    <java.version>21</java.version>\n  </properties>\n  <dependencies>\n${deps.join("\n")}\n  </dependencies>\n  <build>\n    <plugins>\n      <plugin>\n        <groupId>org.springframework.boot</groupId>\n        <artifactId>spring-boot-maven-plugin</artifactId>\n      </plugin>\n    </plugins>\n  </build>\n</project>\n`;
  const F = factsFor(file);
  F.has(
    "artifact",
    "artifactId invoice-service",
    ["invoice-service"],
    "<artifactId>invoice-service</artifactId>",
  );
  F.re("java", "Java 21", "java[^\\n]{0,20}\\b21\\b", "<java\\.version>21<");
  F.re(
    "deps",
    "30 dependencies",
    countRe(30, ["dependencies", "dependency", "elements"]),
    "<dependency>",
    { evidenceCount: 30 },
  );
  F.has(
    "parent",
    "parent spring-boot-starter-parent",
    ["spring-boot-starter-parent"],
    "spring-boot-starter-parent",
  );
  return entry(file, "maven-pom", "read_file", "application/xml", "xml", xml, F.list);
}

function junitXml(file, seed, n) {
  const r = rng(seedOf(file) + seed);
  const cases = [];
  const failing = [];
  for (let i = 0; i < n; i++) {
    const name = `test_${r.pick(["refund", "invoice", "ledger", "tax"])}_${r.word(6)}_${i}`;
    const fail = i > 5 && r.chance(0.04);
    if (fail) failing.push(name);
    cases.push(
      `    <testcase classname="tests.test_${r.pick(["billing", "ledger"])}" name="${name}" time="${(r.int(1, 900) / 1000).toFixed(3)}"${fail ? `>\n      <failure message="AssertionError: expected 1200 but got 1150" type="AssertionError">tests/test_billing.py:${r.int(20, 400)}: AssertionError</failure>\n    </testcase>` : " />"}`,
    );
  }
  const xml = `<?xml version="1.0" encoding="utf-8"?>\n<testsuites name="pytest tests" tests="${n}" failures="${failing.length}" errors="0" skipped="0" time="41.207">\n  <testsuite name="pytest" errors="0" failures="${failing.length}" skipped="0" tests="${n}" time="41.207" timestamp="2026-11-30T10:11:12.000000+00:00" hostname="ci-runner-7">\n${cases.join("\n")}\n  </testsuite>\n</testsuites>\n`;
  const F = factsFor(file);
  F.re(
    "tests",
    `${n} tests`,
    `\\btests?\\b[^\\n\\d]{0,15}\\b${n}\\b|\\b${n}\\b[^\\n]{0,20}\\b(tests|testcases|test cases|cases)`,
    "<testcase ",
    { evidenceCount: n },
  );
  F.re(
    "failures",
    `${failing.length} failures`,
    countRe(failing.length, ["failures", "failed", "failure", "failing"]),
    "<failure ",
    { evidenceCount: failing.length },
  );
  F.has("failing", `failing test ${failing[0]}`, [failing[0]], esc(failing[0]));
  F.has("assert", "AssertionError", ["AssertionError"], "AssertionError");
  return entry(file, "junit-xml", "read_file", "application/xml", "xml", xml, F.list);
}

function svg(file, seed, n) {
  const r = rng(seedOf(file) + seed);
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="960" height="540" viewBox="0 0 960 540" role="img" aria-labelledby="t">`,
    `  <title id="t">Weekly active users by region</title>`,
    '  <g class="bars">',
  ];
  for (let i = 0; i < n; i++)
    parts.push(
      `    <rect x="${40 + i * 8}" y="${r.int(40, 400)}" width="6" height="${r.int(20, 480)}" fill="${r.pick(["#1f77b4", "#ff7f0e", "#2ca02c"])}"><title>week ${i}: ${r.int(1000, 90000)}</title></rect>`,
    );
  parts.push(
    "  </g>",
    `  <path d="M40 500 ${Array.from({ length: 60 }, (_, i) => `L${40 + i * 15} ${r.int(100, 500)}`).join(" ")}" stroke="#333" fill="none"/>`,
    "</svg>",
  );
  const F = factsFor(file);
  F.has(
    "title",
    "title Weekly active users by region",
    ["Weekly active users by region"],
    "Weekly active users",
  );
  F.has("viewbox", "viewBox 0 0 960 540", ["0 0 960 540"], "0 0 960 540");
  F.re("rects", `${n} rect elements`, countRe(n, ["rect", "rects", "elements"]), "<rect ", {
    evidenceCount: n,
  });
  return entry(file, "svg", "read_file", "image/svg+xml", "xml", `${parts.join("\n")}\n`, F.list);
}

function rss(file, seed, n) {
  const r = rng(seedOf(file) + seed);
  const items = [];
  const first = `Release 5.${n}: faster exports and a new audit log`;
  for (let i = n; i > 0; i--)
    items.push(
      `    <item>\n      <title>${i === n ? first : `Release 5.${i}: ${r.word(7)} ${r.word(5)} fixes`}</title>\n      <link>https://blog.example.com/releases/5-${i}</link>\n      <guid isPermaLink="true">https://blog.example.com/releases/5-${i}</guid>\n      <pubDate>Mon, ${pad2(r.int(1, 28))} Sep 2026 09:00:00 GMT</pubDate>\n      <description>${r.word(8)} ${r.word(5)} ${r.word(9)} ${r.word(4)} ${r.word(7)}.</description>\n    </item>`,
    );
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">\n  <channel>\n    <title>Acme Engineering Blog</title>\n    <link>https://blog.example.com/</link>\n    <description>Release notes and engineering posts</description>\n    <language>en-us</language>\n${items.join("\n")}\n  </channel>\n</rss>\n`;
  const F = factsFor(file);
  F.has(
    "title",
    "channel Acme Engineering Blog",
    ["Acme Engineering Blog"],
    "Acme Engineering Blog",
  );
  F.re(
    "items",
    `${n} items`,
    countRe(n, ["items", "item", "entries", "posts", "articles"]),
    "<item>",
    { evidenceCount: n },
  );
  F.has(
    "first",
    "the newest item's title",
    ["faster exports and a new audit log"],
    "faster exports",
  );
  return entry(file, "rss", "http_get", "application/rss+xml", "xml", xml, F.list);
}

function atom(file, seed, n) {
  const r = rng(seedOf(file) + seed);
  const entries = [];
  for (let i = 0; i < n; i++)
    entries.push(
      `  <entry>\n    <title>${i === 0 ? "Incident report: checkout latency on 28 November" : `${r.word(6)} ${r.word(8)} ${r.word(4)}`}</title>\n    <link href="https://status.example.com/incidents/${1000 + i}"/>\n    <id>urn:uuid:${r.hex(8)}-${r.hex(4)}-${r.hex(4)}-${r.hex(4)}-${r.hex(12)}</id>\n    <updated>2026-11-${pad2(28 - (i % 27))}T12:00:00Z</updated>\n    <author><name>${r.pick(FIRST_NAMES)}</name></author>\n    <summary>${r.word(7)} ${r.word(5)} ${r.word(6)}.</summary>\n  </entry>`,
    );
  const xml = `<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n  <title>Acme Status</title>\n  <link href="https://status.example.com/"/>\n  <updated>2026-11-28T12:00:00Z</updated>\n  <id>urn:uuid:60a76c80-d399-11d9-b93C-0003939e0af6</id>\n${entries.join("\n")}\n</feed>\n`;
  const F = factsFor(file);
  F.has("title", "feed Acme Status", ["Acme Status"], "<title>Acme Status</title>");
  F.re("entries", `${n} entries`, countRe(n, ["entries", "entry", "items", "posts"]), "<entry>", {
    evidenceCount: n,
  });
  F.has(
    "first",
    "the first entry is the checkout latency incident",
    ["checkout latency"],
    "checkout latency",
  );
  return entry(file, "atom", "http_get", "application/atom+xml", "xml", xml, F.list);
}

function csproj(file, seed) {
  const r = rng(seedOf(file) + seed);
  const refs = [];
  const names = [
    "Microsoft.EntityFrameworkCore",
    "Serilog.AspNetCore",
    "Polly",
    "MediatR",
    "FluentValidation",
    "Swashbuckle.AspNetCore",
    "Npgsql.EntityFrameworkCore.PostgreSQL",
    "AutoMapper",
  ];
  for (let i = 0; i < 60; i++)
    refs.push(
      `    <PackageReference Include="${i < names.length ? names[i] : `Acme.Internal.${r.word(6)}${i}`}" Version="${r.int(1, 9)}.${r.int(0, 20)}.${r.int(0, 9)}" />`,
    );
  const xml = `<Project Sdk="Microsoft.NET.Sdk.Web">\n\n  <PropertyGroup>\n    <TargetFramework>net8.0</TargetFramework>\n    <Nullable>enable</Nullable>\n    <ImplicitUsings>enable</ImplicitUsings>\n    <RootNamespace>Acme.Ledger.Api</RootNamespace>\n  </PropertyGroup>\n\n  <ItemGroup>\n${refs.join("\n")}\n  </ItemGroup>\n\n  <ItemGroup>\n    <ProjectReference Include="..\\Acme.Ledger.Core\\Acme.Ledger.Core.csproj" />\n  </ItemGroup>\n\n</Project>\n`;
  const F = factsFor(file);
  F.has("tfm", "targets net8.0", ["net8.0"], "net8\\.0");
  F.re(
    "refs",
    "60 package references",
    countRe(60, ["PackageReference", "package references", "packages", "references"]),
    "<PackageReference ",
    { evidenceCount: 60 },
  );
  F.has("pkg", "references Polly", ["Polly"], '"Polly"');
  F.has("sdk", "Microsoft.NET.Sdk.Web", ["Microsoft.NET.Sdk.Web"], "Microsoft\\.NET\\.Sdk\\.Web");
  return entry(file, "csproj", "read_file", undefined, "xml", xml, F.list);
}

function jmeter(file, seed, n) {
  const r = rng(seedOf(file) + seed);
  const samplers = [];
  for (let i = 0; i < n; i++) {
    const path = `/api/v1/${r.pick(["products", "cart", "checkout", "search"])}`;
    samplers.push(
      `        <HTTPSamplerProxy guiclass="HttpTestSampleGui" testclass="HTTPSamplerProxy" testname="${r.pick(["GET", "POST"])} ${path} #${i}" enabled="true">\n          <stringProp name="HTTPSampler.domain">shop.example.com</stringProp>\n          <stringProp name="HTTPSampler.port">443</stringProp>\n          <stringProp name="HTTPSampler.protocol">https</stringProp>\n          <stringProp name="HTTPSampler.path">${path}</stringProp>\n          <stringProp name="HTTPSampler.method">GET</stringProp>\n          <boolProp name="HTTPSampler.follow_redirects">true</boolProp>\n        </HTTPSamplerProxy>\n        <hashTree/>`,
    );
  }
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<jmeterTestPlan version="1.2" properties="5.0" jmeter="5.6.3">\n  <hashTree>\n    <TestPlan guiclass="TestPlanGui" testclass="TestPlan" testname="Checkout load test" enabled="true">\n      <boolProp name="TestPlan.functional_mode">false</boolProp>\n    </TestPlan>\n    <hashTree>\n      <ThreadGroup guiclass="ThreadGroupGui" testclass="ThreadGroup" testname="Shoppers" enabled="true">\n        <stringProp name="ThreadGroup.num_threads">250</stringProp>\n        <stringProp name="ThreadGroup.ramp_time">120</stringProp>\n        <stringProp name="ThreadGroup.duration">1800</stringProp>\n      </ThreadGroup>\n      <hashTree>\n${samplers.join("\n")}\n      </hashTree>\n    </hashTree>\n  </hashTree>\n</jmeterTestPlan>\n`;
  const F = factsFor(file);
  F.has("plan", "test plan Checkout load test", ["Checkout load test"], "Checkout load test");
  F.re(
    "samplers",
    `${n} HTTP samplers`,
    countRe(n, ["HTTPSamplerProxy", "samplers", "requests", "elements"]),
    "<HTTPSamplerProxy ",
    { evidenceCount: n },
  );
  F.has("threads", "250 threads", ["250"], 'num_threads">250<');
  F.has("domain", "domain shop.example.com", ["shop.example.com"], "shop\\.example\\.com");
  return entry(file, "jmeter-jmx", "read_file", undefined, "xml", xml, F.list);
}

// --- CSV / TSV ----------------------------------------------------------------------------------

function csv(file, seed, n, sep) {
  const r = rng(seedOf(file) + seed);
  const header = ["invoice_id", "customer", "country", "issued_on", "amount", "paid"];
  const rows = [header.join(sep)];
  const countries = {};
  for (let i = 0; i < n; i++) {
    const c = r.pick(["DE", "FR", "NL", "US", "US", "GB"]);
    countries[c] = (countries[c] ?? 0) + 1;
    const customer =
      sep === "," && r.chance(0.1)
        ? `"${r.pick(FIRST_NAMES)}, ${r.pick(["GmbH", "Ltd", "SAS"])}"`
        : `${r.pick(FIRST_NAMES)} ${r.pick(["GmbH", "Ltd", "SAS", "Inc"])}`;
    rows.push(
      [
        `INV-${20000 + i}`,
        customer,
        c,
        `2026-${pad2(r.int(1, 11))}-${pad2(r.int(1, 28))}`,
        (r.int(1000, 900000) / 100).toFixed(2),
        r.pick(["true", "false"]),
      ].join(sep),
    );
  }
  const F = factsFor(file);
  F.re("rows", `${n} rows`, countRe(n, ["rows", "records", "lines", "data rows"]), "^INV-", {
    evidenceCount: n,
  });
  F.re(
    "amount",
    "amount is numeric",
    "amount[^\\n]{0,30}\\b(decimal|float|number|numeric|double|real)\\b",
    `^INV-`,
  );
  F.re(
    "date",
    "issued_on is a date",
    "issued_on[^\\n]{0,40}\\b(date|datetime|timestamp|iso[- ]?8601|yyyy-mm-dd)\\b",
    "\\d{4}-\\d\\d-\\d\\d",
  );
  F.has("cols", "columns include customer", ["customer"], "customer");
  F.re("bool", "paid is boolean", "paid[^\\n]{0,30}\\b(bool|boolean|true/false)\\b", "true|false");
  return entry(
    file,
    sep === "," ? "csv" : "tsv",
    "read_file",
    sep === "," ? "text/csv" : "text/tab-separated-values",
    sep === "," ? "csv" : "tsv",
    `${rows.join("\n")}\n`,
    F.list,
  );
}

// --- HTML -------------------------------------------------------------------------------------

function html(file, seed, title, sections, rows) {
  const r = rng(seedOf(file) + seed);
  const body = [];
  let _links = 0;
  for (const s of sections) {
    body.push(`  <section id="${s.toLowerCase().replace(/\W+/g, "-")}">`, `    <h2>${s}</h2>`);
    for (let k = 0; k < 4; k++) {
      body.push(
        `    <p>${r.word(6)} ${r.word(4)} ${r.word(8)} <a href="/docs/${r.word(6)}">${r.word(5)} guide</a> ${r.word(7)} ${r.word(5)} ${r.word(9)}.</p>`,
      );
      _links++;
    }
    body.push("  </section>");
  }
  const table = [
    '  <table class="prices">',
    "    <thead><tr><th>Plan</th><th>Seats</th><th>Price</th></tr></thead>",
    "    <tbody>",
  ];
  for (let i = 0; i < rows; i++)
    table.push(
      `      <tr><td>${r.pick(["Starter", "Team", "Business", "Enterprise"])} ${i}</td><td>${r.int(1, 500)}</td><td>$${r.int(5, 900)}</td></tr>`,
    );
  table.push("    </tbody>", "  </table>");
  const doc = `<!DOCTYPE html>\n<html lang="en">\n<head>\n  <meta charset="utf-8">\n  <title>${title}</title>\n  <meta name="viewport" content="width=device-width, initial-scale=1">\n  <link rel="stylesheet" href="/assets/site.css">\n  <script src="/assets/app.js" defer></script>\n</head>\n<body>\n  <nav><a href="/">Home</a> <a href="/pricing">Pricing</a> <a href="/docs">Docs</a></nav>\n  <main>\n  <h1>${title.split(" | ")[0]}</h1>\n${body.join("\n")}\n${table.join("\n")}\n  </main>\n  <footer><p>&copy; 2026 Acme Inc.</p></footer>\n</body>\n</html>\n`;
  const F = factsFor(file);
  F.has("title", `the page title ${title}`, [title], `<title>${esc(title)}</title>`);
  F.has("h2", `h2: ${sections[1]}`, [sections[1]], `<h2>${esc(sections[1])}</h2>`);
  F.has(
    "h2-last",
    `h2: ${sections[sections.length - 1]}`,
    [sections[sections.length - 1]],
    `<h2>${esc(sections[sections.length - 1])}</h2>`,
  );
  F.re("table", `a table of ${rows} rows`, countRe(rows, ["rows", "tr"]), "<tr><td>", {
    evidenceCount: rows,
  });
  return entry(file, "html-page", "http_get", "text/html; charset=utf-8", "html", doc, F.list);
}

export function structured() {
  return [
    paginated("payment-intents.json", 1, 60, "stripe"),
    paginated("payments-page.json", 2, 90, "cursor"),
    paginated("charges-page.json", 29, 25, "cursor"),
    geojson("bike-stations.geojson", 3, 150),
    openapi("openapi.yaml", 4, 30, true),
    openapi("openapi.json", 5, 22, false),
    jsonSchema("order.schema.json", 6, 60),
    packageJson("package.json", 7),
    packageLock("package-lock.json", 8, 120),
    cargoToml("Cargo.toml", 9),
    cargoLock("Cargo.lock", 10, 140),
    githubActions("ci.yml", 11),
    gitlabCi(".gitlab-ci.yml", 12),
    helmValues("values.yaml", 13),
    compose("compose.yaml", 14),
    k8sList("k8s-list.yaml", 15, 40, false),
    k8sList("k8s-list.json", 16, 30, true),
    pom("pom.xml", 17),
    junitXml("junit-report.xml", 18, 240),
    svg("wau-chart.svg", 19, 110),
    rss("releases.rss", 20, 45),
    atom("status.atom", 21, 60),
    csproj("Ledger.Api.csproj", 22),
    jmeter("checkout-load.jmx", 23, 40),
    csv("invoices.csv", 24, 400, ","),
    csv("invoices-small.csv", 25, 60, ","),
    csv("invoices-export.csv", 30, 200, ","),
    csv("invoices.tsv", 26, 350, "\t"),
    csv("invoices-small.tsv", 31, 80, "\t"),
    html(
      "pricing.html",
      27,
      "Pricing | Acme Cloud",
      ["Plans", "What every plan includes", "Enterprise support", "Frequently asked questions"],
      60,
    ),
    html(
      "status-page.html",
      28,
      "System status | Acme",
      ["Current incidents", "Past incidents", "Scheduled maintenance"],
      30,
    ),
    html(
      "careers.html",
      32,
      "Careers | Acme",
      ["Open roles", "How we hire", "Benefits", "Locations", "Contact"],
      45,
    ),
  ];
}
