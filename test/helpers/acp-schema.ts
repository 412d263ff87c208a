import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";

/** Which part of a message a schema `$def` describes. */
export type MessageKind = "request-params" | "response-result" | "notification-params";

/** Who handles a method, per the schema's `x-side`: the client, the agent, or either (`$/…`). */
export type Side = "client" | "agent" | "protocol";

/** One `$def` of the ACP schema that describes a method's params or result. */
export interface MethodDef {
  name: string;
  method: string;
  side: Side;
  kind: MessageKind;
  readonly validate: ValidateFunction;
}

const SCHEMA_ID = "acp-v1";
const KIND_BY_SUFFIX: Record<string, MessageKind> = {
  Request: "request-params",
  Response: "response-result",
  Notification: "notification-params",
};

const ajv = new Ajv2020({ strict: false, allErrors: true, discriminator: true });
addNumericFormats();
ajv.addFormat("uri", { type: "string", validate: (value) => URL.canParse(value) });
const schemaDefs = loadSchema();

/** Registers the ACP v1 JSON schema shipped with the SDK and returns its `$defs`. */
function loadSchema(): Record<string, unknown> {
  const require = createRequire(import.meta.url);
  const path = require.resolve("@agentclientprotocol/sdk/schema/v1/schema.json");
  const parsed: unknown = JSON.parse(readFileSync(path, "utf8"));
  if (!isRecord(parsed) || !isRecord(parsed.$defs)) throw new Error(`${path}: no $defs`);
  ajv.addSchema(parsed, SCHEMA_ID);
  return parsed.$defs;
}

/** A plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The schema's Rust-flavoured numeric formats, checked for real rather than ignored. */
function addNumericFormats(): void {
  const integer = (min: number, max: number) => (n: number) =>
    Number.isInteger(n) && n >= min && n <= max;
  const formats: Record<string, (n: number) => boolean> = {
    int32: integer(-(2 ** 31), 2 ** 31 - 1),
    int64: integer(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
    uint16: integer(0, 2 ** 16 - 1),
    uint32: integer(0, 2 ** 32 - 1),
    uint64: integer(0, Number.MAX_SAFE_INTEGER),
    double: Number.isFinite,
  };
  for (const [name, validate] of Object.entries(formats)) {
    ajv.addFormat(name, { type: "number", validate });
  }
}

function stringField(value: unknown, key: string): string | undefined {
  const field = isRecord(value) ? value[key] : undefined;
  return typeof field === "string" ? field : undefined;
}

function isSide(value: string | undefined): value is Side {
  return value === "client" || value === "agent" || value === "protocol";
}

/** The validator for one `$def` by name, e.g. `"SessionNotification"`; `T` is the type it proves. */
export function defValidator<T = unknown>(name: string): ValidateFunction<T> {
  const validate = ajv.getSchema<T>(`${SCHEMA_ID}#/$defs/${name}`);
  if (validate === undefined) throw new Error(`ACP schema has no $defs/${name}`);
  return validate;
}

/**
 * Every method `$def` (those with `x-method` and `x-side`), keyed by `method kind`. Each is
 * compiled when its `validate` is first read (ajv keeps it): compiling all of them took about a
 * second of CPU in every test worker that imports this module, and a run checks only the
 * methods its frames use.
 */
export const methodDefs: ReadonlyMap<string, MethodDef> = (() => {
  const index = new Map<string, MethodDef>();
  for (const [name, def] of Object.entries(schemaDefs)) {
    const method = stringField(def, "x-method");
    const side = stringField(def, "x-side");
    const kind = KIND_BY_SUFFIX[/(Request|Response|Notification)$/.exec(name)?.[1] ?? ""];
    if (method === undefined || !isSide(side) || kind === undefined) continue;
    index.set(`${method} ${kind}`, {
      name,
      method,
      side,
      kind,
      get validate() {
        return defValidator(name);
      },
    });
  }
  return index;
})();

/** The schema def for a method's params or result, if the ACP schema defines one. */
export function methodDef(method: string, kind: MessageKind): MethodDef | undefined {
  return methodDefs.get(`${method} ${kind}`);
}

/**
 * Ajv errors as short lines naming the path. The alternatives of a failed `oneOf` of constants
 * are folded into one "must be one of" line.
 */
export function describeErrors(errors: ErrorObject[] | null | undefined): string[] {
  const lines: string[] = [];
  const allowedByPath = new Map<string, unknown[]>();
  for (const error of errors ?? []) {
    const path = error.instancePath || "/";
    if (error.keyword === "const") {
      const allowed = allowedByPath.get(path) ?? [];
      allowed.push(error.params.allowedValue);
      allowedByPath.set(path, allowed);
      continue;
    }
    if (error.keyword === "oneOf" && allowedByPath.has(path)) continue;
    const extra =
      error.keyword === "additionalProperties" ? ` (${error.params.additionalProperty})` : "";
    lines.push(`${path}: ${error.message ?? error.keyword}${extra}`);
  }
  for (const [path, allowed] of allowedByPath) {
    lines.push(`${path}: must be one of ${allowed.map((v) => JSON.stringify(v)).join(", ")}`);
  }
  return [...new Set(lines)];
}
