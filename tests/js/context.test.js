// The context governor, ts.fitContext: every message format, the budget, keepRecent, pins and
// excluded tools, idempotence, determinism, no mutation, and every cleared result readable and
// searchable by its ref.
import { describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { ToolStub, MemoryStore, isCode } from "./pkg.js";
import { FORMATS, conversation, jsonRows, logLines, resultTexts } from "./context-conversations.js";

/** A cheap deterministic count: enough for the policy's tests (the tokenizer has its own). */
const countTokens = (text) => Math.ceil(text.length / 4);

/** Eight steps of one to two calls: 12 results, ~120k "tokens" of outputs. */
function steps() {
  const out = [];
  for (let s = 0; s < 8; s++) {
    const calls = [
      {
        id: `call_${s}a`,
        name: "orders",
        args: { page: s },
        output: jsonRows(300 + s * 10, `o${s}`),
      },
    ];
    if (s % 2 === 0)
      calls.push({
        id: `call_${s}b`,
        name: "logs",
        args: { day: s },
        output: logLines(200, `l${s}`),
      });
    out.push({ calls });
  }
  // A short last answer that must stay.
  out.push({ calls: [{ id: "call_last", name: "memory", output: "remember: ord_5 failed" }] });
  return out;
}

const budget = { trigger: 50_000, target: 30_000, keepRecent: 3, countTokens };

for (const format of FORMATS) {
  describe(`fitContext, format ${format}`, () => {
    it("clears older results under the target, each still readable and searchable by ref", async () => {
      const ts = new ToolStub({ sessionId: `ctx-${format}` });
      const messages = conversation(format, steps());
      const before = structuredClone(messages);
      const fitted = await ts.fitContext(messages, { format, ...budget });
      assert.deepEqual(messages, before, "the input is untouched");
      assert.equal(fitted.changed, true);
      assert.ok(fitted.tokensBefore > budget.trigger, `${fitted.tokensBefore} over the trigger`);
      assert.ok(fitted.tokensAfter <= budget.target, `${fitted.tokensAfter} under the target`);
      assert.ok(fitted.cleared.length > 0);
      const original = resultTexts(format, messages);
      const after = resultTexts(format, fitted.messages);
      // The last three results are as they were.
      const ids = [...original.keys()];
      for (const id of ids.slice(-3)) assert.equal(after.get(id), original.get(id));
      // Every result that changed is a stub or reference naming a ref that reads back the output.
      let changedResults = 0;
      for (const id of ids) {
        if (after.get(id) === original.get(id)) continue;
        changedResults++;
        const ref = /ref: (viking:\/\/\S+?)[;\n]/.exec(after.get(id))?.[1];
        assert.ok(ref, `a ref in ${after.get(id).slice(0, 200)}`);
        assert.ok(fitted.cleared.includes(ref));
        const { content } = await ts.read(ref, { limit: -1 });
        assert.equal(content, original.get(id));
        const needle = /needle_\w+|l\d step 150 ok/.exec(original.get(id))[0];
        const { matches } = await ts.search(ref, { query: needle, limit: 1 });
        assert.equal(matches.length, 1);
      }
      assert.equal(changedResults, fitted.cleared.length);
      // Messages that hold no changed result are the caller's own objects.
      const unchangedShared = fitted.messages.filter((m, i) => m === messages[i]).length;
      assert.ok(unchangedShared >= messages.length - changedResults);
    });

    it("is idempotent and deterministic", async () => {
      const messages = conversation(format, steps());
      const first = await new ToolStub({ sessionId: "a" }).fitContext(messages, {
        format,
        ...budget,
      });
      const ts = new ToolStub({ sessionId: "a" });
      const second = await ts.fitContext(messages, { format, ...budget });
      assert.deepEqual(second.messages, first.messages, "the same input, the same output");
      const again = await ts.fitContext(second.messages, { format, ...budget });
      assert.equal(again.changed, false);
      assert.equal(again.messages, second.messages);
      assert.deepEqual(again.cleared, []);
      assert.equal(again.tokensBefore, second.tokensAfter);
    });

    it("leaves a conversation under its trigger as it is", async () => {
      const messages = conversation(format, steps());
      const fitted = await new ToolStub({ sessionId: "u" }).fitContext(messages, {
        format,
        contextWindow: 1_000_000,
        countTokens,
      });
      assert.equal(fitted.changed, false);
      assert.equal(fitted.messages, messages);
      assert.equal(fitted.tokensAfter, fitted.tokensBefore);
    });

    it("never touches pinned results or excluded tools", async () => {
      const messages = conversation(format, steps());
      const fitted = await new ToolStub({ sessionId: "p" }).fitContext(messages, {
        format,
        ...budget,
        target: 1_000,
        excludeTools: ["logs"],
        pinned: ["call_1a"],
      });
      const original = resultTexts(format, messages);
      const after = resultTexts(format, fitted.messages);
      for (const id of ["call_0b", "call_2b", "call_4b", "call_6b", "call_1a"])
        assert.equal(after.get(id), original.get(id), id);
      assert.notEqual(after.get("call_0a"), original.get("call_0a"));
      // With the target out of reach, every other older result is down to its reference form.
      assert.match(after.get("call_0a"), /^\[tool result cleared from context\] ref: /);
      assert.ok(!after.get("call_0a").includes("\n"));
    });
  });
}

describe("fitContext across calls", () => {
  it("shrinks stubs already in the conversation to reference forms, stored once", async () => {
    const store = new MemoryStore();
    const ts = new ToolStub({ store, sessionId: "s" });
    const format = "openai";
    // A turn's own externalize put stubs in (outputs over 20,000 chars).
    const big = steps().map(({ calls }) => ({
      calls: calls.map((c) => ({ ...c, output: c.output.repeat(3) })),
    }));
    const messages = conversation(format, big);
    for (const m of messages) {
      if (m.role !== "tool") continue;
      const [part] = await ts.externalize(
        [{ toolId: m.tool_call_id, toolName: "orders", output: m.content }],
        { messageId: "turn" },
      );
      m.content = part.output;
    }
    const stored = (await ts.list({ limit: 1000 })).toolResults.length;
    assert.ok(stored > 5);
    const fitted = await ts.fitContext(messages, {
      format,
      trigger: 1_500,
      target: 200,
      keepRecent: 2,
      countTokens,
    });
    const refs = [...resultTexts(format, fitted.messages).values()].filter((t) =>
      t.startsWith("[tool result cleared from context]"),
    );
    // The target is out of reach: every stub but the last (call_last stays inline) shrinks.
    assert.equal(refs.length, stored - 1, `${refs.length} reference forms of ${stored} stubs`);
    assert.equal(
      (await ts.list({ limit: 1000 })).toolResults.length,
      stored,
      "nothing stored twice",
    );
  });

  it("counts with a named tokenizer, loaded on first use", async () => {
    const format = "anthropic";
    const messages = conversation(format, steps());
    const fitted = await new ToolStub({ sessionId: "t" }).fitContext(messages, {
      format,
      trigger: 60_000,
      target: 40_000,
      tokenizer: "o200k",
    });
    const { countTokens: o200k } = await import("gpt-tokenizer/encoding/o200k_base");
    const strings = JSON.stringify(messages).length;
    assert.ok(fitted.tokensBefore > 60_000 && fitted.tokensBefore < strings);
    assert.ok(fitted.tokensAfter <= 40_000);
    // The count is the tokenizer's: one result's text counted alone matches.
    const one = resultTexts(format, messages).get("call_0a");
    const alone = await new ToolStub({ sessionId: "t1" }).fitContext(
      [{ role: "user", content: one }],
      { format, trigger: 10 ** 9, tokenizer: "o200k" },
    );
    assert.equal(alone.tokensBefore, o200k(one) + o200k("user") + 4);
  });

  it("refuses bad options with INVALID_ARGUMENT", async () => {
    const ts = new ToolStub({ sessionId: "bad" });
    const messages = conversation("openai", steps());
    const cases = [
      [{ format: "gemini", trigger: 10 }, /format/],
      [{ format: "openai" }, /contextWindow or trigger/],
      [{ format: "openai", trigger: 0.5 }, /contextWindow/],
      [{ format: "openai", trigger: 100, target: 200, countTokens }, /target/],
      [{ format: "openai", trigger: 100, keepRecent: -1 }, /keepRecent/],
      [{ format: "openai", trigger: 100, excludeTools: "logs" }, /excludeTools/],
      [{ format: "openai", trigger: 100, tokenizer: "p50k" }, /tokenizer/],
      [{ format: "openai", trigger: 100, countTokens: () => -1 }, /non-negative/],
      [{ format: "openai", trigger: 100, clearAll: true }, /clearAll/],
    ];
    for (const [options, pattern] of cases)
      await assert.rejects(ts.fitContext(messages, options), isCode("INVALID_ARGUMENT", pattern));
    // Messages it cannot read, and a countTokens that throws.
    const cyclic = { role: "user", content: [] };
    cyclic.content.push({ type: "text", nested: cyclic });
    await assert.rejects(
      ts.fitContext([cyclic], { format: "openai", trigger: 100, countTokens }),
      isCode("INVALID_ARGUMENT", /nested over 64 levels/),
    );
    const trap = {
      role: "tool",
      get content() {
        throw new Error("no reading me");
      },
    };
    await assert.rejects(
      ts.fitContext([trap], { format: "openai", trigger: 100, countTokens }),
      isCode("INVALID_ARGUMENT", /no reading me/),
    );
    const failing = () => {
      throw new Error("tokenizer down");
    };
    await assert.rejects(
      ts.fitContext(messages, { format: "openai", trigger: 100, countTokens: failing }),
      isCode("INVALID_ARGUMENT", /tokenizer down/),
    );
    // It still works after them.
    const fitted = await ts.fitContext(messages, { format: "openai", ...budget });
    assert.equal(fitted.changed, true);
  });
});
