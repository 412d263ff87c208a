import { lstatSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import type picomatchType from "picomatch";
import { splitShell } from "./shell-split.js";

const require = createRequire(import.meta.url);

/** picomatch, loaded with the first rule that needs it: an agent start without one never pays. */
function picomatch(...args: Parameters<typeof picomatchType>): ReturnType<typeof picomatchType> {
  const load = require("picomatch") as typeof picomatchType;
  return load(...args);
}

/** Tools whose rule pattern is a glob over the file path their input names. */
const PATH_FIELDS: Readonly<Record<string, string>> = {
  Read: "file_path",
  Write: "file_path",
  Edit: "file_path",
  Glob: "path",
  Grep: "path",
};

/**
 * Path rules on one tool that judge others too, as in Claude Code 2.1.332: `Edit(path)` judges
 * `Write`, `Read(path)` judges Glob and Grep on that path; a tool-wide `Edit` or `Read` judges
 * only its own tool.
 */
const ALSO_NAMES: Readonly<Record<string, readonly string[]>> = {
  Edit: ["Write"],
  Read: ["Glob", "Grep"],
};

const RULE = /^([A-Za-z0-9_-]+(?:\*)?)(?:\((.*)\))?$/s;
/** The tool a rule that cannot be read still names (`Bash(` names Bash). */
const TOOL_PREFIX = /^([A-Za-z0-9_-]+)(?:\(|$)/;

/** Where a rule's paths are resolved: `./x` and `x` against the project, `~/x` against home. */
export interface RulePlaces {
  readonly cwd: string;
  readonly home?: string | undefined;
}

/**
 * One permission rule (`Tool` or `Tool(content)`), compiled: the one judge of Claude Code's
 * rule syntax, for `if` rules and `permissions.allow/ask/deny` alike.
 */
export interface Rule {
  readonly text: string;
  /** The tool as the rule names it (`Bash`, `Edit`, `mcp__server`). */
  readonly tool: string;
  /** Whether the rule is about this tool at all. */
  readonly names: (toolName: string) => boolean;
  /** Bash with a pattern: tests one simple command. */
  readonly command?: (command: string) => boolean;
  /**
   * A file tool with a pattern: tests the path the call of `toolName` names, as written and
   * as it really is (links followed). `any` (deny, ask, `if`): either one matches, so a link
   * does not dodge the rule; `every` (allow): both match, so a link does not widen it.
   */
  readonly input?: (input: unknown, toolName: string, need?: "any" | "every") => boolean;
  /** A file tool with a pattern: tests one absolute path as it is, no link followed. */
  readonly path?: (absolute: string) => boolean;
}

/** A handler's `if` rule, compiled; or why it cannot be read. */
export type IfRule =
  | { readonly ok: true; readonly applies: (toolName: string, toolInput: unknown) => boolean }
  | { readonly ok: false; readonly message: string };

/**
 * Compiles one `if` rule: it applies where the rule `touches` the call (an uncertain Bash
 * line included). Events without a tool never match (their tool name is empty).
 */
export function compileIfRule(text: string, cwd: string): IfRule {
  const compiled = compileRule(text, { cwd });
  if (!compiled.ok) return { ok: false, message: `if ${compiled.message}` };
  const { rule } = compiled;
  // Claude Code's `if` names its tool exactly: `Edit(path)` there does not judge Write.
  const aliased = (name: string) => name !== rule.tool && !!ALSO_NAMES[rule.tool]?.includes(name);
  return {
    ok: true,
    applies: (name, input) => !aliased(name) && touches(rule, name, input) !== "no",
  };
}

/**
 * Compiles `Tool`, `Tool(content)`, `mcp__server`, `mcp__server__tool` or `mcp__server__*`:
 * for Bash a pattern over a simple command (`*` any text, a trailing `:*` a prefix ending at a
 * word), for file tools a glob over the path (gitignore-like: `x` anywhere under the
 * project, `./x` or `/x` from the project, `~/x` from home, `//x` absolute).
 */
export function compileRule(
  text: string,
  places: RulePlaces,
): { ok: true; rule: Rule } | { ok: false; message: string } {
  const compiled = compileExact(text, places);
  return compiled.ok ? compiled : { ok: false, message: compiled.message };
}

/**
 * Compiles a permission rule of `behavior`. A deny or ask rule that cannot be read does not
 * vanish (that would let the tool run): it covers every call of the tool it names, and
 * `problem` says so. An allow rule that cannot be read is dropped. `rule` is absent only when
 * the rule was dropped (an allow, or a text that names no tool at all).
 */
export function compilePermissionRule(
  text: string,
  places: RulePlaces,
  behavior: "allow" | "ask" | "deny",
): { rule?: Rule; problem?: string } {
  const compiled = compileExact(text, places);
  if (compiled.ok) return { rule: compiled.rule };
  const { message, tool } = compiled;
  if (behavior === "allow" || tool === undefined) return { problem: message };
  return {
    rule: { text, tool, names: toolNames(tool, false) },
    problem: `${message}; widened to every ${tool} call`,
  };
}

function compileExact(
  text: string,
  places: RulePlaces,
): { ok: true; rule: Rule } | { ok: false; message: string; tool?: string } {
  const m = RULE.exec(text.trim());
  const tool = m?.[1];
  if (!m || !tool) {
    const named = TOOL_PREFIX.exec(text.trim())?.[1];
    return {
      ok: false,
      message: `${JSON.stringify(text)}: expected Tool or Tool(pattern)`,
      ...(named !== undefined && { tool: named }),
    };
  }
  const content = m[2];
  if (content === undefined || content === "*" || content === "")
    return { ok: true, rule: { text, tool, names: toolNames(tool, false) } };
  const names = toolNames(tool, true);
  if (tool === "Bash")
    return { ok: true, rule: { text, tool, names, command: commandTest(content) } };
  const field = PATH_FIELDS[tool];
  if (field === undefined) {
    return {
      ok: false,
      message: `${JSON.stringify(text)}: patterns are understood for Bash and file tools only`,
      tool,
    };
  }
  const test = pathTest(content, places);
  // The path is read from the called tool's own field (Grep's `path` under a Read rule).
  const input = (input: unknown, called: string, need: "any" | "every" = "any") => {
    const given = stringField(input, PATH_FIELDS[called] ?? field) ?? ".";
    const written = isAbsolute(given) ? resolve(given) : resolve(places.cwd, given);
    const real = realPath(written);
    if (need === "every") return test(written) && (real === written || test(real));
    return test(written) || (real !== written && test(real));
  };
  return { ok: true, rule: { text, tool, names, input, path: test } };
}

function toolNames(tool: string, withContent: boolean): (name: string) => boolean {
  if (tool.startsWith("mcp__")) {
    const [server, name] = tool.slice(5).split("__");
    // `mcp__server` and `mcp__server__*` name every tool of the server.
    if (name === undefined || name === "*") return (n) => n.startsWith(`mcp__${server}__`);
  }
  const also = (withContent && ALSO_NAMES[tool]) || [];
  return (name) => name === tool || also.includes(name);
}

/**
 * Whether a rule is about this call: `yes`, `no`, or `unsure` for a Bash line that cannot be
 * split with confidence (a deny must not fail open because something harmless came first).
 * A Bash rule touches a line when it matches the whole line or any simple command in it.
 */
export function touches(rule: Rule, toolName: string, input: unknown): "yes" | "no" | "unsure" {
  if (!rule.names(toolName)) return "no";
  if (rule.input) return rule.input(input, toolName) ? "yes" : "no";
  const test = rule.command;
  if (!test) return "yes";
  const line = stringField(input, "command") ?? "";
  if (test(line.trim())) return "yes";
  const split = splitShell(line);
  if (!split.ok) return "unsure";
  return split.commands.some(test) ? "yes" : "no";
}

/**
 * Whether `rules` together cover a call, as allow rules must: a tool-wide rule, a path rule,
 * or for Bash every simple command of a line that splits with confidence (`npm test && rm x`
 * is not covered by `Bash(npm test:*)`).
 */
export function covers(rules: readonly Rule[], toolName: string, input: unknown): Rule | undefined {
  const about = rules.filter((r) => r.names(toolName));
  const whole = about.find((r) => !r.command && !r.input);
  if (whole) return whole;
  const byInput = about.find((r) => r.input?.(input, toolName, "every"));
  if (byInput) return byInput;
  const commands = about.filter((r) => r.command);
  if (commands.length === 0) return undefined;
  const split = splitShell(stringField(input, "command") ?? "");
  if (!split.ok || split.commands.length === 0) return undefined;
  let first: Rule | undefined;
  for (const command of split.commands) {
    const rule = commands.find((r) => r.command?.(command));
    if (!rule) return undefined;
    first ??= rule;
  }
  return first;
}

function commandTest(pattern: string): (command: string) => boolean {
  if (pattern.endsWith(":*")) {
    const prefix = pattern.slice(0, -2).trimEnd();
    return (command) => command === prefix || command.startsWith(`${prefix} `);
  }
  // Not a path glob: the command is text the model wrote, and a `*` must match any of it
  // (`/..`, `/.`, newlines included), or a deny would be dodged by spelling a path oddly.
  const source = pattern
    .split("*")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("[\\s\\S]*");
  const test = new RegExp(`^${source}$`);
  return (command) => test.test(command);
}

/**
 * A path glob, anchored as Claude Code's Read/Edit rules are; a directory covers its files.
 * Anchored at the project and home as named and as they really are, so a real path still
 * meets the rule when the project itself sits behind a link.
 */
function pathTest(pattern: string, { cwd, home }: RulePlaces): (absolute: string) => boolean {
  const globs = new Set<string>();
  for (const [project, user] of [
    [cwd, home],
    [realPath(cwd), home === undefined ? undefined : realPath(home)],
  ] as const) {
    const glob = anchor(pattern, project, user);
    globs.add(glob).add(`${glob.replace(/\/$/, "")}/**`);
  }
  return picomatch([...globs], { dot: true });
}

function anchor(pattern: string, cwd: string, home: string | undefined): string {
  if (pattern.startsWith("//")) return pattern.slice(1);
  if (pattern.startsWith("~/") && home !== undefined) return join(home, pattern.slice(2));
  if (pattern.startsWith("/")) return join(cwd, pattern);
  if (pattern.startsWith("./")) return join(cwd, pattern.slice(2));
  if (pattern.replace(/\/$/, "").includes("/")) return join(cwd, pattern);
  return join(cwd, "**", pattern);
}

/**
 * Where an absolute path really leads, links followed; for a path that does not exist (a
 * file about to be written), its nearest existing parent's real path joined with the rest.
 */
export function realPath(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(realPath(parent), basename(path));
  }
}

/**
 * `realPath` for many paths at once (a search's results): each directory's real path is
 * looked up once in `dirs`, each file costs one lstat. Only for the span of one search: a
 * link made later must be seen.
 */
export function realPathIn(dirs: Map<string, string>, path: string): string {
  try {
    if (lstatSync(path).isSymbolicLink()) return realPath(path);
  } catch {
    return realPath(path);
  }
  const dir = dirname(path);
  let real = dirs.get(dir);
  if (real === undefined) dirs.set(dir, (real = realPath(dir)));
  return join(real, basename(path));
}

function stringField(input: unknown, field: string): string | undefined {
  if (typeof input !== "object" || input === null) return undefined;
  const value: unknown = Reflect.get(input, field);
  return typeof value === "string" ? value : undefined;
}
