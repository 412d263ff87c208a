import type { FileHandler } from "../hooks/command.js";
import type { SettingsReport } from "../wire/hook-reports.js";
import { maxOf } from "../shared/values.js";

/**
 * How far each source is trusted: the administrator's managed settings over the operator's
 * explicit files (`--settings`, config `settings`) over the user's, over the local file,
 * over the repository's committed project files.
 */
export const TRUST: Readonly<Record<SettingsReport["source"], number>> = {
  project: 0,
  local: 1,
  user: 2,
  explicit: 3,
  managed: 4,
};

/**
 * The trust level at and below which command hooks are off: that of the most trusted file
 * setting `disableAllHooks: true`, or -1. A file can turn off its own level and those below,
 * never a more trusted one; `false` turns nothing back on.
 */
export function disabledLevel(
  files: readonly { readonly source: SettingsReport["source"]; readonly disable: boolean }[],
): number {
  return maxOf(
    files.filter((f) => f.disable).map((f) => TRUST[f.source]),
    -1,
  );
}

/** What makes two handlers the same one: its event and what it runs (or the URL it asks). */
export function handlerKey(handler: FileHandler): string {
  if (handler.kind === "http") return JSON.stringify([handler.event, "http", handler.url]);
  if (handler.kind === "agent") {
    return JSON.stringify([handler.event, "agent", handler.prompt, handler.model ?? null]);
  }
  if (handler.kind === "prompt") {
    return JSON.stringify([handler.event, "prompt", handler.prompt, handler.model ?? null]);
  }
  if (handler.kind === "mcp_tool") {
    const { server, tool, input } = handler;
    return JSON.stringify([handler.event, "mcp_tool", server, tool, input ?? {}]);
  }
  const { exec } = handler;
  return JSON.stringify(
    exec.form === "exec"
      ? [handler.event, "exec", exec.file, exec.args]
      : [handler.event, exec.shell, exec.command],
  );
}

/** One handler as a file declared it, with the trust of that file. */
export interface Copy {
  readonly handler: FileHandler;
  readonly trust: number;
}

/**
 * Gives every copy of one handler (same event, command, args and shell, in any group) the
 * same identity and settings: the id, dialect and status message of the most trusted copy,
 * the strictest `onFailure` and the longest timeout of all copies, and `async` only if every
 * copy is. Each copy keeps its own `if` rule; the registry runs the handler once per event,
 * wherever any copy would run. So a less trusted file cannot replace, narrow or weaken a
 * more trusted file's handler: a copy can only make it run in more places, or more strictly.
 */
export function mergeCopies(copies: readonly Copy[]): FileHandler[] {
  const byKey = new Map<string, Copy[]>();
  for (const copy of copies) {
    const key = handlerKey(copy.handler);
    const same = byKey.get(key);
    if (same) same.push(copy);
    else byKey.set(key, [copy]);
  }
  const merged = new Map<string, FileHandler>();
  for (const [key, same] of byKey) {
    // The most trusted copy as it is (its id, program or URL and headers), without its `if`.
    const best = same.reduce((a, c) => (c.trust > a.trust ? c : a)).handler;
    const handlers = same.map((c) => c.handler);
    const statusMessage =
      best.statusMessage ?? handlers.find((h) => h.statusMessage)?.statusMessage;
    merged.set(key, {
      ...withoutMerged(best),
      timeoutMs: maxOf(handlers.map((h) => h.timeoutMs)),
      failClosed: handlers.some((h) => h.failClosed),
      ...(handlers.every((h) => h.async === true) && { async: true }),
      ...(statusMessage !== undefined && { statusMessage }),
      dedupKey: key,
    });
  }
  return copies.map(({ handler }) => {
    const shared = merged.get(handlerKey(handler));
    if (!shared) return handler;
    return {
      ...shared,
      ...(handler.applies && { applies: handler.applies, ifRule: handler.ifRule }),
    };
  });
}

/** A handler without the settings its copies merge (`if`, `async`, status message). */
function withoutMerged(handler: FileHandler): FileHandler {
  const out: Record<string, unknown> = { ...handler };
  for (const field of ["applies", "ifRule", "async", "statusMessage"]) delete out[field];
  return out as unknown as FileHandler;
}
