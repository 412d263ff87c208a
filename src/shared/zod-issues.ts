import type { z } from "zod";

/** Renders a zod issue path after a prefix, as in `_meta.hooks.PreToolUse[0].matcher`. */
export function formatPath(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix;
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out;
}

/** One issue as `path: message`, or just the message when it concerns the value itself. */
export function describeIssue(issue: z.core.$ZodIssue | undefined, prefix = ""): string {
  const where = formatPath(prefix, issue?.path ?? []);
  const message = issue?.message ?? "invalid";
  return where === "" ? message : `${where}: ${message}`;
}

/** The first issue of a zod error, described. */
export function firstIssue(error: z.ZodError, prefix = ""): string {
  return describeIssue(error.issues[0], prefix);
}
