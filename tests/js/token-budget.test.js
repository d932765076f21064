// Turn budgets in tokens (config budgetUnit "tokens"): the token threshold and inline budget
// decide instead of the char ones, counts are skipped only where an output's UTF-8 bytes already
// decide, stubs and list entries report tokens, and bad options or a missing tokenizer fail typed.
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { ToolStub, isCode, ROOT } from "./pkg.js";

const { countTokens: o200k, isWithinTokenLimit } = await import(
  "gpt-tokenizer/encoding/o200k_base"
);

const utf8 = (text) => Buffer.byteLength(text, "utf8");

/** ~4,000 chars of CJK text: far under the 20,000-char threshold, thousands of tokens. */
const cjk = "数据库连接超时，请稍后重试。用户订单已发货，物流单号待更新。".repeat(140);
/** 30,000 chars of one short word: over the char threshold, ~6,000 tokens. */
const words = "word ".repeat(6_000);

function tokenStub(config, extra = {}) {
  return new ToolStub({
    sessionId: `tok-${Math.random().toString(36).slice(2)}`,
    config: { budgetUnit: "tokens", ...config },
    ...extra,
  });
}

async function one(ts, output, part = {}) {
  const [out] = await ts.externalize([{ toolId: "c1", toolName: "fetch", output, ...part }], {
    messageId: "m1",
  });
  return out;
}

describe("budgetUnit: tokens", () => {
  it("counts an output that quotes a special token as text, under and over the threshold", async () => {
    const quoted = "log line <|endoftext|> and <|im_start|> quoted by a tool\n";
    const small = quoted.repeat(10);
    const ts = tokenStub({ thresholdTokens: 1_000 });
    const inline = await one(ts, small);
    assert.equal(inline.truncated, false);
    const large = quoted.repeat(400);
    const out = await one(ts, large, { toolId: "c2" });
    assert.equal(out.truncated, true);
    assert.match(out.output, /\noriginal_tokens: \d+\n/);
    assert.equal((await ts.read(out.outputRef, { limit: -1 })).content, large);
  });

  it("stubs an output over the token threshold that is under the char one", async () => {
    const tokens = o200k(cjk);
    assert.ok(cjk.length < 20_000 && tokens > 1_000, `${cjk.length} chars, ${tokens} tokens`);
    const out = await one(tokenStub({ thresholdTokens: 1_000 }), cjk);
    assert.equal(out.truncated, true);
    assert.equal(out.externalizedReason, "single_threshold");
    assert.match(out.output, new RegExp(`\\noriginal_tokens: ${tokens}\\n`));
    // The same output in chars mode (the default) stays inline.
    const chars = await one(new ToolStub({ sessionId: "chars" }), cjk);
    assert.equal(chars.output, cjk);
  });

  it("keeps an output under the token threshold inline, though over the char one", async () => {
    assert.ok(o200k(words) < 10_000);
    const out = await one(tokenStub({ thresholdTokens: 10_000 }), words);
    assert.equal(out.output, words);
    assert.equal(out.truncated, false);
    // In chars mode it goes out, and its stub says nothing of tokens (the reference's stub).
    const chars = await one(new ToolStub({ sessionId: "chars2" }), words);
    assert.equal(chars.truncated, true);
    assert.doesNotMatch(chars.output, /original_tokens/);
  });

  it("sends a turn's largest outputs out when it passes the token budget", async () => {
    const ts = tokenStub({ thresholdTokens: 10_000, assistantTurnInlineBudgetTokens: 9_000 });
    const parts = ["a", "b"].map((id) => ({ toolId: id, toolName: "fetch", output: words }));
    const out = await ts.externalize(parts, { messageId: "m" });
    assert.deepEqual(
      out.map((p) => p.externalizedReason),
      ["turn_budget", ""],
    );
    assert.match(out[0].output, new RegExp(`\\noriginal_tokens: ${o200k(words)}\\n`));
  });

  it("counts a stub toward the turn's token budget by its bytes, never under its tokens", async () => {
    // Emoji are 3 o200k tokens and 4 UTF-8 bytes each, 1 char: the stub of an emoji output
    // shows hundreds of them and has more tokens than chars. Counted in chars, it left room for
    // a second output that then passed the budget in real tokens.
    // Session ids of one length: the stubs' refs, and so their chars, are the same length.
    const stubOf = (sessionId, budget) =>
      new ToolStub({
        sessionId,
        config: {
          budgetUnit: "tokens",
          thresholdTokens: 2_000,
          assistantTurnInlineBudgetTokens: budget,
          previewChars: 1_000,
          minPreviewChars: 1_000,
        },
      });
    const emoji = "\u{1f99c}".repeat(3_000);
    const small = "word ".repeat(1_900);
    const smallTokens = o200k(small);
    const alone = (await one(stubOf("stub-bytes-1", 10 ** 9), emoji)).output;
    const stubChars = [...alone].length;
    assert.ok(o200k(alone) > stubChars + 1_000, `${o200k(alone)} tokens, ${stubChars} chars`);
    assert.ok(utf8(alone) >= o200k(alone));
    // The stub's chars and the small output's tokens fit this budget; the stub's tokens do not.
    const budget = stubChars + smallTokens + 1;
    const turn = await stubOf("stub-bytes-2", budget).externalize(
      [
        // The same tool id as `one`'s: the same ref length.
        { toolId: "c1", toolName: "fetch", output: emoji },
        { toolId: "c2", toolName: "fetch", output: small },
      ],
      { messageId: "m" },
    );
    assert.deepEqual(
      turn.map((p) => p.externalizedReason),
      ["single_threshold", "turn_budget"],
    );
    // In real tokens the turn is now lower than it would have been with the small output inline.
    const tokens = turn.reduce((sum, p) => sum + o200k(p.output), 0);
    assert.ok(tokens < o200k(alone) + smallTokens, `${tokens} tokens`);
  });

  it("lists stored results with their tokens", async () => {
    const ts = tokenStub({ thresholdTokens: 1_000 });
    const out = await one(ts, cjk);
    const listed = await ts.handleToolCall("openviking_tool_result_list", {});
    assert.equal(listed.tool_results.length, 1);
    assert.equal(listed.tool_results[0].ref, out.outputRef);
    assert.equal(listed.tool_results[0].tokens, o200k(cjk));
    assert.equal(listed.tool_results[0].chars, [...cjk].length);
    const [record] = (await ts.list()).toolResults;
    assert.equal(record.original_tokens, o200k(cjk));
    // Chars mode lists no tokens.
    const plain = new ToolStub({ sessionId: "plain" });
    await one(plain, words);
    const entry = (await plain.handleToolCall("openviking_tool_result_list", {})).tool_results[0];
    assert.equal("tokens" in entry, false);
    assert.equal("original_tokens" in (await plain.list()).toolResults[0], false);
  });

  it("counts with the caller's countTokens, and only what its size does not decide", async () => {
    const counted = [];
    const countTokens = (text) => {
      counted.push(text);
      return text.length;
    };
    const ts = tokenStub(
      { thresholdTokens: 3_000, assistantTurnInlineBudgetTokens: 1_000_000 },
      { countTokens },
    );
    // 1,000 chars of 3 bytes: 3,000 bytes can hold no more than 3,000 tokens: not counted.
    const small = "中".repeat(1_000);
    assert.equal((await one(ts, small)).output, small);
    assert.deepEqual(counted, []);
    // One char more and its bytes could be over: counted (as 1,001: inline).
    const more = "中".repeat(1_001);
    assert.equal((await one(ts, more)).output, more);
    assert.deepEqual(counted, [more]);
    // The caller's count decides: 3,001 ASCII chars counted as 3,001 go out.
    const ascii = "x".repeat(3_001);
    const out = await one(ts, ascii);
    assert.equal(out.truncated, true);
    assert.match(out.output, /\noriginal_tokens: 3001\n/);
  });

  it("skips counting only where the byte bound holds (CJK, emoji, mixed)", async () => {
    const samples = [
      cjk,
      "🙂👍🏽🚀 ".repeat(500),
      "naïve café — 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ".repeat(300),
      "\u{10FFFF}\u{E000}".repeat(400),
      JSON.stringify({ 名前: "値", emoji: "🙂" }).repeat(200),
    ];
    for (const text of samples) {
      // A BPE token covers at least one byte: tokens never pass the UTF-8 bytes...
      assert.ok(o200k(text) <= utf8(text), `${o200k(text)} tokens > ${utf8(text)} bytes`);
      // ...which are at most 3 a UTF-16 unit, the bound the counter checks first.
      assert.ok(utf8(text) <= text.length * 3);
      // An output whose bytes are the threshold is never over it: inline, uncounted.
      let calls = 0;
      const ts = tokenStub(
        { thresholdTokens: utf8(text), assistantTurnInlineBudgetTokens: 10 ** 9 },
        {
          countTokens: (t) => {
            calls += 1;
            return o200k(t);
          },
        },
      );
      assert.equal((await one(ts, text)).output, text);
      assert.equal(calls, 0);
    }
  });

  it("estimates an over-threshold output's tokens from its head, and says so", async () => {
    const big = "status ok, retry 3 of 5 for /api/v2/orders\n".repeat(25_000);
    const ts = tokenStub({ thresholdTokens: 1_000 });
    const out = await one(ts, big);
    assert.equal(out.truncated, true);
    assert.equal(out.externalizedReason, "single_threshold");
    const [, estimate, headChars] =
      /\noriginal_tokens: ~(\d+) \(estimated from the first (\d+) chars\)\n/.exec(out.output) ?? [];
    assert.ok(estimate, out.output.slice(0, 400));
    // The head is what counting went through to prove the output over the threshold, and at
    // least 4,096 tokens: more than the threshold's 1,000, far less than the whole.
    const head = big.slice(0, Number(headChars));
    assert.ok(o200k(head) >= 4_096, `${o200k(head)} tokens in the head`);
    assert.ok(Number(headChars) < big.length / 10, headChars);
    // The head is the whole output's shape: the estimate is near the count.
    const exact = o200k(big);
    assert.ok(Math.abs(Number(estimate) - exact) < exact * 0.02, `${estimate} vs ${exact}`);
    const [record] = (await ts.list()).toolResults;
    assert.equal(record.original_tokens, Number(estimate));
    assert.equal(record.original_tokens_estimated_from_chars, Number(headChars));
    const [entry] = (await ts.handleToolCall("openviking_tool_result_list", {})).tool_results;
    assert.equal(entry.tokens, Number(estimate));
    assert.equal(entry.tokens_estimated_from_chars, Number(headChars));
    // Under the threshold once counted (its bytes were over it): the exact count, no estimate.
    const near = tokenStub({ thresholdTokens: 6_500 });
    const stubbed = await one(near, big.slice(0, 20_000), { forceExternalize: true });
    assert.match(
      stubbed.output,
      new RegExp(`\\noriginal_tokens: ${o200k(big.slice(0, 20_000))}\\n`),
    );
  });

  it("decides every part as a full count would", async () => {
    const parts = [
      "word ".repeat(1_500),
      "status ok, retry 3 of 5\n".repeat(3_000),
      cjk,
      "word ".repeat(5_000),
    ].map((output, i) => ({ toolId: `c${i}`, toolName: "fetch", output }));
    const config = { thresholdTokens: 2_000, assistantTurnInlineBudgetTokens: 3_000 };
    const early = await tokenStub(config).externalize(parts, { messageId: "m" });
    const full = await tokenStub(config, { countTokens: o200k }).externalize(parts, {
      messageId: "m",
    });
    const decided = (out) => out.map((p) => [p.truncated, p.externalizedReason]);
    assert.deepEqual(decided(early), decided(full));
    assert.ok(decided(full).some(([, reason]) => reason === "single_threshold"));
    assert.ok(decided(full).some(([truncated]) => !truncated));
  });

  it("does not count a 10 MB output in full", () => {
    // A child process whose o200k module is wrapped by a spy that records what it is given.
    const real = import.meta.resolve("gpt-tokenizer/encoding/o200k_base");
    const spy = `data:text/javascript,${encodeURIComponent(
      `import * as real from ${JSON.stringify(real)};
       const seen = (globalThis.tokenSpy ??= []);
       export const countTokens = (t, o) => { seen.push(["count", t.length]); return real.countTokens(t, o); };
       export const isWithinTokenLimit = (t, l, o) => { seen.push(["within", t.length, l]); return real.isWithinTokenLimit(t, l, o); };
       export const decode = (tokens) => { const text = real.decode(tokens); seen.push(["decode", tokens.length, text.length]); return text; };
       export function* encodeGenerator(t, o) {
         const call = ["generate", t.length, 0];
         seen.push(call);
         for (const piece of real.encodeGenerator(t, o)) { call[2] += piece.length; yield piece; }
       }`,
    )}`;
    const hook = `data:text/javascript,${encodeURIComponent(
      `export async function resolve(s, c, next) { if (s === "gpt-tokenizer/encoding/o200k_base") return { url: ${JSON.stringify(spy)}, shortCircuit: true }; return next(s, c); }`,
    )}`;
    const register = `data:text/javascript,${encodeURIComponent(
      `import { register } from "node:module"; register(${JSON.stringify(hook)});`,
    )}`;
    const script = `
      import { ToolStub } from ${JSON.stringify(`${ROOT}/pkg/js/node.js`)};
      const output = JSON.stringify({ rows: Array.from({ length: 120000 }, (_, i) => ({ id: i, name: "row " + i, ok: i % 3 === 0 })) });
      const ts = new ToolStub({ sessionId: "spy", config: { budgetUnit: "tokens" } });
      const [out] = await ts.externalize([{ toolId: "c", toolName: "fetch", output }], { messageId: "m" });
      console.log(JSON.stringify({ chars: output.length, truncated: out.truncated, stub: out.output, seen: globalThis.tokenSpy }));`;
    const stdout = execFileSync(
      process.execPath,
      ["--import", register, "--input-type=module", "-e", script],
      { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
    );
    const { chars, truncated, stub, seen } = JSON.parse(stdout.trim().split("\n").pop());
    assert.ok(chars > 5_000_000, `${chars} chars`);
    assert.equal(truncated, true);
    const [, headChars] =
      /\noriginal_tokens: ~\d+ \(estimated from the first (\d+) chars\)\n/.exec(stub) ?? [];
    assert.ok(headChars, stub.slice(0, 400));
    // One pass over the output, pulled only until it passed the threshold (5,000 tokens; a
    // piece is a few tokens at most), then the tokens pulled decoded to the head's length: no
    // second count of a head, nothing counted in full.
    assert.equal(seen.length, 2, JSON.stringify(seen));
    const [[generate, given, pulled], [decode, decoded, headUnits]] = seen;
    assert.deepEqual([generate, given, decode], ["generate", chars, "decode"]);
    assert.ok(pulled > 5_000 && pulled < 5_100, `${pulled} tokens pulled`);
    assert.equal(decoded, pulled);
    // The output is ASCII: its head's UTF-16 units are its chars.
    assert.equal(headUnits, Number(headChars));
  });

  it("stops a caller's countTokens(text, limit) past the threshold, and estimates from a head", async () => {
    const big = "status ok, retry 3 of 5 for /api/v2/orders\n".repeat(25_000);
    const calls = [];
    // Stops as gpt-tokenizer's isWithinTokenLimit does; Infinity: the whole count.
    const stopping = (text, limit) => {
      calls.push([text.length, limit]);
      const within = isWithinTokenLimit(text, limit, { disallowedSpecial: new Set() });
      return within === false ? limit + 1 : within;
    };
    const ts = tokenStub({ thresholdTokens: 1_000 }, { countTokens: stopping });
    const out = await one(ts, big);
    assert.equal(out.externalizedReason, "single_threshold");
    // The output against the threshold, then its first 65,536 units to the end: never all of it.
    assert.deepEqual(calls, [
      [big.length, 1_000],
      [65_536, Infinity],
    ]);
    const [, estimate] =
      /\noriginal_tokens: ~(\d+) \(estimated from the first 65536 chars\)\n/.exec(out.output) ?? [];
    const exact = o200k(big);
    assert.ok(Math.abs(Number(estimate) - exact) < exact * 0.02, `${estimate} vs ${exact}`);
    // An output of at most 65,536 units is counted whole, and reports its count.
    calls.length = 0;
    const mid = "word ".repeat(5_000);
    const counted = await one(
      tokenStub({ thresholdTokens: 1_000 }, { countTokens: stopping }),
      mid,
    );
    assert.deepEqual(calls, [[mid.length, Infinity]]);
    assert.match(counted.output, new RegExp(`\\noriginal_tokens: ${o200k(mid)}\\n`));
    // One parameter: no limit to stop at, so the whole output, and an exact count.
    const seen = [];
    const whole = (text) => {
      seen.push(text.length);
      return o200k(text);
    };
    const full = await one(tokenStub({ thresholdTokens: 1_000 }, { countTokens: whole }), big);
    assert.deepEqual(seen, [big.length]);
    assert.match(full.output, new RegExp(`\\noriginal_tokens: ${exact}\\n`));
  });

  it("refuses bad options with INVALID_ARGUMENT", () => {
    const cases = [
      [{ config: { budgetUnit: "words" } }, /budgetUnit|chars|tokens/],
      [{ config: { budgetUnit: "tokens", tokenizer: "p50k" } }, /tokenizer|o200k/],
      [{ config: { thresholdTokens: "many" } }, /expected i64/],
      [{ countTokens: 42 }, /countTokens/],
    ];
    for (const [options, pattern] of cases) {
      assert.throws(
        () => new ToolStub({ sessionId: "bad", ...options }),
        isCode("INVALID_ARGUMENT", pattern),
      );
    }
  });

  it("answers NOT_READY without gpt-tokenizer, and works once countTokens is given", () => {
    // A child process in which gpt-tokenizer does not resolve (as in an app that did not install it).
    const hook = `data:text/javascript,${encodeURIComponent(
      `export async function resolve(s, c, next) { if (s.startsWith("gpt-tokenizer")) throw new Error("Cannot find package 'gpt-tokenizer'"); return next(s, c); }`,
    )}`;
    const register = `data:text/javascript,${encodeURIComponent(
      `import { register } from "node:module"; register(${JSON.stringify(hook)});`,
    )}`;
    const script = `
      import { ToolStub } from ${JSON.stringify(`${ROOT}/pkg/js/node.js`)};
      const part = { toolId: "c", toolName: "fetch", output: "x".repeat(30000) };
      const ts = new ToolStub({ sessionId: "n", config: { budgetUnit: "tokens" } });
      let code = "none";
      try { await ts.externalize([part], { messageId: "m" }); } catch (e) { code = e.code + ": " + e.message; }
      const own = new ToolStub({ sessionId: "o", config: { budgetUnit: "tokens" }, countTokens: (t) => t.length });
      const [out] = await own.externalize([part], { messageId: "m" });
      console.log(JSON.stringify({ code, truncated: out.truncated }));`;
    const stdout = execFileSync(
      process.execPath,
      ["--import", register, "--input-type=module", "-e", script],
      { encoding: "utf8" },
    );
    const { code, truncated } = JSON.parse(stdout.trim().split("\n").pop());
    assert.match(code, /^NOT_READY: .*gpt-tokenizer/);
    assert.equal(truncated, true);
  });
});
