import { readdir } from "node:fs/promises";
import { basename, join } from "node:path";
import type { InstructionSource } from "./load.js";
import { mayExist, readText } from "./read-text.js";

/** A prompt template from `.claude/commands/<name>.md`, as Claude Code's custom commands. */
export interface CustomCommand {
  readonly name: string;
  readonly description: string;
  /** The frontmatter's `argument-hint`: shown by the client as the input placeholder. */
  readonly hint?: string;
  /** The template after the frontmatter. */
  readonly body: string;
  readonly path: string;
  /** UserPromptExpansion's `command_source`, as Claude Code names it. */
  readonly source: "projectSettings" | "userSettings";
}

/** Where command files are, under the home and the cwd. */
const COMMANDS_DIR = join(".claude", "commands");

/** A command file's name (without `.md`) that can be typed after `/`. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const FRONTMATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/**
 * The custom commands of a session: `~/.claude/commands/*.md` (user) and
 * `<cwd>/.claude/commands/*.md` (project; a project command replaces a user one of the same
 * name). Unreadable and empty files are skipped; nothing here throws.
 */
export async function loadCustomCommands(places: {
  readonly cwd: string;
  readonly home: string;
  readonly sources: readonly InstructionSource[];
}): Promise<CustomCommand[]> {
  const byName = new Map<string, CustomCommand>();
  const dirs = [
    ...(places.sources.includes("user")
      ? [{ base: places.home, source: "userSettings" as const }]
      : []),
    ...(places.sources.includes("project")
      ? [{ base: places.cwd, source: "projectSettings" as const }]
      : []),
  ];
  for (const { base, source } of dirs) {
    // Usually absent: told without a rejected readdir's thread-pool round trip and error.
    if (!mayExist(base, COMMANDS_DIR)) continue;
    for (const path of await markdownFiles(join(base, COMMANDS_DIR))) {
      const text = await readText(path);
      if (text === undefined) continue;
      const command = parseCommand(path, text, source);
      if (command) byName.set(command.name, command);
    }
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

async function markdownFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => (e.isFile() || e.isSymbolicLink()) && e.name.endsWith(".md"))
    .map((e) => join(dir, e.name))
    .sort();
}

/** One command file: its frontmatter's `description` and `argument-hint`, and its template. */
export function parseCommand(
  path: string,
  text: string,
  source: CustomCommand["source"],
): CustomCommand | undefined {
  const name = basename(path, ".md");
  if (!NAME.test(name)) return undefined;
  const front = FRONTMATTER.exec(text);
  const fields = front ? frontmatterFields(front[1] ?? "") : new Map<string, string>();
  const body = front ? text.slice(front[0].length) : text;
  if (body.trim() === "") return undefined;
  const hint = fields.get("argument-hint");
  return {
    name,
    description: fields.get("description") || firstLine(body),
    ...(hint && { hint }),
    body,
    path,
    source,
  };
}

/** `key: value` lines of a frontmatter (quotes around a value dropped); nothing nested. */
function frontmatterFields(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const m = /^([A-Za-z][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (!m?.[1]) continue;
    fields.set(m[1], unquote((m[2] ?? "").trim()));
  }
  return fields;
}

function unquote(value: string): string {
  const q = value[0];
  return (q === '"' || q === "'") && value.endsWith(q) && value.length >= 2
    ? value.slice(1, -1)
    : value;
}

function firstLine(body: string): string {
  const line = body.split("\n").find((l) => l.trim() !== "") ?? "";
  const text = line.replace(/^#+\s*/, "").trim();
  return text.length > 100 ? `${text.slice(0, 99)}…` : text;
}
