// The demo page's context governor section: a replayed agent conversation, the context per step
// with and without `fitContext`, and the results it cleared, each opening into read and search.
// Everything from tool output reaches the DOM as text only (textContent), never as HTML.

const SESSION_ID = "context-demo";
const STEPS = 30;
const CONTEXT_WINDOW = 32_000;
const OPTIONS = {
  format: "openai",
  contextWindow: CONTEXT_WINDOW,
  trigger: 0.75,
  target: 0.45,
  clearAtLeast: 0.15,
  keepRecent: 3,
};
const SAMPLES = [
  { file: "samples/orders.json", tool: "list_orders" },
  { file: "samples/sales.csv", tool: "sales_report" },
  { file: "samples/worker.log", tool: "tail_log" },
];

const $ = (id) => document.getElementById(id);
const fmt = new Intl.NumberFormat("en");
const encoder = new TextEncoder();
/** The page has no tokenizer: tokens estimated as UTF-8 bytes / 4 (shown as such). */
const countTokens = (text) => Math.ceil(encoder.encode(text).length / 4);

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = String(text);
  return node;
}

function conversationTokens(messages) {
  let tokens = 0;
  for (const m of messages) {
    tokens += 4 + countTokens(m.role);
    if (typeof m.content === "string") tokens += countTokens(m.content);
    for (const c of m.tool_calls ?? [])
      tokens +=
        countTokens(c.id) + countTokens(c.function.name) + countTokens(c.function.arguments);
    if (m.tool_call_id) tokens += countTokens(m.tool_call_id);
  }
  return tokens;
}

/** The replayed steps: each calls one tool (a slice of a sample, or a short status). */
function replaySteps(samples) {
  const steps = [];
  for (let s = 0; s < STEPS; s++) {
    const id = `call_${s}`;
    if (s % 4 === 3) {
      steps.push({
        id,
        tool: "job_status",
        output: `{"job": "nightly", "step": ${s}, "state": "running"}`,
      });
      continue;
    }
    const sample = samples[s % samples.length];
    const size = 6_000 + ((s * 7_919) % 40_000);
    const start = (s * 104_729) % Math.max(1, sample.text.length - size);
    steps.push({ id, tool: sample.tool, output: sample.text.slice(start, start + size) });
  }
  return steps;
}

function stepMessages(step, output) {
  return [
    {
      role: "assistant",
      content: null,
      tool_calls: [
        { id: step.id, type: "function", function: { name: step.tool, arguments: "{}" } },
      ],
    },
    { role: "tool", tool_call_id: step.id, content: output },
  ];
}

function gauge(tokens) {
  const bar = el("span", "gauge");
  const fill = el("span", "gauge-fill");
  fill.style.width = `${Math.min(100, (100 * tokens) / CONTEXT_WINDOW)}%`;
  if (tokens > CONTEXT_WINDOW) bar.classList.add("over");
  bar.append(fill);
  const cell = el("td");
  cell.append(bar, el("span", "gauge-value", fmt.format(tokens)));
  return cell;
}

function clearedItem(ts, ref, text) {
  const item = el("li", "cleared");
  item.dataset.ref = ref;
  item.append(el("pre", "cleared-text", text));
  const read = el("button", "btn btn-secondary btn-small", "Read");
  read.type = "button";
  const form = el("form", "cleared-search");
  const query = el("input");
  query.type = "search";
  query.setAttribute("aria-label", `Search ${ref}`);
  query.placeholder = "search this result";
  const go = el("button", "btn btn-secondary btn-small", "Search");
  go.type = "submit";
  form.append(query, go);
  const shown = el("pre", "cleared-content");
  shown.hidden = true;
  read.addEventListener("click", async () => {
    const { content, totalChars } = await ts.read(ref, { limit: 1500 });
    shown.textContent = `${content}\n… (${fmt.format(totalChars)} chars stored)`;
    shown.hidden = false;
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const { matches } = await ts.search(ref, { query: query.value, limit: 5, contextChars: 60 });
    shown.textContent =
      matches.length === 0
        ? "no match"
        : matches.map((m) => `@${m.offset}: ${m.snippet}`).join("\n");
    shown.hidden = false;
  });
  item.append(read, form, shown);
  return item;
}

async function replay(api, store) {
  const samples = await Promise.all(
    SAMPLES.map(async (s) => ({ tool: s.tool, text: await (await fetch(s.file)).text() })),
  );
  const ts = new api.ToolStub({ store, sessionId: SESSION_ID });
  await ts.deleteSession();
  const start = [{ role: "user", content: "Why did the nightly job fail?" }];
  let raw = start;
  let governed = start;
  let rawSum = 0;
  let governedSum = 0;
  const rows = $("context-steps").querySelector("tbody");
  rows.replaceChildren();
  for (const [s, step] of replaySteps(samples).entries()) {
    raw = raw.concat(stepMessages(step, step.output));
    const [part] = await ts.externalize(
      [{ toolId: step.id, toolName: step.tool, output: step.output }],
      { messageId: step.id },
    );
    governed = governed.concat(stepMessages(step, part.output));
    const fitted = await ts.fitContext(governed, { ...OPTIONS, countTokens });
    governed = fitted.messages;
    const without = conversationTokens(raw);
    const withGovernor = conversationTokens(governed);
    rawSum += without;
    governedSum += withGovernor;
    const row = el("tr");
    row.dataset.without = String(without);
    row.dataset.with = String(withGovernor);
    row.append(el("th", "", s + 1), gauge(without), gauge(withGovernor));
    if (fitted.changed) row.classList.add("cleared-step");
    rows.append(row);
  }
  $("context-steps").hidden = false;
  $("context-saved").textContent =
    `Prompt tokens over the ${STEPS} steps: ${fmt.format(rawSum)} without the governor, ` +
    `${fmt.format(governedSum)} with it: ${fmt.format(rawSum - governedSum)} saved ` +
    `(${Math.round((100 * (rawSum - governedSum)) / rawSum)}%).`;
  const list = $("context-cleared");
  list.replaceChildren();
  for (const m of governed) {
    if (m.role !== "tool") continue;
    const ref = /ref: (viking:\/\/\S+?)[;\n]/.exec(m.content)?.[1];
    if (ref) list.append(clearedItem(ts, ref, m.content));
  }
  $("context-status").textContent =
    `${list.children.length} results out of the context, every one still readable and searchable.`;
}

/** Wires the section; `run` is the page's busy/error wrapper. */
export function wireContextDemo(api, store, run) {
  $("context-replay").addEventListener("click", () =>
    run($("context-error"), () => replay(api, store)),
  );
}
