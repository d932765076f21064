// Refs as arguments of an AI SDK tool (`externalizingTool(..., { acceptsRefs: true })`): its
// definition tells the model it may pass refs (a sentence in the description, a schema that takes
// the ref form), and its input has them resolved before the tool runs. The wording, the schema
// and the resolution are the core's (ToolStub.refArguments, ToolStub.resolveRefs).

/**
 * The AI SDK's tool, as far as this file reads it (the package does not depend on `ai`).
 * @typedef {{ description?: string, inputSchema?: unknown, execute: (input: unknown, options?: unknown) => unknown }} AiToolLike
 */
/**
 * A schema's check of a value, as the AI SDK's `Schema.validate` answers it.
 * @typedef {{ success: true, value: unknown } | { success: false, error: unknown }} Validation
 */

/**
 * The properties of a value that may have some (an object or a function), else undefined: the
 * SDK's schemas are read by duck typing, whichever version of the SDK or zod made them.
 * @param {unknown} value
 * @returns {{ [property: string]: unknown } | undefined}
 */
function fieldsOf(value) {
  return (typeof value === "object" && value !== null) || typeof value === "function"
    ? /** @type {{ [property: string]: unknown }} */ (value)
    : undefined;
}

/**
 * The JSON Schema of an AI SDK tool's input: from `jsonSchema(...)`, or a Standard JSON Schema (zod 4).
 * @param {string} toolName
 * @param {unknown} schema
 * @returns {object}
 */
function inputJsonSchema(toolName, schema) {
  if (schema !== null && typeof schema === "object" && "jsonSchema" in schema)
    return /** @type {object} */ (schema.jsonSchema);
  const standard = fieldsOf(fieldsOf(schema)?.["~standard"]);
  const input = fieldsOf(standard?.jsonSchema)?.input;
  if (typeof input === "function")
    return /** @type {(options: { target: string }) => object} */ (input).call(
      standard?.jsonSchema,
      { target: "draft-07" },
    );
  throw new TypeError(
    `tool ${toolName} accepts refs, so its inputSchema must be jsonSchema(...) or a schema with a JSON Schema (zod 4)`,
  );
}

/**
 * The original schema's check of the resolved input, when it has one: `{ success, value | error }`.
 * @param {unknown} schema
 * @param {unknown} value
 * @returns {Promise<Validation>}
 */
async function validated(schema, value) {
  const fields = fieldsOf(schema);
  const validate = fields?.validate;
  if (typeof validate === "function")
    return /** @type {(value: unknown) => Validation | Promise<Validation>} */ (validate).call(
      schema,
      value,
    );
  const standard = fieldsOf(fields?.["~standard"]);
  const validateStandard = standard?.validate;
  if (typeof validateStandard === "function") {
    /** @type {{ value: unknown } | { issues: unknown }} */
    const result = await validateStandard.call(standard, value);
    return "value" in result
      ? { success: true, value: result.value }
      : { success: false, error: new TypeError(JSON.stringify(result.issues)) };
  }
  return { success: true, value };
}

/**
 * What a tool that accepts refs changes: its `description` and `inputSchema` (the ref form beside
 * each top-level property, not checked by the SDK before the refs are resolved), and `resolve`,
 * which resolves an input's refs and then checks it against the tool's own schema.
 * @param {import("./index.js").ToolStub} toolStub
 * @param {string} toolName
 * @param {AiToolLike} aiTool
 * @param {{ jsonSchema?: (schema: object) => unknown, maxResolvedChars?: number }} options
 */
export function acceptingRefs(toolStub, toolName, aiTool, { jsonSchema, maxResolvedChars }) {
  if (typeof jsonSchema !== "function")
    throw new TypeError(
      `tool ${toolName} accepts refs: pass the AI SDK's jsonSchema helper too ({ acceptsRefs: true, jsonSchema })`,
    );
  const { note, schema } = toolStub.refArguments(inputJsonSchema(toolName, aiTool.inputSchema));
  return {
    description: aiTool.description ? `${aiTool.description}\n\n${note}` : note,
    inputSchema: jsonSchema(schema),
    /** @param {unknown} input */
    async resolve(input) {
      const resolved = await toolStub.resolveRefs(
        input,
        maxResolvedChars === undefined ? undefined : { maxResolvedChars },
      );
      const checked = await validated(aiTool.inputSchema, resolved);
      if (!checked.success) throw checked.error;
      return checked.value;
    },
  };
}
