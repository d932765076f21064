// synopsisMode "enhanced" through every entry point: synopsis(), makePreview(), the
// ToolStub config, the CLI (--enhanced) and the MCP commands' config; "reference" stays the default.
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { synopsis, makePreview, ToolStub, MemoryStore, ROOT, isCode, rejectsWith } from "./pkg.js";
import { tempDir } from "./temp.js";

const rows = Array.from(
  { length: 1500 },
  (_, i) =>
    `${i},2024-03-${String(1 + (i % 28)).padStart(2, "0")},${(i * 1.25).toFixed(2)},${i % 5 ? "paid" : "refunded"}`,
);
const csv = `id,order_date,amount,status\n${rows.join("\n")}\n`;
const chars = (s) => [...s].length;
/** A stub without its header and Explore lines (which name the ref and sha256). */
const body = (stub) => stub.split("\n\nExplore:\n")[0].split("\n\n").slice(1).join("\n\n");

describe("synopsisMode", () => {
  it("defaults to reference in synopsis() and makePreview()", () => {
    assert.deepEqual(synopsis(csv), synopsis(csv, { synopsisMode: "reference" }));
    assert.deepEqual(
      makePreview(csv, { ref: "viking://x/tool-results/tr_1" }),
      makePreview(csv, { ref: "viking://x/tool-results/tr_1", synopsisMode: "reference" }),
    );
  });

  it("enhanced stubs keep the header and Explore lines and stay within 1.2x of the reference's", () => {
    const options = {
      ref: "viking://user/default/sessions/s/tool-results/tr_1",
      toolName: "export",
      reason: "single_threshold",
    };
    const reference = makePreview(csv, options).stub;
    const enhanced = makePreview(csv, { ...options, synopsisMode: "enhanced" }).stub;
    assert.ok(
      chars(enhanced) * 5 <= chars(reference) * 6,
      `${chars(enhanced)} vs ${chars(reference)}`,
    );
    assert.equal(enhanced.split("\n")[0], reference.split("\n")[0]);
    assert.equal(enhanced.split("\nExplore:\n")[1], reference.split("\nExplore:\n")[1]);
    assert.equal(typeof synopsis(csv, { synopsisMode: "enhanced" }).kind, "string");
  });

  it("refuses an unknown mode, naming the option", async () => {
    assert.throws(
      () => synopsis(csv, { synopsisMode: "fancy" }),
      isCode("INVALID_ARGUMENT", /synopsisMode/),
    );
    assert.throws(
      () => makePreview(csv, { synopsisMode: "fancy" }),
      isCode("INVALID_ARGUMENT", /synopsisMode/),
    );
    assert.throws(
      () =>
        new ToolStub({
          store: new MemoryStore(),
          sessionId: "s",
          config: { synopsisMode: "fancy" },
        }),
      isCode("INVALID_ARGUMENT", /synopsisMode/),
    );
    await rejectsWith(
      async () => synopsis(csv, { synopsisMode: 3 }),
      "INVALID_ARGUMENT",
      /synopsisMode/,
    );
  });

  it("config.synopsisMode makes externalize write enhanced stubs", async () => {
    const stubOf = async (config) => {
      const ts = new ToolStub({
        store: new MemoryStore(),
        sessionId: "s",
        config: { thresholdChars: 1000, ...config },
      });
      const [part] = await ts.externalize(
        [{ toolId: "c1", toolName: "export", output: csv, mimeType: "text/csv" }],
        { messageId: "m1" },
      );
      return part.output;
    };
    const enhanced = await stubOf({ synopsisMode: "enhanced" });
    const options = { ref: "viking://user/default/sessions/s/tool-results/tr_c1_" };
    // The same synopsis as makePreview's in enhanced mode (the header differs: ref, sha256).
    assert.equal(
      body(enhanced),
      body(makePreview(csv, { ...options, mimeType: "text/csv", synopsisMode: "enhanced" }).stub),
    );
    assert.equal(
      body(await stubOf({})),
      body(makePreview(csv, { ...options, mimeType: "text/csv" }).stub),
    );
  });

  it("the CLI's --enhanced gives the enhanced stub (stub and externalize)", () => {
    const cwd = tempDir("tool-stub-enhanced-");
    const file = path.join(cwd, "orders.csv");
    writeFileSync(file, csv);
    const cli = (...args) =>
      spawnSync(process.execPath, [path.join(ROOT, "pkg/js/cli.js"), ...args], {
        cwd,
        encoding: "utf8",
        input: "",
      });
    const stub = cli("stub", file, "--tool-name", "export", "--enhanced");
    assert.equal(stub.status, 0, stub.stderr);
    assert.equal(
      stub.stdout.trimEnd(),
      makePreview(csv, { toolName: "export", synopsisMode: "enhanced" }).stub,
    );
    const stored = cli("externalize", file, "--tool-name", "export", "--enhanced", "--json");
    assert.equal(stored.status, 0, stored.stderr);
    // Its header names the ref and sha256, so the length bound differs from the stub's: the
    // enhanced column types are there all the same.
    assert.match(
      JSON.parse(stored.stdout).output,
      /\n- column types: id integer, order_date date, amount float, status text\n/,
    );
    assert.notEqual(stub.stdout.trimEnd(), makePreview(csv, { toolName: "export" }).stub);
  });
});
