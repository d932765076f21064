// The conformance checks live in the package (js/conformance.js, `tool-stub/testing`); the tests and
// the browser page take them from there.
export { assert, cases, sessionCases } from "../../js/conformance.js";
