// tool-stub demo page. Plain ES module, no framework, no bundler.
// Every piece of tool output (and anything derived from it) reaches the DOM through textContent or
// createTextNode only: never innerHTML.

import { wireContextDemo } from "./context-demo.js";

const SESSION_ID = "demo";
const CONFIG_STORAGE_KEY = "tool-stub-demo:config";
const DEFAULT_CONFIG = Object.freeze({
  thresholdChars: 20000,
  previewChars: 2000,
  assistantTurnInlineBudgetChars: 100000,
  assistantTurnPreviewBudgetChars: 10000,
  minPreviewChars: 1000,
});
const CONFIG_KEYS = Object.keys(DEFAULT_CONFIG);
const SAMPLES = {
  orders: { file: "samples/orders.json", toolName: "list_orders", mimeType: "application/json" },
  sales: { file: "samples/sales.csv", toolName: "sales_report", mimeType: "text/csv" },
  worker: { file: "samples/worker.log", toolName: "tail_log", mimeType: "text/plain" },
};
const REASON_TEXT = {
  single_threshold: "Externalized: longer than thresholdChars",
  turn_budget: "Externalized: the turn was over its inline budget",
  source_read: "Read-back of a stored result, re-stubbed",
  "": "Kept inline",
};

const $ = (id) => document.getElementById(id);
const fmt = new Intl.NumberFormat("en");
const n = (value) => fmt.format(value);
const chars = (s) => {
  let count = 0;
  for (const _ of s) count++;
  return count;
};

// --- tiny DOM helpers (text only) ---------------------------------------------------------------

/** createElement with a class and text; children are nodes or strings (as text nodes). */
function el(tag, options = {}, ...children) {
  const node = document.createElement(tag);
  if (options.className) node.className = options.className;
  if (options.text !== undefined) node.textContent = String(options.text);
  for (const [key, value] of Object.entries(options.attrs ?? {}))
    node.setAttribute(key, String(value));
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

function showError(node, error) {
  if (!error) {
    node.hidden = true;
    node.textContent = "";
    return;
  }
  const code = error.code ?? error.name ?? "Error";
  node.textContent = `${code}: ${error.message ?? String(error)}`;
  node.hidden = false;
}

let pending = 0;
/** Runs an async UI action: marks the page busy, reports errors into `errorNode`. */
async function run(errorNode, action) {
  pending++;
  document.body.dataset.busy = "1";
  if (errorNode) showError(errorNode, null);
  try {
    return await action();
  } catch (error) {
    showError(errorNode ?? $("global-error"), error);
    return undefined;
  } finally {
    pending--;
    if (pending === 0) document.body.dataset.busy = "0";
  }
}

// --- boot ---------------------------------------------------------------------------------------

let api;
let store;
try {
  api = await import("../pkg/js/browser.js");
  await api.init(); // the page calls synopsis() synchronously
  store = new api.IndexedDbStore();
} catch (error) {
  $("boot-status").hidden = true;
  showError($("global-error"), {
    code: "NOT_READY",
    message: `could not load ../pkg/js/browser.js (build it with \`bash scripts/build.sh\`): ${error?.message ?? error}`,
  });
  document.body.dataset.state = "error";
  throw error;
}

// --- configuration ------------------------------------------------------------------------------

function loadSavedConfig() {
  try {
    const saved = JSON.parse(localStorage.getItem(CONFIG_STORAGE_KEY) ?? "{}");
    return {
      ...DEFAULT_CONFIG,
      ...Object.fromEntries(
        CONFIG_KEYS.filter((k) => Number.isSafeInteger(saved[k])).map((k) => [k, saved[k]]),
      ),
      synopsisMode: saved.synopsisMode === "enhanced" ? "enhanced" : "reference",
    };
  } catch {
    return { ...DEFAULT_CONFIG };
  }
}

function fillConfig(config) {
  for (const key of CONFIG_KEYS) $(`cfg-${key}`).value = String(config[key]);
  $("cfg-synopsisMode").checked = config.synopsisMode === "enhanced";
}

/** The config from the form; throws an INVALID_ARGUMENT-coded error for a bad field. */
function readConfig() {
  const config = {};
  for (const key of CONFIG_KEYS) {
    const input = $(`cfg-${key}`);
    const value = Number(input.value.trim());
    if (input.value.trim() === "" || !Number.isSafeInteger(value)) {
      input.setAttribute("aria-invalid", "true");
      throw Object.assign(
        new Error(`${key} must be an integer (got ${JSON.stringify(input.value)})`),
        { code: "INVALID_ARGUMENT" },
      );
    }
    input.removeAttribute("aria-invalid");
    config[key] = value;
  }
  config.synopsisMode = $("cfg-synopsisMode").checked ? "enhanced" : "reference";
  return config;
}

function saveConfig() {
  try {
    const config = readConfig();
    showError($("config-error"), null);
    localStorage.setItem(CONFIG_STORAGE_KEY, JSON.stringify(config));
  } catch (error) {
    showError($("config-error"), error);
  }
}

function toolStub() {
  let config;
  try {
    config = readConfig();
  } catch (error) {
    showError($("config-error"), error);
    throw error;
  }
  return new api.ToolStub({ store, sessionId: SESSION_ID, config });
}

// --- composer -----------------------------------------------------------------------------------

const output = $("tool-output");
let callCounter = 0;

function updateOutputSize() {
  $("output-size").textContent = `${n(chars(output.value))} chars`;
}

function composerPart() {
  const toolName = $("tool-name").value.trim();
  if (!toolName) {
    throw Object.assign(new Error("give the tool a name"), { code: "INVALID_ARGUMENT" });
  }
  if (output.value === "") {
    throw Object.assign(
      new Error("the output is empty: paste text, drop a file or load a sample"),
      { code: "INVALID_ARGUMENT" },
    );
  }
  callCounter++;
  const toolId = `call_${Date.now().toString(36)}${callCounter.toString(36)}`;
  return { toolId, toolName, output: output.value, mimeType: $("mime-type").value };
}

function setMime(mimeType) {
  const select = $("mime-type");
  const base = (mimeType || "text/plain").split(";")[0].trim().toLowerCase();
  if (![...select.options].some((o) => o.value === base))
    select.append(el("option", { text: base, attrs: { value: base } }));
  select.value = base;
}

async function loadSample(name) {
  const sample = SAMPLES[name];
  const response = await fetch(sample.file);
  if (!response.ok)
    throw Object.assign(new Error(`${sample.file}: HTTP ${response.status}`), {
      code: "NOT_FOUND",
    });
  output.value = await response.text();
  $("tool-name").value = sample.toolName;
  setMime(sample.mimeType);
  updateOutputSize();
}

async function loadFile(file) {
  output.value = await file.text();
  setMime(file.type || guessMime(file.name));
  if (!$("tool-name").value.trim()) $("tool-name").value = "read_file";
  updateOutputSize();
}

function guessMime(name) {
  const ext = name.toLowerCase().split(".").pop();
  return (
    {
      json: "application/json",
      csv: "text/csv",
      md: "text/markdown",
      html: "text/html",
      htm: "text/html",
      xml: "application/xml",
    }[ext] ?? "text/plain"
  );
}

// --- turn queue ---------------------------------------------------------------------------------

const turn = [];

function renderTurn() {
  const list = $("turn-list");
  list.replaceChildren();
  turn.forEach((part, index) => {
    const remove = el("button", {
      className: "btn btn-quiet btn-small",
      text: "Remove",
      attrs: { type: "button" },
    });
    remove.setAttribute("aria-label", `Remove ${part.toolName} (${index + 1}) from the turn`);
    remove.addEventListener("click", () => {
      turn.splice(index, 1);
      renderTurn();
      $("add-to-turn").focus();
    });
    const preview = part.output.slice(0, 90).replace(/\s+/g, " ");
    list.append(
      el(
        "li",
        { className: "turn-item" },
        el(
          "div",
          { className: "turn-item-main" },
          el("span", { className: "turn-item-name", text: part.toolName }),
          el("span", { className: "badge badge-neutral", text: part.mimeType }),
          el("span", { className: "muted num", text: `${n(chars(part.output))} chars` }),
        ),
        el("div", { className: "turn-item-preview", text: preview }),
        remove,
      ),
    );
  });
  $("turn-count").textContent = String(turn.length);
  $("turn-empty").hidden = turn.length > 0;
  $("externalize-turn").disabled = turn.length === 0;
  $("clear-turn").disabled = turn.length === 0;
  $("externalize-turn").textContent = turn.length
    ? `Externalize turn (${turn.length} outputs)`
    : "Externalize turn";
}

// --- externalize & outcome ----------------------------------------------------------------------

function kindOf(part) {
  if (part.outputRef && part.truncated) {
    const match = /^kind: (.*)$/m.exec(part.output);
    if (match) return match[1];
  }
  try {
    return api.synopsis(part.originalOutput, { mimeType: part.mimeType || "text/plain" }).kind;
  } catch {
    return "?";
  }
}

function explain(part, config) {
  const original = part.originalChars ?? chars(part.originalOutput);
  switch (part.externalizedReason) {
    case "single_threshold":
      return `${n(original)} chars > thresholdChars ${n(config.thresholdChars)}.`;
    case "turn_budget":
      return `Under thresholdChars, but the turn (${n(part.groupOriginalChars ?? 0)} chars in all) did not fit assistantTurnInlineBudgetChars ${n(config.assistantTurnInlineBudgetChars)}.`;
    case "source_read":
      return "A read of a stored result, replaced by a stub pointing at the source.";
    default:
      if (part.externalizationError) return "Storing failed, so the raw output stayed inline.";
      return original > config.thresholdChars
        ? "Kept inline."
        : `${n(original)} chars ≤ thresholdChars ${n(config.thresholdChars)}, and the turn fits its inline budget.`;
  }
}

async function externalize(parts) {
  const ts = toolStub();
  const config = readConfig();
  const messageId = `msg_${Date.now().toString(36)}`;
  const result = await ts.externalize(parts, { messageId });
  const shown = result.map((part, i) => ({ ...part, originalOutput: parts[i].output }));
  renderOutcome(shown, config, messageId);
  await refreshList();
  const firstOut = shown.find((p) => p.outputRef && p.truncated);
  if (firstOut) await select(firstOut.outputRef.split("/").pop());
  return shown;
}

function renderOutcome(parts, config, messageId) {
  const outcome = $("outcome");
  outcome.replaceChildren();
  const out = parts.filter((p) => p.externalizedReason).length;
  const totalBefore = parts.reduce((sum, p) => sum + chars(p.originalOutput), 0);
  const totalAfter = parts.reduce((sum, p) => sum + chars(p.output), 0);
  $("outcome-summary").textContent =
    `${parts.length === 1 ? "1 output" : `${parts.length} outputs`} in message ${messageId}: ` +
    `${out} externalized, ${parts.length - out} kept inline; ${n(totalBefore)} → ${n(totalAfter)} chars in context.`;

  // Bar chart of chars saved per result.
  const chart = $("chart-list");
  chart.replaceChildren();
  const max = Math.max(1, ...parts.map((p) => chars(p.originalOutput)));
  for (const part of parts) {
    const original = chars(part.originalOutput);
    const after = chars(part.output);
    const saved = Math.max(0, original - after);
    const pct = original ? Math.round((saved / original) * 1000) / 10 : 0;
    const track = el("div", { className: "bar-track", attrs: { "aria-hidden": "true" } });
    const width = (original / max) * 100;
    const bar = el("div", { className: "bar" });
    bar.style.width = `${Math.max(width, 0.5)}%`;
    const stubShare = original ? Math.min(100, (Math.min(after, original) / original) * 100) : 100;
    const stubSeg = el("div", { className: "bar-stub" });
    stubSeg.style.width = `${stubShare}%`;
    const savedSeg = el("div", { className: "bar-saved" });
    savedSeg.style.width = `${100 - stubShare}%`;
    bar.append(stubSeg, savedSeg);
    track.append(bar);
    chart.append(
      el(
        "li",
        { className: "chart-row" },
        el("span", { className: "chart-label", text: part.toolName }),
        track,
        el("span", {
          className: "chart-value num",
          text: saved ? `saved ${n(saved)} (${pct}%)` : "saved 0",
        }),
      ),
    );
  }
  $("chart").hidden = false;
  $("outcome-empty").hidden = true;

  for (const part of parts) outcome.append(partCard(part, config));
}

function partCard(part, config) {
  const reason = part.externalizedReason ?? "";
  const externalized = Boolean(reason);
  const original = chars(part.originalOutput);
  const after = chars(part.output);
  const kind = kindOf(part);

  const card = el("article", {
    className: `card ${externalized ? "card-out" : "card-inline"}`,
    attrs: { "data-reason": reason, "data-kind": kind },
  });
  card.append(
    el(
      "header",
      { className: "card-head" },
      el("h3", { className: "card-title", text: part.toolName }),
      el("span", { className: "badge badge-kind", text: `kind: ${kind}` }),
      el("span", {
        className: `badge ${externalized ? "badge-out" : "badge-inline"}`,
        attrs: { "data-testid": "reason" },
        text: reason || "inline",
      }),
    ),
    el(
      "p",
      { className: "card-reason" },
      el("strong", { text: REASON_TEXT[reason] ?? reason }),
      ` — ${explain(part, config)}`,
    ),
  );
  if (part.externalizationError)
    card.append(
      el("p", { className: "error", text: `STORE_FAILED: ${part.externalizationError}` }),
    );

  const stats = el("dl", { className: "stats" });
  const stat = (label, value, cls = "") =>
    stats.append(
      el(
        "div",
        { className: `stat ${cls}` },
        el("dt", { text: label }),
        el("dd", { className: "num", text: value }),
      ),
    );
  stat("Original", `${n(original)} chars`);
  stat(externalized ? "Stub" : "Inline", `${n(after)} chars`);
  stat(
    "Saved",
    original
      ? `${n(Math.max(0, original - after))} chars (${Math.round((Math.max(0, original - after) / original) * 1000) / 10}%)`
      : "0",
    "stat-saved",
  );
  if (part.outputRef) stat("Ref", part.outputRef, "stat-ref");
  card.append(stats);

  const label = externalized
    ? `Stub for ${part.toolName}, as the model sees it`
    : `Raw output of ${part.toolName}, kept inline`;
  card.append(
    el("p", {
      className: "mini-label",
      text: externalized ? "Stub, exactly as the model sees it" : "Raw output, kept inline",
    }),
    el("pre", {
      className: `code ${externalized ? "code-stub" : "code-inline"}`,
      text: part.output,
      attrs: { tabindex: "0", role: "group", "aria-label": label },
    }),
  );
  return card;
}

// --- stored results -----------------------------------------------------------------------------

let selectedId = null;
let records = [];

async function refreshList() {
  const ts = toolStub();
  const filter = $("list-tool").value.trim();
  const { toolResults } = await ts.list(filter ? { toolName: filter, limit: 500 } : { limit: 500 });
  records = toolResults
    .slice()
    .sort(
      (a, b) =>
        String(b.created_at).localeCompare(String(a.created_at)) ||
        String(a.tool_result_id).localeCompare(String(b.tool_result_id)),
    );
  renderList();
  if (!filter)
    $("session-count").textContent =
      `${records.length} stored ${records.length === 1 ? "result" : "results"}`;
  if (selectedId && !records.some((r) => r.tool_result_id === selectedId)) clearInspector();
}

function renderList() {
  const body = $("results-body");
  body.replaceChildren();
  for (const record of records) {
    const id = record.tool_result_id;
    const button = el(
      "button",
      {
        className: "row-button",
        attrs: { type: "button", "aria-pressed": String(id === selectedId), "data-id": id },
      },
      el("span", { className: "row-tool", text: record.tool_name || "(no tool name)" }),
      el("span", { className: "row-id", text: id }),
    );
    button.addEventListener("click", () => run($("list-error"), () => select(id)));
    const created = record.created_at ? new Date(record.created_at) : null;
    const row = el(
      "tr",
      { className: id === selectedId ? "selected" : "", attrs: { "data-id": id } },
      el("td", {}, button),
      el(
        "td",
        {},
        el("span", { className: "badge badge-kind", text: record.synopsis_kind ?? "?" }),
      ),
      el("td", { className: "num", text: n(record.original_chars ?? 0) }),
      el("td", {
        className: "muted nowrap",
        text:
          created && !Number.isNaN(created.getTime())
            ? created.toLocaleTimeString()
            : String(record.created_at ?? ""),
      }),
    );
    body.append(row);
  }
  $("results-empty").hidden = records.length > 0;
  $("results-table").hidden = records.length === 0;
}

function clearInspector() {
  selectedId = null;
  $("inspector-body").hidden = true;
  $("inspector-empty").hidden = false;
  $("inspector-title").textContent = "Inspector";
}

async function select(id) {
  selectedId = id;
  for (const button of document.querySelectorAll("#results-body .row-button")) {
    const on = button.dataset.id === id;
    button.setAttribute("aria-pressed", String(on));
    button.closest("tr").classList.toggle("selected", on);
  }
  $("inspector-title").textContent = id;
  $("inspector-empty").hidden = true;
  $("inspector-body").hidden = false;
  $("read-offset").value = "0";
  $("search-results").replaceChildren();
  $("search-status").textContent = "";
  showError($("search-error"), null);
  await read(0);
}

function renderMeta(metadata) {
  const meta = $("inspector-meta");
  meta.replaceChildren();
  if (!metadata) return;
  const rows = [
    ["Tool", metadata.tool_name],
    ["Kind", metadata.synopsis_kind],
    ["MIME type", metadata.mime_type],
    ["Original", `${n(metadata.original_chars ?? 0)} chars`],
    ["Message", metadata.message_id],
    ["Created", metadata.created_at],
    ["Ref", metadata.storage_uri],
    ["SHA-256", metadata.sha256],
  ];
  for (const [label, value] of rows) {
    meta.append(
      el(
        "div",
        { className: "meta-row" },
        el("dt", { text: label }),
        el("dd", { text: value ?? "" }),
      ),
    );
  }
}

function intField(id, name) {
  const value = Number($(id).value);
  if ($(id).value.trim() === "" || !Number.isSafeInteger(value)) {
    throw Object.assign(new Error(`${name} must be an integer`), { code: "INVALID_ARGUMENT" });
  }
  return value;
}

let lastRead = null;
async function read(offset) {
  if (!selectedId) return;
  const limit = intField("read-limit", "limit");
  const ts = toolStub();
  const result = await ts.read(selectedId, { offset, limit });
  lastRead = result;
  $("read-offset").value = String(result.offset);
  $("read-content").textContent = result.content;
  const end = result.offset + chars(result.content);
  $("read-status").textContent = result.content
    ? `chars ${n(result.offset)}–${n(end)} of ${n(result.totalChars)}${result.hasMore ? "" : " (end)"}`
    : `offset ${n(result.offset)} is past the end (${n(result.totalChars)} chars)`;
  $("read-prev").disabled = result.offset <= 0;
  $("read-next").disabled = !result.hasMore;
  renderMeta(result.metadata);
}

function highlight(snippet, query) {
  const nodes = [];
  const pieces = snippet.split(query);
  pieces.forEach((piece, i) => {
    if (piece) nodes.push(document.createTextNode(piece));
    if (i < pieces.length - 1) {
      const mark = document.createElement("mark");
      mark.textContent = query;
      nodes.push(mark);
    }
  });
  return nodes;
}

async function search() {
  if (!selectedId) return;
  const query = $("search-query").value;
  const limit = intField("search-limit", "limit");
  const contextChars = intField("search-context", "context");
  const regex = $("search-regex").checked;
  const ignoreCase = $("search-ignore-case").checked;
  const ts = toolStub();
  const { matches, totalMatches } = await ts.search(selectedId, {
    query,
    limit,
    contextChars,
    regex,
    ignoreCase,
  });
  const list = $("search-results");
  list.replaceChildren();
  $("search-status").textContent = matches.length
    ? `${n(totalMatches)} ${totalMatches === 1 ? "match" : "matches"}${matches.length < totalMatches ? ` (showing ${matches.length})` : ""} for “${query}”`
    : `No match for “${query}”.`;
  for (const match of matches) {
    const readHere = el("button", {
      className: "btn btn-quiet btn-small",
      text: "Read from here",
      attrs: { type: "button" },
    });
    readHere.setAttribute("aria-label", `Read from offset ${match.offset}`);
    readHere.addEventListener("click", () =>
      run($("read-error"), async () => {
        await read(match.offset);
        $("read-content").focus();
      }),
    );
    const snippet = el("pre", { className: "code code-snippet" });
    // The snippet starts `contextChars` before the match (fewer at the start of the output).
    const before = Math.min(contextChars, match.offset);
    const snippetChars = [...match.snippet];
    const found = snippetChars.slice(before, before + match.length).join("");
    snippet.append(...highlight(match.snippet, found || query));
    const where = `line ${n(match.line)}, column ${n(match.column)} · offset ${n(match.offset)}`;
    list.append(
      el(
        "li",
        { className: "search-hit" },
        el(
          "div",
          { className: "hit-head" },
          el("span", { className: "muted num", text: where }),
          readHere,
        ),
        snippet,
      ),
    );
  }
}

async function readStructured() {
  if (!selectedId) return;
  const mode = $("structured-mode").value;
  const where = $("structured-where").value.trim();
  const options = {
    lines: () => ({ line: intField("structured-where", "line"), lines: 40, numbered: true }),
    jsonPointer: () => ({ jsonPointer: where }),
    rows: () => ({ rows: { start: intField("structured-where", "first row"), count: 20 } }),
  }[mode]();
  const result = await toolStub().read(selectedId, {
    ...options,
    maxChars: 8000,
    includeMetadata: false,
  });
  $("structured-content").textContent = result.content;
  $("structured-status").textContent = {
    lines: () => `lines ${n(result.startLine)}–${n(result.endLine)} of ${n(result.totalLines)}`,
    jsonPointer: () =>
      `${result.pointer || "(root)"}: ${result.type}, size ${n(result.size)}${result.truncated ? `, ${n(result.totalCuts)} cut` : ""}`,
    rows: () => `rows ${n(result.startRow)}–${n(result.endRow)} of ${n(result.totalRows)}`,
  }[mode]();
}

// --- wiring -------------------------------------------------------------------------------------

function wire() {
  fillConfig(loadSavedConfig());
  $("config-form").addEventListener("input", saveConfig);
  $("config-form").addEventListener("submit", (e) => e.preventDefault());
  $("config-reset").addEventListener("click", () => {
    fillConfig({ ...DEFAULT_CONFIG, synopsisMode: "reference" });
    saveConfig();
  });

  output.addEventListener("input", updateOutputSize);
  for (const button of document.querySelectorAll("[data-sample]")) {
    button.addEventListener("click", () =>
      run($("compose-error"), () => loadSample(button.dataset.sample)),
    );
  }
  $("file-input").addEventListener("change", (e) => {
    const file = e.target.files?.[0];
    if (file) run($("compose-error"), () => loadFile(file));
    e.target.value = "";
  });
  const zone = $("drop-zone");
  let depth = 0;
  zone.addEventListener("dragenter", (e) => {
    e.preventDefault();
    depth++;
    zone.classList.add("dragging");
  });
  zone.addEventListener("dragover", (e) => e.preventDefault());
  zone.addEventListener("dragleave", () => {
    depth = Math.max(0, depth - 1);
    if (!depth) zone.classList.remove("dragging");
  });
  zone.addEventListener("drop", (e) => {
    e.preventDefault();
    depth = 0;
    zone.classList.remove("dragging");
    const file = e.dataTransfer?.files?.[0];
    if (file) run($("compose-error"), () => loadFile(file));
    else {
      const text = e.dataTransfer?.getData("text/plain");
      if (text) {
        output.value = text;
        updateOutputSize();
      }
    }
  });

  $("externalize-one").addEventListener("click", () =>
    run($("compose-error"), async () => {
      await externalize([composerPart()]);
    }),
  );
  $("add-to-turn").addEventListener("click", () =>
    run($("compose-error"), async () => {
      turn.push(composerPart());
      renderTurn();
    }),
  );
  $("externalize-turn").addEventListener("click", () =>
    run($("compose-error"), async () => {
      if (!turn.length) return;
      await externalize(turn.slice());
      turn.length = 0;
      renderTurn();
    }),
  );
  $("clear-turn").addEventListener("click", () => {
    turn.length = 0;
    renderTurn();
  });

  $("list-form").addEventListener("submit", (e) => {
    e.preventDefault();
    run($("list-error"), refreshList);
  });
  $("clear-session").addEventListener("click", () =>
    run($("global-error"), async () => {
      await store.removeRange([SESSION_ID]);
      clearInspector();
      $("outcome").replaceChildren();
      $("chart").hidden = true;
      $("outcome-empty").hidden = false;
      $("outcome-summary").textContent = "Session cleared.";
      await refreshList();
    }),
  );

  $("read-form").addEventListener("submit", (e) => {
    e.preventDefault();
    run($("read-error"), () => read(intField("read-offset", "offset")));
  });
  $("read-prev").addEventListener("click", () =>
    run($("read-error"), () => {
      const limit = Math.max(1, intField("read-limit", "limit"));
      return read(Math.max(0, (lastRead?.offset ?? 0) - limit));
    }),
  );
  $("read-next").addEventListener("click", () =>
    run($("read-error"), () => read((lastRead?.offset ?? 0) + chars(lastRead?.content ?? ""))),
  );
  $("search-form").addEventListener("submit", (e) => {
    e.preventDefault();
    run($("search-error"), search);
  });
  $("structured-form").addEventListener("submit", (e) => {
    e.preventDefault();
    run($("structured-error"), readStructured);
  });

  renderTurn();
  updateOutputSize();
}

wire();
wireContextDemo(api, store, run);
await run($("list-error"), refreshList);
$("boot-status").hidden = true;
document.body.dataset.state = "ready";
