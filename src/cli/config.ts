import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { z } from "zod";
import { SETTING_SOURCES, type SettingSource } from "../command-hooks/sources.js";
import { INSTRUCTION_SOURCES, type InstructionSource } from "../instructions/sources.js";
import { slashCommandsSchema, type SlashCommand } from "../slash/slash-config.js";
import { LOG_FORMATS, LOG_LEVELS, type LogFormat } from "../shared/log-levels.js";
import type { ModelSettings } from "../model/index.js";
import { DEFAULT_MAX_VALUE_BYTES } from "../hooks/truncate.js";
import { DEFAULT_MAX_FRAME_BYTES } from "../protocol/frame-limit.js";
import { MODE_IDS, type ModeId } from "../session/modes.js";
import { DEFAULT_MAX_ROUNDS, DEFAULT_MAX_STOP_BLOCKS } from "../session/limits.js";
import { defaultDataDir } from "../store/data-dir.js";
import { errorMessage } from "../shared/values.js";
import { telemetryConfigSchema, type TelemetryConfig } from "../telemetry/settings.js";

/** A setting the user must fix; the message names the file (or flag) and the field. */
export class ConfigError extends Error {}

/** The config file (`--config`, JSON). Every field is optional; flags override it. */
export const configFileSchema = z.strictObject({
  $schema: z.string().optional(),
  model: z.string().min(1).optional(),
  /** More models a client may switch a session to (`scripted` or `provider:model-id`). */
  models: z.array(z.string().min(1)).optional(),
  baseUrl: z
    .url({
      protocol: /^https?$/,
      message: "must be an http(s) URL, e.g. http://localhost:11434/v1",
    })
    .optional(),
  apiKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be an environment variable name")
    .optional(),
  apiKeyHelper: z.string().trim().min(1, "must be a shell command").optional(),
  maxRetries: z.int().min(0).max(10).optional(),
  maxOutputTokens: z.int().positive().optional(),
  contextWindow: z.int().positive().optional(),
  providerOptions: z.record(z.string(), z.record(z.string(), z.json())).optional(),
  maxRounds: z.int().positive().optional(),
  maxStopBlocks: z.int().min(0).optional(),
  /** The mode new sessions start in (Claude Code's `--permission-mode`); default `default`. */
  permissionMode: z.enum(MODE_IDS).optional(),
  maxHookValueBytes: z.int().positive().optional(),
  logLevel: z.enum(LOG_LEVELS).optional(),
  logFormat: z.enum(LOG_FORMATS).optional(),
  /** Days a session's files are kept after its last change; 0: none after the session ends. */
  cleanupPeriodDays: z.int().min(0).optional(),
  dataDir: z.string().min(1).optional(),
  maxFrameBytes: z
    .int()
    .min(1024)
    .max(1024 * 1024 * 1024)
    .optional(),
  /** Which settings files' command hooks sessions load; default none. */
  settingSources: z.array(z.enum(SETTING_SOURCES)).optional(),
  /** Whose CLAUDE.md files and custom commands sessions read; default all three. */
  instructionSources: z.array(z.enum(INSTRUCTION_SOURCES)).optional(),
  /** More settings files (Claude Code shape, or Codex's when named hooks.json). */
  settings: z.array(z.string().min(1)).optional(),
  /** The managed settings file, instead of the system one Claude Code reads. */
  managedSettings: z.string().min(1).optional(),
  commands: slashCommandsSchema.optional(),
  /** OpenTelemetry defaults; the standard `OTEL_*` variables win over them. */
  telemetry: telemetryConfigSchema.optional(),
});

/**
 * How a layer is parsed: once per process, so without the fast path zod would otherwise
 * compile for the schema on its first parse (compiling it costs more than one parse saves).
 */
const PARSED_ONCE = { jitless: true } as const;

/** One layer of settings: the config file or the flags. */
export type ConfigLayer = z.infer<typeof configFileSchema>;

/** Everything the CLI needs to start the agent. */
export interface Settings extends ModelSettings {
  /** More models a client may switch a session to (config `models`). */
  readonly models: readonly string[];
  readonly maxRounds: number;
  readonly maxStopBlocks: number;
  /** Unset: the settings files' `permissions.defaultMode`, else `default`. */
  readonly permissionMode?: ModeId | undefined;
  readonly maxHookValueBytes: number;
  /** `--managed-settings` (absolute), when named; else the system file. */
  readonly managedSettings?: string | undefined;
  readonly logLevel: (typeof LOG_LEVELS)[number];
  /** Unset: pretty on a terminal, JSON otherwise. */
  readonly logFormat: LogFormat | undefined;
  /** Sessions untouched for longer are deleted at startup ([sessions.md](docs/sessions.md)). */
  readonly cleanupPeriodDays: number;
  /** Where sessions persist (absolute). */
  readonly dataDir: string;
  readonly maxFrameBytes: number;
  readonly settingSources: readonly SettingSource[];
  readonly instructionSources: readonly InstructionSource[];
  /** Absolute paths: the config file's and the flags' `settings`, in that order. */
  readonly settingsFiles: readonly string[];
  /** Slash commands every session offers (config file only). */
  readonly commands: readonly SlashCommand[];
  /** OpenTelemetry defaults (config file only; `OTEL_*` variables win). */
  readonly telemetry: TelemetryConfig;
}

/** Claude Code's default: transcripts older than 30 days go. */
export const DEFAULT_CLEANUP_PERIOD_DAYS = 30;

// Keys belong in the environment: a config file gets copied, committed and shared.
const KEY_FIELDS = ["apiKey", "api_key", "key", "token", "authToken"];

/** Reads and validates a config file; errors name the file and the field. */
export function loadConfigFile(path: string): ConfigLayer {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new ConfigError(`cannot read config ${path}: ${errorMessage(error)}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${path}: not valid JSON (${errorMessage(error)})`);
  }
  if (raw !== null && typeof raw === "object" && !Array.isArray(raw)) {
    const keyField = KEY_FIELDS.find((field) => field in raw);
    if (keyField) {
      throw new ConfigError(
        `${path}: ${keyField}: API keys are not read from files; set the environment variable (apiKeyEnv names which one)`,
      );
    }
  }
  const parsed = configFileSchema.safeParse(raw, PARSED_ONCE);
  if (!parsed.success)
    throw new ConfigError(`${path}: ${issues(parsed.error, (p) => p || "(top level)")}`);
  return parsed.data;
}

/** Command-line flags as strings, by config field name. */
export type FlagValues = Partial<
  Record<
    Exclude<
      keyof ConfigLayer,
      | "providerOptions"
      | "$schema"
      | "apiKeyHelper"
      | "settings"
      | "settingSources"
      | "instructionSources"
      | "commands"
      | "telemetry"
    >,
    string
  >
> & {
  /** `--setting-sources user,project,local`. */
  readonly settingSources?: string;
  /** `--instruction-sources user,project,local` (or `none`). */
  readonly instructionSources?: string;
  /** Every `--settings <file>`. */
  readonly settings?: readonly string[];
};

const NUMERIC = new Set([
  "maxRetries",
  "maxOutputTokens",
  "contextWindow",
  "maxRounds",
  "maxStopBlocks",
  "maxHookValueBytes",
  "maxFrameBytes",
  "cleanupPeriodDays",
]);

/** Validates flag values with the config file's rules; errors name the flag. */
export function flagLayer(flags: FlagValues): ConfigLayer {
  const raw: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(flags)) {
    if (value === undefined) continue;
    if (typeof value !== "string") {
      raw[field] = value;
      continue;
    }
    if (field === "settingSources" || field === "instructionSources") {
      const list = value.split(",").flatMap((v) => (v.trim() === "" ? [] : [v.trim()]));
      raw[field] = list.length === 1 && list[0] === "none" ? [] : list;
      continue;
    }
    // `Number("")` is 0 and would pass as a count; keep such text for the schema to reject.
    if (NUMERIC.has(field) && !/^\s*[+-]?\d+\s*$/.test(value)) {
      throw new ConfigError(`--${kebab(field)}: must be an integer, got ${JSON.stringify(value)}`);
    }
    raw[field] = NUMERIC.has(field) ? Number(value) : value;
  }
  const parsed = configFileSchema.safeParse(raw, PARSED_ONCE);
  if (!parsed.success) throw new ConfigError(issues(parsed.error, (p) => `--${kebab(p)}`));
  return parsed.data;
}

/**
 * Merges the layers: flags over environment over config file over defaults. Only the log
 * level has an environment variable (`HOOKGATE_LOG_LEVEL`); keys are never merged here.
 */
export function mergeSettings(
  file: ConfigLayer,
  flags: ConfigLayer,
  env: NodeJS.ProcessEnv = process.env,
): Settings {
  const envLevel = env.HOOKGATE_LOG_LEVEL;
  let logLevel = flags.logLevel ?? file.logLevel ?? "info";
  if (flags.logLevel === undefined && envLevel) {
    const parsed = configFileSchema.shape.logLevel.safeParse(envLevel);
    if (!parsed.success || parsed.data === undefined) {
      throw new ConfigError(
        `HOOKGATE_LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got ${JSON.stringify(envLevel)}`,
      );
    }
    logLevel = parsed.data;
  }
  const pick = <K extends keyof ConfigLayer>(key: K) => flags[key] ?? file[key];
  const model = pick("model") ?? "scripted";
  const models = file.models ?? [];
  checkModelProviders(model, models, {
    baseUrl: pick("baseUrl"),
    apiKeyEnv: pick("apiKeyEnv"),
    apiKeyHelper: file.apiKeyHelper,
  });
  return {
    model,
    models,
    baseUrl: pick("baseUrl"),
    apiKeyEnv: pick("apiKeyEnv"),
    apiKeyHelper: file.apiKeyHelper,
    maxRetries: pick("maxRetries"),
    maxOutputTokens: pick("maxOutputTokens"),
    contextWindow: pick("contextWindow"),
    providerOptions: file.providerOptions,
    maxRounds: pick("maxRounds") ?? DEFAULT_MAX_ROUNDS,
    maxStopBlocks: pick("maxStopBlocks") ?? DEFAULT_MAX_STOP_BLOCKS,
    permissionMode: pick("permissionMode"),
    maxHookValueBytes: pick("maxHookValueBytes") ?? DEFAULT_MAX_VALUE_BYTES,
    dataDir: resolve(pick("dataDir") ?? defaultDataDir(env)),
    logLevel,
    logFormat: pick("logFormat"),
    cleanupPeriodDays: pick("cleanupPeriodDays") ?? DEFAULT_CLEANUP_PERIOD_DAYS,
    maxFrameBytes: pick("maxFrameBytes") ?? DEFAULT_MAX_FRAME_BYTES,
    settingSources: pick("settingSources") ?? [],
    instructionSources: pick("instructionSources") ?? INSTRUCTION_SOURCES,
    settingsFiles: [...(file.settings ?? []), ...(flags.settings ?? [])].map((p) => resolve(p)),
    managedSettings: optionalPath(pick("managedSettings")),
    commands: file.commands ?? [],
    telemetry: file.telemetry ?? {},
  };
}

function optionalPath(path: string | undefined): string | undefined {
  return path === undefined ? undefined : resolve(path);
}

function issues(error: z.ZodError, where: (path: string) => string): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.map(String).join(".");
      if (issue.code === "unrecognized_keys") {
        return `${where(path)}: unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.join(", ")}`;
      }
      return `${where(path)}: ${issue.message}`;
    })
    .join("; ");
}

function kebab(field: string): string {
  return field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/**
 * Every model a session may switch to is reached with the same `baseUrl`, `apiKeyEnv` and
 * `apiKeyHelper` as `model`: with any of them set, a `models` entry of another provider would
 * send that provider's key to this address, so it is a config error.
 */
function checkModelProviders(
  model: string,
  models: readonly string[],
  shared: Readonly<Record<string, unknown>>,
): void {
  const set = Object.keys(shared).filter((k) => shared[k] !== undefined);
  if (set.length === 0) return;
  const provider = (spec: string) => (spec.includes(":") ? spec.slice(0, spec.indexOf(":")) : spec);
  models.forEach((spec, i) => {
    if (spec === "scripted" || provider(spec) === provider(model)) return;
    throw new ConfigError(
      `models[${i}]: ${JSON.stringify(spec)} is not of the provider ${provider(model)}, and ${set.join(", ")} ` +
        `apply to every model (they would reach it with ${JSON.stringify(model)}'s settings); ` +
        "list models of one provider",
    );
  });
}
