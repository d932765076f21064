// Secrets stay out of stubs: a tool output holding an API key and a JWT, stubbed with
// redactSecrets on (the default in enhanced mode, opt-in in reference mode). The stored output
// keeps them. Run: `node examples/redact-secrets.mjs`.
// @ts-check
import { MemoryStore, ToolStub } from "tool-stub";

const store = new MemoryStore();
const ts = new ToolStub({ store, sessionId: "a", config: { synopsisMode: "enhanced" } }); // on by default
const ref = new ToolStub({ store, sessionId: "b", config: { redactSecrets: true } }); // opt in, reference mode

// A config dump of 400 services, one of which prints its credentials.
const services = Array.from({ length: 400 }, (_, i) => ({
  name: `svc-${i}`,
  region: "eu-west-1",
  ...(i === 0
    ? {
        api_key: `sk-proj-${"Ab3dE".repeat(10)}`,
        session: `eyJhbGciOiJIUzI1NiJ9.${"eyJzdWIiOiIxIn0"}.${"c2lnbmF0dXJl".repeat(3)}`,
      }
    : {}),
}));
const output = JSON.stringify({ services }, null, 2);
for (const stubber of [ts, ref]) {
  const [part] = await stubber.externalize(
    [{ toolId: "c1", toolName: "get_config", output, mimeType: "application/json" }],
    { messageId: "m1" },
  );
  const leaked = part.output.includes("Ab3dEAb3dE") || part.output.includes("c2lnbmF0dXJlc2ln");
  const stored = part.outputRef ? (await stubber.read(part.outputRef, { limit: -1 })).content : "";
  console.log(`stub masks the secrets: ${!leaked}; stored output intact: ${stored === output}`);
}
