// The parity corpus through the public JS API (the wasm build): the same answers as the Rust tests.
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import {
  makePreview,
  sha256Hex,
  toolResultId,
  ToolStub,
  MemoryStore,
  PARITY_DIR,
  SKIP_PARITY,
} from "./pkg.js";

const jsonLines = (file) =>
  SKIP_PARITY
    ? []
    : readFileSync(path.join(PARITY_DIR, file), "utf8")
        .split("\n")
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l));

const snake = (s) => ({
  kind: s.kind,
  title: s.title,
  summary: s.summary,
  structure: s.structure,
  notable_items: s.notableItems,
  sample: s.sample,
});

describe("parity cases through makePreview", { skip: SKIP_PARITY }, () => {
  const cases = jsonLines("cases.jsonl");
  it(`all ${cases.length} cases give the reference's synopsis, stub, sha256 and id`, () => {
    const differing = [];
    for (const c of cases) {
      const output = readFileSync(path.join(PARITY_DIR, c.input), "utf8");
      const sha256 = sha256Hex(output);
      const { synopsis, stub } = makePreview(output, {
        mimeType: c.mime_type,
        previewChars: c.preview_chars,
        toolName: c.tool_name,
        ref: c.ref,
        sha256,
        reason: c.reason,
      });
      const s = snake(synopsis);
      const ok =
        stub === c.expected.stub &&
        JSON.stringify(s) === JSON.stringify(c.expected.synopsis) &&
        sha256 === c.expected.sha256 &&
        toolResultId(c.tool_id, sha256) === c.expected.tool_result_id &&
        [...output].length === c.expected.original_chars;
      if (!ok) differing.push(`${c.id} (${c.expected.kind})`);
    }
    assert.ok(cases.length > 0);
    assert.deepEqual(differing, [], `${differing.length} of ${cases.length} cases differ`);
  });
});

/** Reference part fields → API fields: tool_output_group_id → groupId, tool_output → output. */
function apiField(field) {
  const rest = field.replace(/^tool_output_?/, "");
  if (rest === "") return "output";
  if (rest === "ref") return "outputRef";
  return rest.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
}

describe("parity turns through ToolStub + MemoryStore", { skip: SKIP_PARITY }, () => {
  const turns = jsonLines("turns.jsonl");
  it(`all ${turns.length} turns give the reference's parts and files`, async () => {
    const differing = [];
    for (const { scenario, expected } of turns) {
      const store = new MemoryStore();
      const config = Object.fromEntries(
        Object.entries(scenario.config).map(([k, v]) => [
          k.replace(/_([a-z])/g, (_, c) => c.toUpperCase()),
          v,
        ]),
      );
      const ts = new ToolStub({ store, sessionId: scenario.session_id, config });
      const parts = scenario.parts.map((p) => ({
        toolId: p.tool_id,
        toolName: p.tool_name,
        toolInput: p.tool_input,
        output: p.output,
        mimeType: p.mime_type,
      }));
      const out = await ts.externalize(parts, { messageId: scenario.message_id });
      const problems = [];
      expected.parts.forEach((want, i) => {
        for (const [field, value] of Object.entries(want)) {
          const got = out[i][apiField(field)] ?? null;
          if (JSON.stringify(got) !== JSON.stringify(value)) problems.push(`part ${i} ${field}`);
        }
      });
      const entries = await store.loadRange([scenario.session_id]);
      const files = {};
      for (const { key, value } of entries) {
        if (key[1] === "tool-stub") continue; // the session's catalog and lock: ours, beside the reference's tree
        const uri = `${expected.session_uri}/${key.slice(1).join("/")}`;
        if (key[3] === "index.json") continue; // ours, beside the reference's files
        if (key[3] === "output.txt")
          files[uri] = { sha256: sha256Hex(value), chars: [...value].length };
        else {
          const { created_at, user_id, ...record } = JSON.parse(value);
          files[uri] = record;
        }
      }
      try {
        assert.deepEqual(files, expected.files);
      } catch {
        problems.push("files");
      }
      if (problems.length)
        differing.push(`${scenario.session_id}: ${problems.slice(0, 5).join(", ")}`);
    }
    assert.ok(turns.length > 0);
    assert.deepEqual(differing, [], `${differing.length} of ${turns.length} turns differ`);
  });
});
