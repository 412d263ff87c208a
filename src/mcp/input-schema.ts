import { createRequire } from "node:module";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { Ajv, type ErrorObject, type Options } from "ajv/dist/ajv.js";
import { addFormats } from "@modelcontextprotocol/client/validators/ajv";
import { z } from "zod";
import { errorMessage, isRecord } from "../shared/values.js";
import { LinearPatterns, MatchBudgetError } from "./linear-pattern.js";
import { schemaPatterns } from "./schema-patterns.js";

// Every `pattern` and `patternProperties` key runs on RE2's linear-time engine: a server's
// pattern cannot make validation backtrack (`^(a+)+$` against 40 `a`s and a `!` takes
// microseconds, where JavaScript's RegExp takes hours). A pattern RE2 cannot run in linear
// time (lookahead, backreferences), or whose program is too large, makes the schema unusable,
// and that tool is skipped. Each pattern is compiled once, when its schema is checked, and one
// validation's matching is bounded by a budget (linear-pattern.ts).
//
// A listed schema is only checked (against its dialect's meta-schema, by engines shared by
// every session that never compile a server's schema, so they hold nothing of one); it is
// compiled on its first use, by engines of its server's own, and compiled once per distinct
// schema. Compiling costs about a millisecond a schema, so a server listing 1,000 tools
// costs nothing until the model calls one, and a closed session frees all it compiled.
// A compiling engine never checks a schema (the checkers did), so it holds no meta-schema:
// adding them was most of the cost of a server's first call.
const COMPILE = {
  strict: false,
  allErrors: true,
  addUsedSchema: false,
  validateSchema: false,
  meta: false,
} as const;
/** The meta-schemas' own patterns, shared by the checking engines. */
const metaPatterns = new LinearPatterns();
const CHECK = { strict: false, allErrors: true, code: { regExp: metaPatterns.regExp } } as const;

type AnyAjv = Ajv | Ajv2019 | Ajv2020;

const draft06: unknown = createRequire(import.meta.url)("ajv/dist/refs/json-schema-draft-06.json");

/** Dialect URIs and how to build an engine for each; 2020-12 is MCP's default. */
const DEFAULT_DIALECT = "https://json-schema.org/draft/2020-12/schema";
const dialects = new Map<string, (options: Options) => AnyAjv>([
  [DEFAULT_DIALECT, (o) => new Ajv2020(o)],
  ["https://json-schema.org/draft/2019-09/schema", (o) => new Ajv2019(o)],
  ["http://json-schema.org/draft-07/schema", (o) => new Ajv(o)],
  [
    "http://json-schema.org/draft-06/schema",
    (o) => new Ajv(o).addMetaSchema(isRecord(draft06) ? draft06 : {}),
  ],
]);

/** A schema's dialect key, or why it has none hookgate reads. */
function dialectOf(schema: Record<string, unknown>): { key: string } | { error: string } {
  const declared = schema.$schema ?? DEFAULT_DIALECT;
  const key = typeof declared === "string" ? declared.replace(/#$/, "") : "";
  return dialects.has(key) ? { key } : { error: `unsupported $schema ${JSON.stringify(declared)}` };
}

function makeEngine(key: string, options: Options): AnyAjv {
  const engine = dialects.get(key)!(options);
  addFormats(engine);
  return engine;
}

/** Engines that only check schemas against their meta-schema, one per dialect, built on use. */
const checkers = new Map<string, AnyAjv>();
function checker(key: string): AnyAjv {
  let engine = checkers.get(key);
  if (!engine) {
    engine = makeEngine(key, CHECK);
    checkers.set(key, engine);
  }
  return engine;
}

/** A server's input schema as hookgate uses it: zod for the gate, JSON Schema for the model. */
export interface McpInputSchema {
  readonly zod: z.ZodType<Record<string, unknown>>;
  readonly json: Record<string, unknown>;
}

export type CompiledInputSchema =
  { ok: true; schema: McpInputSchema } | { ok: false; error: string };

type Validate = ((value: unknown) => boolean) & { errors?: ErrorObject[] | null };

/**
 * The input schemas of one MCP server: each distinct schema (keyed by its JSON text, so a
 * tool listed again unchanged costs a lookup) is checked when listed and compiled when first
 * used, by engines of this server's own, so nothing outlives the connection.
 */
export class InputSchemas {
  private readonly engines = new Map<string, AnyAjv>();
  private readonly prepared = new Map<string, CompiledInputSchema>();
  private readonly patterns = new LinearPatterns();

  /** Distinct schemas held; a caller replaces the set when a changing list leaves many. */
  get size(): number {
    return this.prepared.size;
  }

  /**
   * Checks a tool's JSON Schema in its declared dialect and gives its zod schema, which
   * validates with that JSON Schema (so the model's arguments and a hook's `updatedInput`
   * are held to exactly what the server declared); an error says why the schema itself is
   * unusable.
   */
  prepare(schema: unknown): CompiledInputSchema {
    let key: string;
    try {
      key = JSON.stringify(schema) ?? "";
    } catch (error) {
      return { ok: false, error: `inputSchema cannot be read: ${errorMessage(error)}` };
    }
    let result = this.prepared.get(key);
    if (!result) {
      result = this.check(schema);
      this.prepared.set(key, result);
    }
    return result;
  }

  private check(schema: unknown): CompiledInputSchema {
    if (!isRecord(schema) || schema.type !== "object") {
      return { ok: false, error: 'inputSchema must be a JSON Schema object with type "object"' };
    }
    const dialect = dialectOf(schema);
    if ("error" in dialect) return { ok: false, error: `inputSchema: ${dialect.error}` };
    const meta = checker(dialect.key);
    try {
      if (!meta.validateSchema(schema)) {
        const why = meta.errorsText(meta.errors, { dataVar: "inputSchema" });
        return { ok: false, error: `inputSchema is not valid JSON Schema: ${why}` };
      }
      for (const pattern of schemaPatterns(schema)) {
        const why = this.patterns.unusable(pattern);
        if (why) return { ok: false, error: `inputSchema is not valid JSON Schema: ${why}` };
      }
    } catch (error) {
      return { ok: false, error: `inputSchema is not valid JSON Schema: ${errorMessage(error)}` };
    }
    const compiled = once(() => this.compile(dialect.key, schema));
    const zod = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
      const validate = compiled();
      if (typeof validate === "string") {
        ctx.addIssue({ code: "custom", path: [], message: validate });
        return;
      }
      let valid: boolean;
      try {
        valid = this.patterns.withinBudget(() => validate(value));
      } catch (error) {
        if (!(error instanceof MatchBudgetError)) throw error;
        ctx.addIssue({ code: "custom", path: [], message: error.message });
        return;
      }
      if (valid) return;
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

  /** The validator, or why the server's schema cannot be compiled (an unresolved `$ref`). */
  private compile(key: string, schema: Record<string, unknown>): Validate | string {
    // A schema that refers to a meta-schema (a tool that takes a schema) gets an engine that
    // holds them; the rest do without.
    const meta = JSON.stringify(schema).includes("json-schema.org/");
    const engineKey = meta ? `${key} with meta-schemas` : key;
    let engine = this.engines.get(engineKey);
    if (!engine) {
      const regExp = this.patterns.regExp;
      engine = makeEngine(key, { ...COMPILE, meta, code: { regExp } });
      this.engines.set(engineKey, engine);
    }
    try {
      return engine.compile(schema);
    } catch (error) {
      return `the server's inputSchema cannot be used: ${errorMessage(error)}`;
    }
  }
}

function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/** Prepares one schema on engines of its own (tests, one-off checks). */
export function compileInputSchema(schema: unknown): CompiledInputSchema {
  return new InputSchemas().prepare(schema);
}
