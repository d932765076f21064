// node:test wrapper around the shared, browser-safe conformance checks.
import { describe, it } from "node:test";
import { cases, sessionCases } from "./store-conformance-cases.js";
import { ToolStub } from "./pkg.js";

/**
 * @param {string} name suite name
 * @param {() => object | Promise<object>} makeStore returns a fresh, empty store per call
 */
export function runStoreConformance(name, makeStore) {
  describe(`${name} conformance`, () => {
    for (const c of cases) it(c.name, () => c.run(makeStore));
    for (const c of sessionCases) it(c.name, () => c.run(makeStore, ToolStub));
  });
}
