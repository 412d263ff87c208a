import { createHash } from "node:crypto";

/** Longest tool name the model providers accept (`^[a-zA-Z0-9_-]{1,64}$`). */
export const MAX_TOOL_NAME = 64;

/** A server or tool name reduced to the characters model providers accept. */
export function sanitize(part: string): string {
  const clean = part.replace(/[^a-zA-Z0-9_-]/g, "_");
  return clean === "" ? "_" : clean;
}

/**
 * `mcp__<server>__<tool>`, Claude Code's naming, sanitized. A name past 64 characters keeps
 * its head and gains a short hash of the whole, so two long names stay apart.
 */
export function mcpToolName(server: string, tool: string): string {
  const name = `mcp__${sanitize(server)}__${sanitize(tool)}`;
  if (name.length <= MAX_TOOL_NAME) return name;
  const hash = createHash("sha256").update(name).digest("hex").slice(0, 8);
  return `${name.slice(0, MAX_TOOL_NAME - 9)}_${hash}`;
}

/** One tool to name: which server, and its name there. */
export interface NameRequest {
  readonly server: string;
  readonly tool: string;
}

/** A name that had to change because another tool already held it. */
export type NameCollision<R extends NameRequest = NameRequest> = R & {
  readonly wanted: string;
  readonly given: string;
};

/**
 * Names every tool, in order (servers as the client listed them, tools as each server listed
 * them). A name already taken, by a built-in or an earlier tool, gets `_2`, `_3`...: the
 * same inputs always give the same names.
 */
export function assignNames<R extends NameRequest>(
  requests: readonly R[],
  reserved: Iterable<string>,
): { names: string[]; collisions: NameCollision<R>[] } {
  const taken = new Set(reserved);
  const names: string[] = [];
  const collisions: NameCollision<R>[] = [];
  for (const request of requests) {
    const { server, tool } = request;
    const wanted = mcpToolName(server, tool);
    let given = wanted;
    for (let n = 2; taken.has(given); n++) {
      const suffix = `_${n}`;
      given = `${wanted.slice(0, MAX_TOOL_NAME - suffix.length)}${suffix}`;
    }
    taken.add(given);
    names.push(given);
    if (given !== wanted) collisions.push({ ...request, wanted, given });
  }
  return { names, collisions };
}
