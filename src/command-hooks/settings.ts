import { readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import type { CommandExec, CommandHandler } from "../hooks/command.js";
import { isHookEventName, NOT_RUN, type HookEventName } from "../wire/events.js";
import type { CommandGroup } from "../hooks/registry.js";
import { errorMessage, MAX_TIMER_MS } from "../shared/values.js";
import type { SettingsReport } from "../wire/hooks.js";
import { firstIssue } from "../shared/zod-issues.js";
import { compileIfRule } from "./if-rule.js";
import type { SettingSource } from "./sources.js";
import { disabledLevel, mergeCopies, TRUST, type Copy } from "./settings-trust.js";
import {
  claudeSettingsSchema,
  codexHooksSchema,
  type CommandHandlerSpec,
  type SettingsFile,
} from "./settings-schema.js";

/** Default handler timeout, as in Claude Code; UserPromptSubmit gets a shorter one. */
export const DEFAULT_COMMAND_TIMEOUT_S = 600;
export const PROMPT_COMMAND_TIMEOUT_S = 30;

/**
 * The longest handler timeout honoured: 2,147,483 s (about 24.8 days), the most a timer can
 * wait. A longer one is clamped to it, never wrapped into one that fires at once.
 */
export const MAX_COMMAND_TIMEOUT_S = Math.floor(MAX_TIMER_MS / 1000);

/** Which settings files a session reads. */
export interface SettingsRequest {
  /** The session's cwd: project and local files are resolved against it. */
  readonly cwd: string;
  /** The home directory for the `user` source. */
  readonly home: string;
  readonly sources: readonly SettingSource[];
  /** `--settings` files, absolute, in the order given. */
  readonly explicit: readonly string[];
  /**
   * Reads a file's text (default: from disk); throws as `readFileSync` does. A session reads
   * its snapshot of the files through this (settings-snapshot.ts).
   */
  readonly readText?: (path: string) => string;
}

/** A session's command hooks, ready for the registry, and what to report about each file. */
export interface LoadedSettings {
  readonly commands: Partial<Record<HookEventName, CommandGroup[]>>;
  readonly reports: SettingsReport[];
  /** Every group's matcher in the files whose hooks run, where it was written. */
  readonly matchers: SettingsMatcher[];
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

/** The files to read, in order: user, project, local, explicit. */
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
 * What is wrong with a settings file the operator named (`--settings`, config `settings`):
 * missing, unreadable, not JSON or not the schema; undefined when it loads. Checked at
 * startup, where a problem is fatal: a policy named on purpose must never silently be off.
 */
export function explicitSettingsProblem(path: string): string | undefined {
  const read = readSettings(explicitFile(path));
  if (read === "missing") return "not found";
  return read.ok ? undefined : read.error;
}

/**
 * Reads a session's settings files. A missing source file is skipped (a missing explicit
 * file is reported); a file that does not parse registers nothing and is reported with the
 * path inside it. Sources are trusted explicit > user > local > project (`TRUST`):
 * `disableAllHooks: true` turns off the command hooks of its file's level and below, and
 * copies of one handler merge into the most trusted copy, strictest settings kept
 * (`mergeCopies`).
 */
export function loadCommandHooks(req: SettingsRequest): LoadedSettings {
  const reports: SettingsReport[] = [];
  const matchers: SettingsMatcher[] = [];
  const files: { file: FileRef; data: SettingsFile }[] = [];
  for (const file of settingsFiles(req)) {
    const read = readSettings(file, req.readText);
    if (read === "missing") continue;
    if (read.ok) files.push({ file, data: read.data });
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
  const copies: (Copy & { group: object; matcher: string | undefined })[] = [];
  for (const { file, data } of files) {
    const skipped: string[] = [];
    if (TRUST[file.source] <= off) {
      skipped.push(`disableAllHooks in ${offBy}: command hooks of this file are off`);
      reports.push({ source: file.source, path: file.path, handlers: 0, skipped });
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
          if (spec.type !== "command") {
            skipped.push(`${where}: type ${spec.type} is not run by hookgate`);
            return;
          }
          const id = `${file.source}:${file.display}#${where}`;
          const handler = toHandler(spec, event, id, file, req.cwd);
          if (typeof handler === "string") {
            skipped.push(`${where}: ${handler}`);
            return;
          }
          handlers++;
          copies.push({ handler, trust: TRUST[file.source], group, matcher: group.matcher });
        });
      });
    }
    reports.push({
      source: file.source,
      path: file.path,
      handlers,
      ...(skipped.length > 0 && { skipped }),
    });
  }
  return { commands: groupsOf(copies, mergeCopies(copies)), reports, matchers };
}

/** The handlers back in their files' groups, in file order, per event. */
function groupsOf(
  copies: readonly { group: object; matcher: string | undefined }[],
  handlers: readonly CommandHandler[],
): Partial<Record<HookEventName, CommandGroup[]>> {
  const commands: Partial<Record<HookEventName, CommandGroup[]>> = {};
  let last: { group: object; handlers: CommandHandler[] } | undefined;
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
  return readFileSync(path, "utf8");
}

/** A handler ready to race, or why it is skipped. */
function toHandler(
  spec: CommandHandlerSpec,
  event: HookEventName,
  id: string,
  file: FileRef,
  cwd: string,
): CommandHandler | string {
  let applies: CommandHandler["applies"];
  if (spec.if !== undefined) {
    const rule = compileIfRule(spec.if, cwd);
    if (!rule.ok) return rule.message;
    applies = rule.applies;
  }
  const substitute = (s: string) => s.replaceAll("${CLAUDE_PROJECT_DIR}", cwd);
  const exec: CommandExec = spec.args
    ? { form: "exec", file: substitute(spec.command), args: spec.args.map(substitute) }
    : { form: "shell", shell: spec.shell ?? "sh", command: spec.command };
  const defaultS =
    event === "UserPromptSubmit" ? PROMPT_COMMAND_TIMEOUT_S : DEFAULT_COMMAND_TIMEOUT_S;
  const seconds = spec.timeoutSec ?? spec.timeout ?? defaultS;
  return {
    kind: "command",
    id,
    event,
    timeoutMs: Math.min(seconds, MAX_COMMAND_TIMEOUT_S) * 1000,
    failClosed: spec.onFailure === "block" || spec.onFailure === "deny",
    exec,
    dialect: file.dialect,
    ...(spec.statusMessage !== undefined && { statusMessage: spec.statusMessage }),
    ...(spec.async !== undefined && { async: spec.async }),
    ...(applies && { applies }),
  };
}
