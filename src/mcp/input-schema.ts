import { Ajv, addFormats } from "@modelcontextprotocol/client/validators/ajv";
import { z } from "zod";
import { errorMessage, isRecord } from "../values.js";

// One engine for every server: schemas are compiled, never registered by `$id`, so two
// servers' schemas cannot clash. `validateSchema` makes a schema that is not JSON Schema fail.
const ajv = new Ajv({ strict: false, validateSchema: true, allErrors: true, addUsedSchema: false });
addFormats(ajv);

/** A server's input schema as hookgate uses it: zod for the gate, JSON Schema for the model. */
export interface McpInputSchema {
  readonly zod: z.ZodType<Record<string, unknown>>;
  readonly json: Record<string, unknown>;
}

/**
 * Compiles a tool's JSON Schema. The zod schema validates with that JSON Schema (so the
 * model's arguments and a hook's `updatedInput` are held to exactly what the server
 * declared); an error says why the schema itself is unusable.
 */
export function compileInputSchema(
  schema: unknown,
): { ok: true; schema: McpInputSchema } | { ok: false; error: string } {
  if (!isRecord(schema) || schema.type !== "object") {
    return { ok: false, error: 'inputSchema must be a JSON Schema object with type "object"' };
  }
  let validate;
  try {
    validate = ajv.compile(schema);
  } catch (error) {
    return { ok: false, error: `inputSchema is not valid JSON Schema: ${errorMessage(error)}` };
  }
  const zod = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
    if (validate(value)) return;
    for (const e of validate.errors ?? []) {
      const path = e.instancePath
        .split("/")
        .slice(1)
        .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
      ctx.addIssue({ code: "custom", path, message: e.message ?? "does not match the schema" });
    }
  });
  return { ok: true, schema: { zod, json: schema } };
}
