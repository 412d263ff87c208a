import { RequestError } from "@agentclientprotocol/sdk";
import type { z } from "zod";

/** Renders a zod issue path as `_meta.hooks.PreToolUse[0].matcher`. */
export function formatPath(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix;
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out;
}

/** A -32602 error whose message names the first offending field. */
export function invalidParams(prefix: string, error: z.ZodError): RequestError {
  const issues = error.issues.map((i) => `${formatPath(prefix, i.path)}: ${i.message}`);
  return new RequestError(-32602, issues.join("; "), { issues });
}

/** A -32602 error for one named field. */
export function invalidField(field: string, message: string): RequestError {
  return new RequestError(-32602, `${field}: ${message}`, { issues: [`${field}: ${message}`] });
}
