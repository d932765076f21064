// Reliability at the JS boundary: a panic never poisons the module; hostile arguments give typed
// errors and write nothing outside the store; a SIGKILL mid-write loses nothing that was listed;
// two processes share one store; failing, quota-full and hanging stores under every failure mode.
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { readdirSync, writeFileSync, readFileSync, mkdirSync } from "node:fs";
import * as path from "node:path";
import { spawn } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { createHash, webcrypto } from "node:crypto";
import { runtime } from "../../pkg/js/node-runtime.js";
import {
  dropStagedOutputs,
  dropTurn,
  planStagedTurn,
  sha256Hex as coreSha256Hex,
  stageOutputs,
} from "../../pkg/wasm/tool_stub.js";
import {
  synopsis,
  sha256Hex,
  ToolStub,
  MemoryStore,
  NodeFsStore,
  useSha256,
  ROOT,
  isCode,
} from "./pkg.js";
import { tempDir } from "./temp.js";

const NODE_ENTRY = path.join(ROOT, "pkg/js/node.js");
const big = (tag, n = 30_000) => `${tag}\n${"x".repeat(n)}`;

/** Every file under `dir`, relative, sorted. */
function tree(dir) {
  const out = [];
  const walk = (at, rel) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const next = path.join(rel, entry.name);
      out.push(next);
      if (entry.isDirectory()) walk(path.join(at, entry.name), next);
    }
  };
  walk(dir, "");
  return out.sort();
}

/** A trap in the core, as a bug would cause: the glue passes a number to the core as a string. */
function forceTrap() {
  runtime.run(coreSha256Hex, 42);
}

describe("a trap in the core", () => {
  it("is an INTERNAL error and later calls still work", async () => {
    assert.throws(() => forceTrap(), isCode("INTERNAL"));
    for (let i = 0; i < 3; i++) {
      assert.equal(synopsis("a,b\n1,2\n3,4\n").kind, "csv");
      const ts = new ToolStub({ sessionId: `after-panic-${i}` });
      const [out] = await ts.externalize([{ toolId: "c", toolName: "t", output: big("after") }], {
        messageId: "m",
      });
      assert.equal((await ts.read(out.outputRef, { limit: -1 })).content, big("after"));
      assert.throws(() => forceTrap(), isCode("INTERNAL"));
    }
  });
});

describe("hostile arguments", () => {
  it("give typed errors and write nothing outside the store directory", async () => {
    const parent = tempDir("tool-stub-escape-");
    const dir = path.join(parent, "store");
    mkdirSync(dir);
    writeFileSync(path.join(parent, "canary.txt"), "untouched");
    const store = new NodeFsStore(dir);
    const ts = new ToolStub({ store, sessionId: "s" });
    const [stored] = await ts.externalize([{ toolId: "ok", toolName: "t", output: big("ok") }], {
      messageId: "m",
    });
    const escapes = [
      "..",
      "../..",
      "../canary.txt",
      "a/../../b",
      "..\\..\\x",
      "a\0b",
      "/etc/passwd",
      "x".repeat(10_000),
      "C:\\x",
      "",
    ];
    for (const id of escapes) {
      await assert.rejects(ts.read(id), isCode("INVALID_ARGUMENT"));
      await assert.rejects(ts.search(id, { query: "x" }), isCode("INVALID_ARGUMENT"));
      await assert.rejects(ts.delete(id), isCode("INVALID_ARGUMENT"));
    }
    for (const sessionId of ["..", "../x", "a/b", "a\\b", "a\0b", "", ".", "x".repeat(300)]) {
      assert.throws(() => new ToolStub({ store, sessionId }), isCode("INVALID_ARGUMENT"));
    }
    for (const toolId of ["../../escape", "/abs/path", "..\\..", "a\0b"]) {
      const [out] = await ts.externalize([{ toolId, toolName: "t", output: big(toolId) }], {
        messageId: "m",
      });
      assert.match(out.outputRef.split("/").pop(), /^tr_[A-Za-z0-9_.-]+$/);
    }
    for (const offset of [NaN, -1, 0.5, 2 ** 60, Infinity, "3", null]) {
      await assert.rejects(ts.read(stored.outputRef, { offset }), isCode("INVALID_ARGUMENT"));
    }
    for (const output of [42, { a: 1 }, ["x"], Symbol.for("x"), 10n]) {
      await assert.rejects(
        ts.externalize([{ toolId: "c", output }], { messageId: "m" }),
        isCode("INVALID_ARGUMENT"),
      );
    }
    assert.throws(
      () => new ToolStub({ sessionId: "s", config: { thresholdchars: 1 } }),
      isCode("INVALID_ARGUMENT"),
    );
    assert.throws(
      () => new ToolStub({ sessionId: "s", config: { thresholdChars: "big" } }),
      isCode("INVALID_ARGUMENT"),
    );
    assert.deepEqual(readdirSync(parent).sort(), ["canary.txt", "store"]);
    assert.equal(readFileSync(path.join(parent, "canary.txt"), "utf8"), "untouched");
    assert.ok(tree(dir).every((file) => file.startsWith("s")));
  });

  it("a tampered or truncated record on disk is CORRUPT or skipped, never served as valid", async () => {
    const dir = tempDir("tool-stub-tamper-");
    const ts = new ToolStub({ store: new NodeFsStore(dir), sessionId: "t" });
    const out = await ts.externalize(
      [
        { toolId: "a", toolName: "t", output: big("a") },
        { toolId: "b", toolName: "t", output: big("b") },
        { toolId: "c", toolName: "t", output: big("c") },
      ],
      { messageId: "m" },
    );
    const fileOf = (part, file) =>
      path.join(dir, "t", "tool-results", part.outputRef.split("/").pop(), file);
    const meta = readFileSync(fileOf(out[0], "metadata.json"), "utf8");
    writeFileSync(fileOf(out[0], "metadata.json"), meta.slice(0, meta.length / 2));
    writeFileSync(fileOf(out[1], "output.txt"), big("b").replace("x", "y"));
    await assert.rejects(ts.read(out[0].outputRef), isCode("CORRUPT"));
    await assert.rejects(ts.verify(out[1].outputRef), isCode("CORRUPT"));
    assert.equal((await ts.verify(out[2].outputRef)).totalChars, big("c").length);
    assert.deepEqual((await ts.list()).toolResults.map((r) => r.tool_id).sort(), ["b", "c"]);
  });
});

describe("crash consistency", () => {
  it("after SIGKILL mid-loop, every listed result reads back complete and verified", async () => {
    const dir = tempDir("tool-stub-crash-");
    const script = `
      import { ToolStub, NodeFsStore } from ${JSON.stringify(NODE_ENTRY)};
      const ts = new ToolStub({ store: new NodeFsStore(${JSON.stringify(dir)}), sessionId: "crash" });
      for (let i = 0; ; i++) {
        const output = "result " + i + "\\n" + ("line " + i + " ").repeat(5000 + (i % 7) * 3000);
        await ts.externalize([{ toolId: "c" + i, toolName: "t", output }], { messageId: "m" + i });
        if (i === 3) console.log("running");
      }`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    await new Promise((resolve) => child.stdout.once("data", resolve));
    await sleep(300 + Math.floor(Math.random() * 300));
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));

    // Also leave a half-written result behind, as a crash between output and record would.
    const orphan = path.join(dir, "crash", "tool-results", "tr_orphan_0123456789abcdef");
    mkdirSync(orphan, { recursive: true });
    writeFileSync(path.join(orphan, "output.txt"), "half");

    const ts = new ToolStub({ store: new NodeFsStore(dir), sessionId: "crash" });
    const { toolResults } = await ts.list({ limit: 100_000 });
    assert.ok(toolResults.length >= 4, `only ${toolResults.length} results before the kill`);
    for (const record of toolResults) {
      const verified = await ts.verify(record.storage_uri);
      assert.equal(verified.sha256, record.sha256);
      const { content } = await ts.read(record.storage_uri, { limit: -1 });
      assert.equal(sha256Hex(content), record.sha256);
      assert.match(content, new RegExp(`^result ${record.tool_id.slice(1)}\\n`));
    }
    assert.ok(!toolResults.some((r) => r.tool_result_id === "tr_orphan_0123456789abcdef"));
    await assert.rejects(ts.read("tr_orphan_0123456789abcdef"), isCode("NOT_FOUND"));
  });
});

describe("concurrency", () => {
  it("two processes externalizing 200 outputs each into one directory lose and duplicate nothing", async () => {
    const dir = tempDir("tool-stub-concurrent-");
    const worker = (name) => `
      import { ToolStub, NodeFsStore } from ${JSON.stringify(NODE_ENTRY)};
      const ts = new ToolStub({ store: new NodeFsStore(${JSON.stringify(dir)}), sessionId: "shared" });
      for (let i = 0; i < 200; i++) {
        // Every 4th output is the same in both processes (same tool id, same content).
        const shared = i % 4 === 0;
        const toolId = shared ? "shared_" + i : "${name}_" + i;
        const output = (shared ? "common " : "${name} ") + i + "\\n" + "payload ".repeat(3000 + i);
        const [part] = await ts.externalize([{ toolId, toolName: "t", output }], { messageId: "${name}" + i });
        if (!part.truncated) throw new Error("not externalized: " + part.externalizationError);
      }`;
    const run = (name) =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, ["--input-type=module", "-e", worker(name)], {
          stdio: ["ignore", "inherit", "inherit"],
        });
        child.once("exit", (code) =>
          code === 0 ? resolve() : reject(new Error(`${name} exited ${code}`)),
        );
      });
    await Promise.all([run("a"), run("b")]);
    const ts = new ToolStub({ store: new NodeFsStore(dir), sessionId: "shared" });
    const { toolResults } = await ts.list({ limit: 10_000 });
    assert.equal(toolResults.length, 50 + 150 + 150, "one result per distinct output");
    assert.equal(new Set(toolResults.map((r) => r.tool_result_id)).size, toolResults.length);
    for (const record of toolResults) await ts.verify(record.storage_uri);
    const leftovers = tree(dir).filter((f) => /\.tmp$/.test(f));
    assert.deepEqual(leftovers, []);
  });
});

describe("store failures under every failure mode", () => {
  const quota = () => {
    const error = new Error("the quota has been exceeded");
    error.name = "QuotaExceededError";
    return error;
  };
  const stores = {
    throwing: () =>
      Object.assign(new MemoryStore(), {
        save: async () => {
          throw new Error("boom");
        },
      }),
    "quota-full": () => Object.assign(new MemoryStore(), { save: () => Promise.reject(quota()) }),
    hanging: () => Object.assign(new MemoryStore(), { save: () => new Promise(() => {}) }),
  };
  const expectedError = {
    throwing: /^Error: boom$/,
    "quota-full": /^QuotaExceededError: /,
    hanging: /^TimeoutError: store\.save\(\) did not settle within 50 ms$/,
  };

  for (const [storeName, makeStore] of Object.entries(stores)) {
    for (const failureMode of ["preserve_raw", "preview_only", "reject"]) {
      it(`${storeName} store, ${failureMode}`, async () => {
        const ts = new ToolStub({
          store: makeStore(),
          sessionId: "fail",
          config: { failureMode, storeTimeoutMs: 50 },
        });
        const output = big("failing");
        const turn = ts.externalize(
          [
            { toolId: "c", toolName: "t", output },
            { toolId: "d", toolName: "t", output: "small" },
          ],
          { messageId: "m" },
        );
        if (failureMode === "reject") {
          await assert.rejects(turn, isCode("STORE_FAILED"));
          return;
        }
        const [part, small] = await turn;
        assert.match(part.externalizationError, expectedError[storeName]);
        assert.equal(small.output, "small");
        if (failureMode === "preserve_raw") {
          assert.equal(part.output, output);
          assert.equal(part.truncated, false);
        } else {
          assert.equal(part.truncated, true);
          assert.equal(part.outputRef, "");
          assert.match(part.output, /reason: single_threshold:externalization_failed/);
        }
      });
    }
  }
});

describe("outputs over maxOutputBytes", () => {
  const huge = "€".repeat(40_000); // 120,000 bytes of UTF-8 in 40,000 chars
  for (const failureMode of ["preserve_raw", "preview_only", "reject"]) {
    it(`are refused with TOO_LARGE under ${failureMode} and never stored`, async () => {
      const store = new MemoryStore();
      const ts = new ToolStub({
        store,
        sessionId: "big",
        config: { failureMode, maxOutputBytes: 100_000 },
      });
      const turn = ts.externalize(
        [
          { toolId: "c", toolName: "t", output: huge },
          { toolId: "d", toolName: "t", output: "fine" },
        ],
        { messageId: "m" },
      );
      if (failureMode === "reject") {
        await assert.rejects(turn, isCode("TOO_LARGE"));
      } else {
        const [part, small] = await turn;
        assert.match(
          part.externalizationError,
          /^TOO_LARGE: .*120000 bytes of UTF-8, over max_output_bytes \(100000\)/,
        );
        assert.equal(part.outputRef, "");
        assert.equal(small.output, "fine");
        if (failureMode === "preserve_raw") assert.equal(part.output, huge);
        else assert.ok(part.output.length < 5000 && /reason: too_large/.test(part.output));
      }
      assert.deepEqual(await store.loadRange([]), []);
    });
  }
});

describe("the SHA-256 of externalized outputs", () => {
  // Well-formed: an output with lone surrogates is hashed over its WTF-8 (integrity.test.js).
  const output = "hash me \u00e9 \u20ac ".repeat(3_000);
  const externalizedSha = async () => {
    const [part] = await new ToolStub({ sessionId: "hash" }).externalize(
      [{ toolId: "t", toolName: "x", output }],
      { messageId: "m" },
    );
    return part.sha256;
  };

  it("is node:crypto's of the bytes the core holds", async () => {
    const expected = createHash("sha256").update(output, "utf8").digest("hex");
    assert.equal(await externalizedSha(), expected);
    assert.equal(sha256Hex(output), expected);
  });

  it("falls back to the core's own when the in-core hasher throws or answers nonsense", async () => {
    const expected = sha256Hex(output);
    try {
      const seen = [];
      runtime.useInCoreSha256((utf8) => {
        seen.push(new TextDecoder().decode(utf8));
        return "cd".repeat(32);
      });
      assert.equal(await externalizedSha(), "cd".repeat(32), "the in-core hasher is the one used");
      assert.deepEqual(seen, [output], "it is given the output's UTF-8");
      for (const broken of [
        () => {
          throw new Error("no hash today");
        },
        () => "not a digest",
        () => undefined,
      ]) {
        runtime.useInCoreSha256(broken);
        assert.equal(await externalizedSha(), expected);
      }
    } finally {
      runtime.useInCoreSha256((utf8) => createHash("sha256").update(utf8).digest("hex"));
    }
  });

  it("in browsers, is an async hasher's of the bytes staged in the core, and the core's where it fails", async () => {
    // The browser entry's path, driven in Node: the outputs are staged in the core and each
    // one's UTF-8 is handed to an asynchronous hasher (WebCrypto's digest copies it at once).
    const restore = () => {
      useSha256((text) => createHash("sha256").update(text, "utf8").digest("hex"));
      runtime.useInCoreSha256((utf8) => createHash("sha256").update(utf8).digest("hex"));
    };
    const expected = sha256Hex(output);
    try {
      const given = [];
      useSha256(() => {
        throw new Error("the text hasher is not the one used");
      });
      runtime.useStagedSha256(async (utf8) => {
        given.push(new TextDecoder().decode(utf8));
        const digest = new Uint8Array(await webcrypto.subtle.digest("SHA-256", utf8));
        return Buffer.from(digest).toString("hex");
      });
      assert.equal(await externalizedSha(), expected);
      assert.deepEqual(given, [output], "it is given the staged output's UTF-8");
      for (const broken of [
        () => Promise.reject(new Error("no hash today")),
        () => {
          throw new Error("sync");
        },
        async () => "not a digest",
      ]) {
        runtime.useStagedSha256(broken);
        assert.equal(await externalizedSha(), expected);
      }
    } finally {
      restore();
    }
  });

  it("staged outputs are planned once, and a staging that is not pending is refused", () => {
    const input = JSON.stringify({
      sessionId: "staged",
      messageId: "m",
      parts: [
        { toolId: "a", toolName: "x" },
        { toolId: "b", toolName: "x" },
        { toolId: "c", toolName: "x" },
      ],
    });
    const outputs = [output, "", "short"];
    const started = [];
    const staged = stageOutputs(outputs, {
      start: (index, utf8) => started.push([index, new TextDecoder().decode(utf8)]),
    });
    assert.deepEqual(
      started,
      [
        [0, output],
        [2, "short"],
      ],
      "every non-empty output, as UTF-8",
    );
    // "" for the first: the core hashes it.
    const [planned] = planStagedTurn(input, staged, ["", "", ""]);
    const { turn, writes } = JSON.parse(planned);
    dropTurn(turn);
    assert.deepEqual(
      writes.map((write) => [write.partIndex, write.sha256]),
      [[0, sha256Hex(output)]],
    );
    assert.throws(
      () => planStagedTurn(input, staged, []),
      (error) => error.code === "INVALID_ARGUMENT",
    );
    const dropped = stageOutputs(outputs, { start: () => {} });
    dropStagedOutputs(dropped);
    dropStagedOutputs(dropped);
    assert.throws(
      () => planStagedTurn(input, dropped, []),
      (error) => error.code === "INVALID_ARGUMENT",
    );
  });

  it("is the one installed with useSha256, which replaces the in-core one", async () => {
    const installed = "ab".repeat(32);
    try {
      useSha256(() => installed);
      assert.equal(await externalizedSha(), installed);
    } finally {
      useSha256((text) => createHash("sha256").update(text, "utf8").digest("hex"));
      runtime.useInCoreSha256((utf8) => createHash("sha256").update(utf8).digest("hex"));
    }
  });
});
