// One session shared by many instances through Redis. Run: `REDIS_URL=redis://127.0.0.1:6379 node
// examples/redis-store.mjs` (ioredis is an optional peer dependency: npm install ioredis).
// @ts-check
import { Redis } from "ioredis";
import { ToolStub } from "tool-stub";
import { RedisStore } from "tool-stub/redis";
import { fetchOrders } from "./orders.mjs";

const client = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379"); // or new Cluster([...])
const store = new RedisStore({ client, keyPrefix: "my-agent" });
const ts = new ToolStub({ store, sessionId: "chat-42" }); // one per request is fine
try {
  const [part] = await ts.externalize(
    [{ toolId: "call_1", toolName: "fetch_orders", output: await fetchOrders() }],
    { messageId: "m1" },
  );
  if (part.outputRef) {
    const { matches } = await ts.search(part.outputRef, { query: "NEEDLE", limit: 1 });
    console.log(`stored as ${part.outputRef}; NEEDLE at offset ${matches[0]?.offset}`);
  }
} finally {
  client.disconnect();
}
