import type { SettingsReport } from "../wire/hook-reports.js";
import { compilePermissionRule, type Rule, type RulePlaces } from "./if-rule.js";
import type { SettingsFile } from "./settings-schema.js";

/** What a permission rule does to a call it matches; precedence deny > ask > allow. */
export const RULE_BEHAVIORS = ["deny", "ask", "allow"] as const;
export type RuleBehavior = (typeof RULE_BEHAVIORS)[number];

/** Where a rule came from: a settings source, or the session (a hook's or user's answer). */
export type RuleSource = SettingsReport["source"] | "session";

/** One permission rule, compiled, with where it came from. */
export interface PermissionRule {
  readonly behavior: RuleBehavior;
  readonly rule: Rule;
  readonly source: RuleSource;
}

/**
 * The URL and variable allowlists of `http` hooks: when a managed file sets a list, the
 * managed files' lists alone count (a less trusted file can never widen the administrator's);
 * otherwise the union of every loaded file's. Undefined when no file sets it; empty allows
 * nothing.
 */
export interface HttpHookPolicy {
  readonly allowedHttpHookUrls?: readonly string[];
  readonly httpHookAllowedEnvVars?: readonly string[];
}

/** Everything settings files decide besides hooks. */
export interface SettingsPolicy {
  readonly rules: readonly PermissionRule[];
  /** `permissions.defaultMode` of the most trusted file that sets one it may set. */
  readonly defaultMode?: string;
  readonly http: HttpHookPolicy;
  /** Managed settings' `allowManagedHooksOnly`: only managed command hooks run. */
  readonly managedHooksOnly: boolean;
  /** Managed settings' `allowManagedPermissionRulesOnly`: only managed rules count. */
  readonly managedRulesOnly: boolean;
  /** Per file path: rules added, and what was skipped. */
  readonly notes: ReadonlyMap<string, { rules: number; skipped: string[] }>;
}

/** A file as loaded, most trusted last or not: `trust` orders them. */
export interface PolicyFile {
  readonly source: SettingsReport["source"];
  readonly path: string;
  readonly trust: number;
  readonly data: SettingsFile;
}

/**
 * Modes a repository's committed or local file may choose: only those that ask more, never
 * fewer questions (a cloned repository must not turn the user's questions off).
 */
const RESTRICTIVE_MODES = new Set(["default", "plan", "dontAsk"]);

/**
 * Reads the permission rules, default mode and managed-only switches of a session's files.
 * Managed `allowManagedPermissionRulesOnly` keeps only managed rules (Claude Code's words:
 * rules from user, project, local and `--settings` files are ignored).
 */
export function settingsPolicy(files: readonly PolicyFile[], places: RulePlaces): SettingsPolicy {
  const managed = files.filter((f) => f.source === "managed");
  const managedRulesOnly = managed.some((f) => f.data.allowManagedPermissionRulesOnly === true);
  const rules: PermissionRule[] = [];
  const notes = new Map<string, { rules: number; skipped: string[] }>();
  let defaultMode: { mode: string; trust: number } | undefined;
  for (const file of files) {
    const note = { rules: 0, skipped: [] as string[] };
    notes.set(file.path, note);
    const permissions = file.data.permissions;
    if (!permissions) continue;
    if (managedRulesOnly && file.source !== "managed") {
      note.skipped.push("permissions: off, managed settings allow managed permission rules only");
      continue;
    }
    const before = rules.length;
    for (const behavior of RULE_BEHAVIORS) {
      (permissions[behavior] ?? []).forEach((text, i) => {
        // A deny or ask that cannot be read covers its whole tool (noted), never nothing.
        const { rule, problem } = compilePermissionRule(text, places, behavior);
        if (problem !== undefined) note.skipped.push(`permissions.${behavior}[${i}]: ${problem}`);
        if (rule) rules.push({ behavior, rule, source: file.source });
      });
    }
    note.rules = rules.length - before;
    const mode = permissions.defaultMode;
    if (mode === undefined) continue;
    if ((file.source === "project" || file.source === "local") && !RESTRICTIVE_MODES.has(mode)) {
      note.skipped.push(`permissions.defaultMode ${mode}: a project file may only ask more`);
    } else if (!defaultMode || file.trust >= defaultMode.trust) {
      defaultMode = { mode, trust: file.trust };
    }
  }
  const urls = httpList(files, managed, "allowedHttpHookUrls");
  const envVars = httpList(files, managed, "httpHookAllowedEnvVars");
  return {
    rules,
    ...(defaultMode && { defaultMode: defaultMode.mode }),
    http: {
      ...(urls && { allowedHttpHookUrls: urls }),
      ...(envVars && { httpHookAllowedEnvVars: envVars }),
    },
    managedHooksOnly: managed.some((f) => f.data.allowManagedHooksOnly === true),
    managedRulesOnly,
    notes,
  };
}

/** The managed files' list when one sets it, else every file's, as a union. */
function httpList(
  files: readonly PolicyFile[],
  managed: readonly PolicyFile[],
  key: keyof HttpHookPolicy,
): string[] | undefined {
  return union(managed, key) ?? union(files, key);
}

function union(files: readonly PolicyFile[], key: keyof HttpHookPolicy): string[] | undefined {
  const lists = files.flatMap((f) => f.data[key] ?? []);
  const set = files.some((f) => f.data[key] !== undefined);
  return set ? [...new Set(lists)] : undefined;
}
