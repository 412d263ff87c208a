import { basename, join, resolve } from "node:path";
import type { FileHandler } from "../hooks/command.js";
import { isHookEventName, NOT_RUN, type HookEventName } from "../wire/events.js";
import type { CommandGroup } from "../hooks/registry.js";
import { appendAll, errorMessage } from "../shared/values.js";
import type { SettingsReport } from "../wire/hook-reports.js";
import { firstIssue } from "../shared/zod-issues.js";
import { baseOf, toCommand } from "./handler-spec.js";
import { toHttpHandler } from "./http-handler.js";
import { toPromptHandler } from "./prompt-hook.js";
import { mcpToolSkipped, toMcpToolHandler } from "./mcp-tool-hook.js";
import { toAgentHandler } from "./agent-hook.js";
import { badUrlPatterns, type HeaderEnv } from "./http-policy.js";
import type { SettingSource } from "./sources.js";

export {
  DEFAULT_COMMAND_TIMEOUT_S,
  MAX_COMMAND_TIMEOUT_S,
  PROMPT_COMMAND_TIMEOUT_S,
} from "./handler-spec.js";
import { disabledLevel, mergeCopies, TRUST, type Copy } from "./settings-trust.js";
import { claudeSettingsSchema, codexHooksSchema, type SettingsFile } from "./settings-schema.js";
import { settingsPolicy, type SettingsPolicy } from "./settings-policy.js";
import { readSettingsFileSync } from "./settings-snapshot.js";

/** Which settings files a session reads. */
export interface SettingsRequest {
  /** The session's cwd: project and local files are resolved against it. */
  readonly cwd: string;
  /** The home directory for the `user` source. */
  readonly home: string;
  readonly sources: readonly SettingSource[];
  /** `--settings` files, absolute, in the order given. */
  readonly explicit: readonly string[];
  /** The managed settings file (`MANAGED_SETTINGS_PATH` or `--managed-settings`), if any. */
  readonly managed?: string | undefined;
  /**
   * Reads a file's text (default: from disk); throws as `readFileSync` does. A session reads
   * its snapshot of the files through this (settings-snapshot.ts).
   */
  readonly readText?: (path: string) => string;
  /** Where `http` hooks' header `$VAR`s are read; default: none (every variable empty). */
  readonly headerEnv?: HeaderEnv;
}

const NO_ENV: HeaderEnv = { values: {}, withheld: () => false };

/** A session's command hooks, ready for the registry, and what to report about each file. */
export interface LoadedSettings {
  readonly commands: Partial<Record<HookEventName, CommandGroup[]>>;
  readonly reports: SettingsReport[];
  /** Every group's matcher in the files whose hooks run, where it was written. */
  readonly matchers: SettingsMatcher[];
  /** Handlers that run but not as written (an http hook's refused URL or emptied header). */
  readonly warnings: string[];
  /** Permission rules, default mode and the `http` hook allowlists. */
  readonly policy: SettingsPolicy;
}

/** A group's matcher in a settings file: the file, and the JSON path inside it. */
export interface SettingsMatcher {
  readonly path: string;
  readonly event: HookEventName;
  /** e.g. `hooks.PreToolUse[0].matcher`. */
  readonly at: string;
  readonly matcher: string;
}

interface FileRef {
  readonly source: SettingsReport["source"];
  readonly path: string;
  /** How ids name the file: relative to the cwd or home, absolute for explicit files. */
  readonly display: string;
  readonly dialect: "claude" | "codex";
}

/** The files to read, in order: user, project, local, explicit, managed. */
export function settingsFiles(req: SettingsRequest): FileRef[] {
  const files: FileRef[] = [];
  const add = (source: FileRef["source"], dir: string, rel: string, prefix: string) =>
    files.push({
      source,
      path: join(dir, rel),
      display: `${prefix}${rel}`,
      dialect: basename(rel) === "hooks.json" ? "codex" : "claude",
    });
  if (req.sources.includes("user")) {
    add("user", req.home, ".claude/settings.json", "~/");
    add("user", req.home, ".codex/hooks.json", "~/");
  }
  if (req.sources.includes("project")) {
    add("project", req.cwd, ".claude/settings.json", "");
    add("project", req.cwd, ".codex/hooks.json", "");
  }
  if (req.sources.includes("local")) add("local", req.cwd, ".claude/settings.local.json", "");
  for (const path of req.explicit) files.push(explicitFile(path));
  if (req.managed !== undefined) files.push({ ...explicitFile(req.managed), source: "managed" });
  return files;
}

function explicitFile(path: string): FileRef {
  const abs = resolve(path);
  return {
    source: "explicit",
    path: abs,
    display: abs,
    dialect: basename(abs) === "hooks.json" ? "codex" : "claude",
  };
}

/**
 * What is wrong with a settings file the operator named (`--settings`, config `settings`,
 * `--managed-settings`): missing, unreadable, not JSON or not the schema; undefined when it
 * loads. Checked at startup, where a problem is fatal: a policy named on purpose must never
 * silently be off. `missingOk` (the default system managed file): absent is fine.
 */
export function explicitSettingsProblem(path: string, missingOk = false): string | undefined {
  const read = readSettings({ ...explicitFile(path), ...(missingOk && { source: "managed" }) });
  if (read === "missing") return missingOk ? undefined : "not found";
  return read.ok ? undefined : read.error;
}

/**
 * A managed settings file that exists but cannot be read or parsed: no session opens, since
 * its deny rules, `allowManagedHooksOnly` and URL allowlist would silently be off.
 */
export class ManagedSettingsError extends Error {
  constructor(path: string, problem: string) {
    super(`managed settings file ${path} cannot be loaded, no session opens: ${problem}`);
    this.name = "ManagedSettingsError";
  }
}

/**
 * Reads a session's settings files. A missing source file is skipped (a missing explicit
 * file is reported); a file that does not parse registers nothing and is reported with the
 * path inside it, except a managed file, which throws `ManagedSettingsError`. Sources are trusted managed > explicit > user > local > project (`TRUST`):
 * `disableAllHooks: true` turns off the command hooks of its file's level and below,
 * managed `allowManagedHooksOnly` those of every other file, and copies of one handler merge
 * into the most trusted copy, strictest settings kept (`mergeCopies`).
 */
export function loadCommandHooks(req: SettingsRequest): LoadedSettings {
  const reports: SettingsReport[] = [];
  const matchers: SettingsMatcher[] = [];
  const warnings: string[] = [];
  const files: { file: FileRef; data: SettingsFile }[] = [];
  for (const file of settingsFiles(req)) {
    const read = readSettings(file, req.readText);
    if (read === "missing") continue;
    if (read.ok) files.push({ file, data: read.data });
    else if (file.source === "managed") throw new ManagedSettingsError(file.path, read.error);
    else reports.push({ source: file.source, path: file.path, handlers: 0, error: read.error });
  }
  const off = disabledLevel(
    files.map(({ file, data }) => ({
      source: file.source,
      disable: data.disableAllHooks === true,
    })),
  );
  const offBy = files.find(
    ({ file, data }) => data.disableAllHooks === true && TRUST[file.source] === off,
  )?.file.path;
  const policy = settingsPolicy(
    files.map(({ file, data }) => ({ ...file, trust: TRUST[file.source], data })),
    { cwd: req.cwd, home: req.home },
  );
  for (const pattern of badUrlPatterns(policy.http)) {
    warnings.push(`allowedHttpHookUrls pattern ${pattern} is not a URL: it matches nothing`);
  }
  const copies: (Copy & { group: object; matcher: string | undefined })[] = [];
  for (const { file, data } of files) {
    const note = policy.notes.get(file.path);
    const rules = note?.rules ?? 0;
    const skipped = [...(note?.skipped ?? [])];
    const report = { source: file.source, path: file.path, ...(rules > 0 && { rules }) };
    const offWhy =
      TRUST[file.source] <= off
        ? `disableAllHooks in ${offBy}: command hooks of this file are off`
        : policy.managedHooksOnly && file.source !== "managed"
          ? "allowManagedHooksOnly in managed settings: command hooks of this file are off"
          : undefined;
    if (offWhy !== undefined) {
      reports.push({ ...report, handlers: 0, skipped: [...skipped, offWhy] });
      continue;
    }
    let handlers = 0;
    for (const [event, groups] of Object.entries(data.hooks ?? {})) {
      if (!isHookEventName(event)) {
        const why = NOT_RUN[event];
        skipped.push(`${event}: not an event hookgate runs${why ? ` (${why})` : ""}`);
        continue;
      }
      groups.forEach((group, i) => {
        if (group.matcher !== undefined) {
          const at = `hooks.${event}[${i}].matcher`;
          matchers.push({ path: file.path, event, at, matcher: group.matcher });
        }
        group.hooks.forEach((spec, j) => {
          const where = `${event}[${i}].hooks[${j}]`;
          const id = `${file.source}:${file.display}#${where}`;
          const base = baseOf(spec, event, id, req.cwd);
          const skip =
            typeof base === "string"
              ? base
              : spec.type === "mcp_tool"
                ? mcpToolSkipped(event)
                : undefined;
          if (typeof base === "string" || skip !== undefined) {
            skipped.push(`${where}: ${skip}`);
            return;
          }
          let handler: FileHandler;
          if (spec.type === "http") {
            const http = toHttpHandler(spec, base, policy.http, req.headerEnv ?? NO_ENV);
            appendAll(warnings, http.warnings);
            handler = http.handler;
          } else if (spec.type === "prompt") handler = toPromptHandler(spec, base);
          else if (spec.type === "mcp_tool") handler = toMcpToolHandler(spec, base);
          else if (spec.type === "agent") handler = toAgentHandler(spec, base);
          else handler = toCommand(spec, base, file.dialect, req.cwd);
          handlers++;
          copies.push({ handler, trust: TRUST[file.source], group, matcher: group.matcher });
        });
      });
    }
    reports.push({ ...report, handlers, ...(skipped.length > 0 && { skipped }) });
  }
  return { commands: groupsOf(copies, mergeCopies(copies)), reports, matchers, warnings, policy };
}

/** The handlers back in their files' groups, in file order, per event. */
function groupsOf(
  copies: readonly { group: object; matcher: string | undefined }[],
  handlers: readonly FileHandler[],
): Partial<Record<HookEventName, CommandGroup[]>> {
  const commands: Partial<Record<HookEventName, CommandGroup[]>> = {};
  let last: { group: object; handlers: FileHandler[] } | undefined;
  copies.forEach(({ group, matcher }, i) => {
    const handler = handlers[i];
    if (!handler) return;
    if (last?.group !== group) {
      last = { group, handlers: [] };
      (commands[handler.event] ??= []).push({
        ...(matcher !== undefined && { matcher }),
        handlers: last.handlers,
      });
    }
    last.handlers.push(handler);
  });
  return commands;
}

type Read = "missing" | { ok: true; data: SettingsFile } | { ok: false; error: string };

function readSettings(file: FileRef, readText = readUtf8): Read {
  let text: string;
  try {
    text = readText(file.path);
  } catch (error) {
    const code = error instanceof Error && "code" in error ? error.code : undefined;
    if (code === "ENOENT")
      return file.source === "explicit" ? { ok: false, error: "not found" } : "missing";
    return { ok: false, error: `cannot read: ${errorMessage(error)}` };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `not valid JSON: ${errorMessage(error)}` };
  }
  const schema = file.dialect === "codex" ? codexHooksSchema : claudeSettingsSchema;
  const parsed = schema.safeParse(raw);
  if (!parsed.success) return { ok: false, error: firstIssue(parsed.error) };
  return { ok: true, data: parsed.data };
}

function readUtf8(path: string): string {
  return readSettingsFileSync(path);
}
