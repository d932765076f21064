// Hits that chain. Every hit of every search mode on every result kind, fed back as it
// is into the read it names (offset, line + column, CSV/TSV row, JSON pointer), through the API
// and through the model's tools, gives a window that holds the match.
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { ToolStub, MemoryStore } from "./pkg.js";

const records = Array.from({ length: 40 }, (_, i) => ({
  id: i,
  city: ["Lyon", "Zoë-ville", "Nîmes", "日本語"][i % 4],
  note: i % 5 === 0 ? "ERROR disk full" : "ok fine",
}));

/** One output per kind, each holding the words the searches look for. */
const OUTPUTS = {
  json: JSON.stringify(
    { items: records, total: records.length, "a/b": "ERROR in key path" },
    null,
    1,
  ),
  csv: `id,city,note\n${records.map((r) => `${r.id},${r.city},"${r.note}, x"`).join("\n")}\n`,
  tsv: `id\tcity\tnote\n${records.map((r) => `${r.id}\t${r.city}\t${r.note}`).join("\n")}\n`,
  yaml:
    "items:\n" +
    records.map((r) => `  - id: ${r.id}\n    city: ${r.city}\n    note: ${r.note}`).join("\n") +
    "\n",
  xml:
    "<root>" +
    records
      .map((r) => `<item id="${r.id}"><city>${r.city}</city><note>${r.note}</note></item>`)
      .join("\n") +
    "</root>",
  code:
    "import os\n\ndef run():\n" +
    records.map((r) => `    log("${r.city}: ${r.note}")  # id ${r.id}`).join("\n") +
    "\n",
  text:
    "# Report\n\n" +
    records.map((r) => `line ${r.id}: ${r.city} says ${r.note} 😀`).join("\n") +
    "\n" +
    "x".repeat(30_000) +
    " ERROR at the end of a long line",
};

const MODES = [
  ["literal", { query: "ERROR" }],
  ["ignoreCase", { query: "error", ignoreCase: true }],
  ["regex", { query: "N[iî]mes|Zo\\w+", regex: true }],
  ["wholeWord", { query: "Lyon", wholeWord: true }],
  ["contextLines", { query: "日本語", contextLines: 1 }],
];

/** Text of the code points offset..offset+length. */
const slice = (text, offset, length) => [...text].slice(offset, offset + length).join("");

describe("search hits chain into reads", async () => {
  const ts = new ToolStub({
    sessionId: "chain",
    store: new MemoryStore(),
    config: { thresholdChars: 100 },
  });
  const refs = {};
  for (const [kind, output] of Object.entries(OUTPUTS)) {
    const [part] = await ts.externalize([{ toolId: `t_${kind}`, toolName: "tool", output }], {
      messageId: kind,
    });
    refs[kind] = part.outputRef;
  }

  it("every result has the kind it is meant to have", async () => {
    for (const [kind, ref] of Object.entries(refs)) {
      const { metadata } = await ts.read(ref, { limit: 1 });
      assert.equal(metadata.synopsis_kind, kind);
    }
  });

  for (const [kind, output] of Object.entries(OUTPUTS)) {
    for (const [mode, options] of MODES) {
      it(`${kind} / ${mode}: offset, line+column, row and pointer reads hold each match`, async () => {
        const ref = refs[kind];
        const found = await ts.search(ref, { ...options, limit: 50 });
        assert.ok(found.matches.length > 0, "the search finds something");
        for (const hit of found.matches) {
          const text = slice(output, hit.offset, hit.length);
          const byOffset = await ts.read(ref, {
            offset: hit.offset,
            limit: hit.length,
            includeMetadata: false,
          });
          assert.equal(byOffset.content, text);
          const lines = text.split("\n").length;
          const byLine = await ts.read(ref, {
            line: hit.line,
            column: hit.column,
            lines,
            includeMetadata: false,
          });
          assert.ok(
            byLine.content.startsWith(text),
            `line ${hit.line} column ${hit.column}: ${byLine.content.slice(0, 80)}`,
          );
          if (kind === "csv" || kind === "tsv") {
            const byRow = await ts.read(ref, {
              rows: { start: hit.row ?? 1, count: 1 },
              includeMetadata: false,
            });
            assert.ok(byRow.content.includes(text), `row ${hit.row}: ${byRow.content}`);
            if (hit.row === undefined)
              assert.ok(
                byRow.content.split("\n")[0].includes(text),
                "a hit without a row is in the header",
              );
          } else {
            assert.equal(hit.row, undefined);
          }
          if (kind === "json") {
            assert.equal(typeof hit.jsonPointer, "string");
            const byPointer = await ts.read(ref, {
              jsonPointer: hit.jsonPointer,
              includeMetadata: false,
            });
            assert.ok(
              byPointer.content.includes(text),
              `${hit.jsonPointer}: ${byPointer.content.slice(0, 200)}`,
            );
          } else {
            assert.equal(hit.jsonPointer, undefined);
          }
        }
      });
    }
  }

  it("the model's tools: search hits feed the read tool's arguments as they are", async () => {
    const search = "openviking_tool_result_search";
    const read = "openviking_tool_result_read";
    for (const [kind, output] of Object.entries(OUTPUTS)) {
      const found = await ts.handleToolCall(search, {
        ref: refs[kind],
        query: "ERROR",
        ignore_case: true,
        limit: 5,
      });
      assert.ok(!found.error && found.matches.length > 0, JSON.stringify(found.error));
      for (const hit of found.matches) {
        const text = slice(output, hit.offset, hit.length);
        const byLine = await ts.handleToolCall(read, {
          ref: refs[kind],
          line: hit.line,
          column: hit.column,
          lines: 1,
        });
        assert.ok(!byLine.error, JSON.stringify(byLine.error));
        assert.ok(byLine.content.startsWith(text), `${kind}: ${byLine.content.slice(0, 60)}`);
        if (hit.row !== undefined) {
          const byRow = await ts.handleToolCall(read, {
            ref: refs[kind],
            row_start: hit.row,
            row_count: 1,
          });
          assert.ok(byRow.content.includes(text), byRow.content);
        }
        if (hit.json_pointer !== undefined) {
          const byPointer = await ts.handleToolCall(read, {
            ref: refs[kind],
            json_pointer: hit.json_pointer,
          });
          assert.ok(byPointer.content.includes(text), byPointer.content);
        }
      }
    }
  });

  it("a cut long line's continue hint names arguments the read tool takes", async () => {
    const ref = refs.text;
    const longLine = OUTPUTS.text.split("\n").length;
    const cut = await ts.handleToolCall("openviking_tool_result_read", {
      ref,
      line: longLine,
      lines: 1,
    });
    assert.ok(!cut.error, JSON.stringify(cut.error));
    const hint = cut.content.match(/continue with line=(\d+) column=(\d+)/);
    assert.ok(hint, cut.content.slice(-200));
    const next = await ts.handleToolCall("openviking_tool_result_read", {
      ref,
      line: Number(hint[1]),
      column: Number(hint[2]),
      lines: 1,
    });
    assert.ok(!next.error, JSON.stringify(next.error));
    assert.ok(next.content.length > 0);
    const schema = ts
      .toolDefinitions({ format: "json-schema" })
      .find((tool) => tool.name === "openviking_tool_result_read");
    assert.ok(schema.parameters.properties.column, "the read tool's schema has column");
  });

  it("searchAll hits carry the same coordinates", async () => {
    const all = await ts.searchAll({ query: "Nîmes", perResult: 2 });
    const byRef = Object.fromEntries(all.results.map((r) => [r.ref, r]));
    assert.ok(byRef[refs.csv].matches.every((m) => Number.isInteger(m.row)));
    assert.ok(byRef[refs.json].matches.every((m) => typeof m.jsonPointer === "string"));
  });
});
