// The stateless calls: synopsis, stub rendering, previews and ids.

import {
  callerJson,
  requireString,
  optionalString,
  requireInteger,
  optionalInteger,
  requireOptions,
  checkKnownKeys,
  invalid,
} from "./arguments.js";

/**
 * The options of a stub as the core reads them (`StubOptions` and the preview's own).
 * @typedef {object} CoreStubOptions
 * @property {string} ref
 * @property {string} toolName
 * @property {string} sha256
 * @property {string} reason
 * @property {number | undefined} originalChars
 * @property {number | undefined} previewChars
 * @property {string} mimeType
 * @property {unknown} toolNames checked by the core
 * @property {string} stubHeader
 * @property {number} [maxStubChars]
 * @property {string} [synopsisMode]
 * @property {boolean} [redactSecrets]
 */

/**
 * Core (snake_case, as stored) synopsis → API (camelCase).
 * @param {import("./generated/contract.js").Synopsis} s
 * @returns {import("./index.js").Synopsis}
 */
function synopsisFromCore(s) {
  return {
    kind: s.kind,
    title: s.title,
    summary: s.summary,
    structure: s.structure,
    notableItems: s.notable_items,
    sample: s.sample,
  };
}

/**
 * A caller's synopsis (camelCase, or as stored) as the core reads it.
 * @param {unknown} s
 */
function synopsisToCore(s) {
  const synopsis = requireOptions(s, "synopsis");
  return {
    kind: optionalString(synopsis.kind, "synopsis.kind"),
    title: optionalString(synopsis.title, "synopsis.title"),
    summary: synopsis.summary ?? [],
    structure: synopsis.structure ?? [],
    notable_items: synopsis.notableItems ?? synopsis.notable_items ?? [],
    sample: optionalString(synopsis.sample, "synopsis.sample"),
  };
}

const SYNOPSIS_OPTIONS = ["mimeType", "previewChars", "toolName", "synopsisMode"];

const STUB_OPTIONS = [
  "ref",
  "toolName",
  "sha256",
  "reason",
  "originalChars",
  "previewChars",
  "mimeType",
  "toolNames",
  "stubHeader",
];

/**
 * @param {Record<string, unknown>} opts
 * @returns {CoreStubOptions}
 */
function stubOptionsToCore(opts, allowed = STUB_OPTIONS) {
  checkKnownKeys(opts, allowed, "stub");
  return {
    ref: optionalString(opts.ref, "ref"),
    toolName: optionalString(opts.toolName, "toolName"),
    sha256: optionalString(opts.sha256, "sha256"),
    reason: optionalString(opts.reason, "reason"),
    originalChars:
      opts.originalChars === undefined
        ? undefined
        : requireInteger(opts.originalChars, "originalChars"),
    previewChars:
      opts.previewChars === undefined
        ? undefined
        : requireInteger(opts.previewChars, "previewChars"),
    mimeType: optionalString(opts.mimeType, "mimeType"),
    toolNames: opts.toolNames,
    stubHeader: optionalString(opts.stubHeader, "stubHeader"),
  };
}

/**
 * The stateless calls on `runtime` (runtime.js): `{ synopsis, renderStub, makePreview,
 * toolResultId, sha256Hex }`, as an entry module exports them.
 * @param {import("./runtime.js").Runtime} runtime
 */
export function statelessCalls(runtime) {
  /**
   * The typed synopsis of one tool output.
   * @param {unknown} output
   * @param {unknown} [options]
   */
  function synopsis(output, options) {
    const opts = requireOptions(options, "options");
    checkKnownKeys(opts, SYNOPSIS_OPTIONS, "synopsis");
    const text = requireString(output, "output");
    const mimeType = optionalString(opts.mimeType, "mimeType", "text/plain");
    const previewChars = optionalInteger(opts.previewChars, "previewChars", 2000);
    optionalString(opts.toolName, "toolName");
    const mode = optionalString(opts.synopsisMode, "synopsisMode");
    return synopsisFromCore(
      JSON.parse(
        runtime.call("synopsisJson", text, mimeType, previewChars, mode, runtime.enhanced.host),
      ),
    );
  }

  /**
   * Renders a stub from a synopsis (as `synopsis()` returns it).
   * @param {unknown} synopsisValue
   * @param {unknown} [options]
   */
  function renderStub(synopsisValue, options) {
    const opts = stubOptionsToCore(requireOptions(options, "options"));
    return runtime.call(
      "renderStub",
      callerJson(synopsisToCore(synopsisValue), "synopsis"),
      callerJson(opts, "options"),
    );
  }

  /**
   * `{ synopsis, stub }` of one output, with `previewChars` clamped to the output's length.
   * @param {unknown} output
   * @param {unknown} [options]
   */
  function makePreview(output, options) {
    const text = requireString(output, "output");
    const given = requireOptions(options, "options");
    const opts = stubOptionsToCore(given, [
      ...STUB_OPTIONS,
      "maxStubChars",
      "synopsisMode",
      "redactSecrets",
    ]);
    if (given.maxStubChars !== undefined)
      opts.maxStubChars = requireInteger(given.maxStubChars, "maxStubChars");
    if (given.synopsisMode !== undefined)
      opts.synopsisMode = requireString(given.synopsisMode, "synopsisMode");
    if (given.redactSecrets !== undefined) {
      if (typeof given.redactSecrets !== "boolean")
        throw invalid("options.redactSecrets must be a boolean");
      opts.redactSecrets = given.redactSecrets;
    }
    /** @type {{ synopsis: import("./generated/contract.js").Synopsis, stub: string }} */
    const result = JSON.parse(
      runtime.call("makePreviewJson", text, callerJson(opts, "options"), runtime.enhanced.host),
    );
    return { synopsis: synopsisFromCore(result.synopsis), stub: result.stub };
  }

  /**
   * `tr_{safe tool id}_{sha256[:16]}`, or `tr_{sha256[:24]}` without a tool id.
   * @param {unknown} toolId
   * @param {unknown} sha256
   */
  function toolResultId(toolId, sha256) {
    return runtime.call(
      "toolResultId",
      optionalString(toolId, "toolId"),
      requireString(sha256, "sha256"),
    );
  }

  /**
   * Lower-case hex SHA-256 of the output's UTF-8 bytes (WTF-8 when it holds lone surrogates: the
   * bytes a store keeps, and the digest `externalize` records).
   * @param {unknown} output
   */
  function sha256Hex(output) {
    return runtime.run((text) => runtime.storedSha256(text), requireString(output, "output"));
  }

  return { synopsis, renderStub, makePreview, toolResultId, sha256Hex };
}
