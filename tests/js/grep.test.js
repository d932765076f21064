// The grep module and bounded searches through the public API: Unicode
// semantics, bad and costly patterns, snippet budgets, the lazily loaded second module.
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { ToolStub, MemoryStore, preloadGrep, rejectsWith } from "./pkg.js";

/** Stores each output as its own externalized result. */
async function stored(outputs) {
  const ts = new ToolStub({
    sessionId: "g1",
    store: new MemoryStore(),
    config: { thresholdChars: 5 },
  });
  const refs = [];
  for (const [i, output] of outputs.entries()) {
    const [part] = await ts.externalize([{ toolId: `call_${i}`, toolName: "bash", output }], {
      messageId: `m${i}`,
    });
    refs.push(part.outputRef);
  }
  return { ts, refs };
}

/** The matched text of each match, by its code-point offset and length. */
function matched(text, result) {
  const chars = [...text];
  return result.matches.map((m) => chars.slice(m.offset, m.offset + m.length).join(""));
}

describe("grep module: Unicode semantics", () => {
  it("loads ahead of time with preloadGrep", async () => {
    await preloadGrep();
    await preloadGrep();
  });

  it("ignoreCase folds Unicode case, \\w \\d \\b are Unicode's, \\p{..} works", async () => {
    const text = "ÉCOLE école Ecole\nΣΊΣΥΦΟΣ σίσυφος\ncafé cafe\n日本語 本 中文\nx ٣٤ 12";
    const { ts, refs } = await stored([text]);
    const search = async (options) => matched(text, await ts.search(refs[0], options));
    assert.deepEqual(await search({ query: "école", ignoreCase: true }), ["ÉCOLE", "école"]);
    assert.deepEqual(await search({ query: "σίσυφος", ignoreCase: true }), ["ΣΊΣΥΦΟΣ", "σίσυφος"]);
    assert.deepEqual(await search({ query: "caf\\w\\b", regex: true }), ["café", "cafe"]);
    assert.deepEqual(await search({ query: "本", wholeWord: true }), ["本"]);
    assert.deepEqual(await search({ query: "\\p{Han}+", regex: true }), ["日本語", "本", "中文"]);
    assert.deepEqual(await search({ query: "\\d+", regex: true }), ["٣٤", "12"]);
    // The lone 本 is the 5th line's 5th char.
    const word = await ts.search(refs[0], { query: "本", wholeWord: true });
    assert.deepEqual([word.matches[0].line, word.matches[0].column], [4, 5]);
  });

  it("searchAll greps with the grep module too", async () => {
    const { ts, refs } = await stored(["ÉCOLE here", "nothing", "une école et une Ecole"]);
    const all = await ts.searchAll({ query: "école", ignoreCase: true });
    assert.deepEqual(all.results.map((r) => r.ref).sort(), [refs[0], refs[2]].sort());
    assert.deepEqual(
      all.results.map((r) => r.totalMatches),
      [1, 1],
    );
    await rejectsWith(
      ts.searchAll({ query: "(", regex: true }),
      "INVALID_ARGUMENT",
      /unclosed group/,
    );
  });
});

describe("grep module: bad and costly patterns", () => {
  it("an invalid regex is INVALID_ARGUMENT with the parser's message", async () => {
    const { ts, refs } = await stored(["some text"]);
    await rejectsWith(
      ts.search(refs[0], { query: "[a-", regex: true }),
      "INVALID_ARGUMENT",
      /invalid regex.*unclosed character class/s,
    );
    await rejectsWith(
      ts.search(refs[0], { query: "\\p{Nope}", regex: true }),
      "INVALID_ARGUMENT",
      /Unicode property not found/,
    );
  });

  it("counted repetitions and compiled size are capped, naming the cap", async () => {
    const { ts, refs } = await stored(["a".repeat(1000)]);
    for (const query of ["a{10000}", "(?:a{100}){250}"]) {
      await rejectsWith(
        ts.search(refs[0], { query, regex: true }),
        "INVALID_ARGUMENT",
        /cap of 1000/,
      );
    }
    await rejectsWith(
      ts.search(refs[0], { query: "(?:\\w{50}\\p{L}{50}){10}", regex: true }),
      "INVALID_ARGUMENT",
      /cap of \d+ bytes/,
    );
  });

  it("pathological patterns over 10 MB finish: all matches, or what was found and a note", async () => {
    const text = "a".repeat(10_000_000);
    const { ts, refs } = await stored([text]);
    for (const query of [
      "a*b|a",
      "(?:a|aa)*c",
      "a{1000}",
      "(?:a{100}){10}",
      "(a+)+$",
      "\\ba{999}\\b",
    ]) {
      const started = performance.now();
      const found = await ts.search(refs[0], { query, regex: true, limit: 3, contextChars: 10 });
      const took = performance.now() - started;
      if (found.note !== undefined) {
        assert.match(found.note, /time budget.*char offset \d+/s, query);
        assert.ok(found.totalMatches < text.length, query);
      }
      // A generous bound (the budget is 400 ms) on a shared 2-core machine.
      assert.ok(took < 10_000, `${query} took ${took} ms`);
    }
    const far = await ts.search(refs[0], { query: "a*b|a", regex: true });
    assert.match(far.note, /time budget/);
  });
});

describe("bounded snippets", () => {
  // limit 10,000 x contextChars 100,000 over 1 MB built ~2 GB of snippets and trapped the core.
  for (const [name, options] of [
    ["literal (JS fast path)", { query: "x" }],
    ["ignoreCase (grep module)", { query: "X", ignoreCase: true }],
  ]) {
    it(`${name}: snippets share a budget, the rest is counted`, async () => {
      const text = "x\n".repeat(500_000);
      const { ts, refs } = await stored([text]);
      const found = await ts.search(refs[0], { ...options, limit: 10_000, contextChars: 100_000 });
      const chars = found.matches.reduce((sum, m) => sum + m.snippet.length, 0);
      assert.ok(chars <= 1 << 20, `${chars} chars of snippets`);
      assert.ok(
        found.matches.length >= 5 && found.matches.length < 10_000,
        `${found.matches.length}`,
      );
      assert.equal(found.totalMatches, 500_000);
      assert.match(found.note, /not listed.*contextChars/);
      const tool = await ts.handleToolCall("openviking_tool_result_search", {
        ref: refs[0],
        query: options.query,
        limit: 100,
        context_chars: 100_000,
      });
      assert.ok(!tool.error, JSON.stringify(tool.error));
      assert.ok(JSON.stringify(tool).length < 200_000);
      // The module still works, nothing was reset.
      assert.equal((await ts.search(refs[0], { ...options, limit: 1 })).matches.length, 1);
    });
  }

  it("searchAll bounds each result's snippets the same way", async () => {
    const { ts } = await stored(["y\n".repeat(300_000), `${"y\n".repeat(300_000)}z`]);
    const all = await ts.searchAll({ query: "y", perResult: 10_000, contextChars: 100_000 });
    for (const result of all.results) {
      const chars = result.matches.reduce((sum, m) => sum + m.snippet.length, 0);
      assert.ok(chars <= 1 << 20 && result.matches.length < 10_000, `${chars}`);
      assert.equal(result.totalMatches, 300_000);
    }
  });
});
