import { mkdtemp, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach } from "vitest";
import { silentLogger } from "../../src/shared/log.js";
import { ChildEnvPolicy } from "../../src/process/child-env.js";
import { ProcessGroups } from "../../src/process/process-group.js";
import type { z } from "zod";
import type { Tool, ToolContext, ToolResult } from "../../src/tools/types.js";
import { FakeClient } from "./fake-client.js";

const made: string[] = [];

/** A fresh temp directory (real path), removed after the test. */
export async function tempDir(prefix = "hookgate-tools-"): Promise<string> {
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

afterEach(async () => {
  await Promise.all(made.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** A tool context rooted at `cwd` (plus any extra roots). */
export function toolContext(
  cwd: string,
  opts: { client?: FakeClient; signal?: AbortSignal; extraRoots?: string[] } = {},
): ToolContext {
  return {
    cwd,
    roots: [cwd, ...(opts.extraRoots ?? [])],
    signal: opts.signal ?? new AbortController().signal,
    client: opts.client ?? new FakeClient(),
    log: silentLogger(),
    processGroups: new ProcessGroups(),
    childEnv: new ChildEnvPolicy(),
  };
}

/** Parses raw model arguments with the tool's schema, then runs it, as the session would. */
export async function runTool<S extends z.ZodType>(
  tool: Tool<S>,
  rawInput: unknown,
  ctx: ToolContext,
): Promise<ToolResult> {
  return tool.execute(tool.inputSchema.parse(rawInput), ctx);
}

/** Resolves or rejects as `promise` does, or rejects if it is still pending after `ms`. */
export async function settlesWithin<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still pending after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The text of a result's first content block, whatever its kind. */
export function firstText(result: ToolResult): string {
  const block = result.content[0];
  if (block?.type !== "content" || block.content.type !== "text") {
    throw new Error(`expected text content, got ${JSON.stringify(block)}`);
  }
  return block.content.text;
}
