// docs/context-governor.md, runnable: `node examples/token-budget.mjs` after
// `npm install tool-stub gpt-tokenizer`. A turn's outputs judged in tokens rather than chars:
// 9,900 chars of CJK text are far under the 20,000-char threshold but over 5,000 tokens.
// @ts-check
import { ToolStub } from "tool-stub";

const ts = new ToolStub({
  sessionId: "chat-7",
  config: {
    budgetUnit: "tokens", // default "chars" (the reference's limits)
    thresholdTokens: 5_000, // one output over this goes out
    assistantTurnInlineBudgetTokens: 25_000, // a turn over this sends its largest out
    tokenizer: "o200k", // or "cl100k"; or pass countTokens below
  },
  // countTokens: (text) => myTokenizer.count(text),
});

const output = "数据库连接超时，请稍后重试。用户订单已发货。".repeat(450);
const [part] = await ts.externalize([{ toolId: "call_1", toolName: "fetch_logs", output }], {
  messageId: "msg_1",
});
console.log(part.truncated, part.output.split("\n").slice(1, 5).join("\n"));
// true tool_name: fetch_logs / kind: text / original_chars: 9900 / original_tokens: 7200

const { toolResults } = await ts.list(); // the list tool's entries say `tokens` too
console.log(toolResults[0].original_chars, toolResults[0].original_tokens);
