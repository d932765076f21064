// Refs as arguments of an AI SDK tool (`externalizingTool(..., { acceptsRefs: true })`): its
// definition tells the model it may pass refs (a sentence in the description, a schema that takes
// the ref form), and its input has them resolved before the tool runs. The wording, the schema
// and the resolution are the core's (ToolStub.refArguments, ToolStub.resolveRefs).

/** The JSON Schema of an AI SDK tool's input: from `jsonSchema(...)`, or a Standard JSON Schema (zod 4). */
function inputJsonSchema(toolName, schema) {
  if (schema !== null && typeof schema === "object" && "jsonSchema" in schema)
    return schema.jsonSchema;
  const standard = schema?.["~standard"];
  if (typeof standard?.jsonSchema?.input === "function")
    return standard.jsonSchema.input({ target: "draft-07" });
  throw new TypeError(
    `tool ${toolName} accepts refs, so its inputSchema must be jsonSchema(...) or a schema with a JSON Schema (zod 4)`,
  );
}

/** The original schema's check of the resolved input, when it has one: `{ success, value | error }`. */
async function validated(schema, value) {
  if (typeof schema?.validate === "function") return schema.validate(value);
  const standard = schema?.["~standard"];
  if (typeof standard?.validate === "function") {
    const result = await standard.validate(value);
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
 * @param {any} aiTool
 * @param {any} options
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
