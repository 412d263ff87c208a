import { createRequire } from "node:module";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { Ajv } from "ajv/dist/ajv.js";
import { addFormats } from "@modelcontextprotocol/client/validators/ajv";
import { z } from "zod";
import { errorMessage, isRecord } from "../values.js";

// Schemas are compiled, never registered by `$id`, so two servers' schemas cannot clash;
// `validateSchema` makes a schema that is not JSON Schema fail instead of validating nothing.
const OPTIONS = { strict: false, validateSchema: true, allErrors: true, addUsedSchema: false };

type Engine = Pick<Ajv, "compile">;

const draft06: unknown = createRequire(import.meta.url)("ajv/dist/refs/json-schema-draft-06.json");

const engines = new Map<string, () => Engine>([
  ["https://json-schema.org/draft/2020-12/schema", once(() => new Ajv2020(OPTIONS))],
  ["https://json-schema.org/draft/2019-09/schema", once(() => new Ajv2019(OPTIONS))],
  ["http://json-schema.org/draft-07/schema", once(() => new Ajv(OPTIONS))],
  [
    "http://json-schema.org/draft-06/schema",
    once(() => new Ajv(OPTIONS).addMetaSchema(isRecord(draft06) ? draft06 : {})),
  ],
]);

/** One engine per dialect, built on first use, with formats checked. */
function once(make: () => Ajv | Ajv2019 | Ajv2020): () => Engine {
  let engine: Engine | undefined;
  return () => {
    if (!engine) {
      const made = make();
      addFormats(made);
      engine = made;
    }
    return engine;
  };
}

/** The engine for a schema's declared dialect; 2020-12 (MCP's default) when it declares none. */
function engineFor(schema: Record<string, unknown>): Engine | string {
  const declared = schema.$schema;
  if (declared === undefined) return engines.get("https://json-schema.org/draft/2020-12/schema")!();
  const key = typeof declared === "string" ? declared.replace(/#$/, "") : "";
  return engines.get(key)?.() ?? `unsupported $schema ${JSON.stringify(declared)}`;
}

/** A server's input schema as hookgate uses it: zod for the gate, JSON Schema for the model. */
export interface McpInputSchema {
  readonly zod: z.ZodType<Record<string, unknown>>;
  readonly json: Record<string, unknown>;
}

/**
 * Compiles a tool's JSON Schema in its declared dialect. The zod schema validates with that
 * JSON Schema (so the model's arguments and a hook's `updatedInput` are held to exactly what
 * the server declared); an error says why the schema itself is unusable.
 */
export function compileInputSchema(
  schema: unknown,
): { ok: true; schema: McpInputSchema } | { ok: false; error: string } {
  if (!isRecord(schema) || schema.type !== "object") {
    return { ok: false, error: 'inputSchema must be a JSON Schema object with type "object"' };
  }
  const engine = engineFor(schema);
  if (typeof engine === "string") return { ok: false, error: `inputSchema: ${engine}` };
  let validate;
  try {
    validate = engine.compile(schema);
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
