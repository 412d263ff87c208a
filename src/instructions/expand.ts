import type { CustomCommand } from "./commands.js";

/** A prompt that names a custom command, and the text after the name. */
export interface CommandUse {
  readonly command: CustomCommand;
  /** Everything after `/<name>`, trimmed: `$ARGUMENTS`, and UserPromptExpansion's `command_args`. */
  readonly args: string;
}

/** The custom command a prompt uses: its first word is `/<name>` of a command (exact name). */
export function matchCustomCommand(
  text: string,
  commands: readonly CustomCommand[],
): CommandUse | undefined {
  if (commands.length === 0) return undefined;
  const m = /^\s*\/(\S+)(?:\s+([\s\S]*))?$/.exec(text);
  const command = m && commands.find((c) => c.name === m[1]);
  return command ? { command, args: (m[2] ?? "").trim() } : undefined;
}

// One pass, so a value filled in is never read as a placeholder: `\$1` (kept as `$1`),
// `$ARGUMENTS[n]`, `$ARGUMENTS`, `$n`.
const PLACEHOLDER = /\\\$(?=\d|ARGUMENTS)|\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS|\$(\d+)(?!\w)/g;

/**
 * The template with its arguments filled in, as Claude Code fills them: `$ARGUMENTS` is the
 * whole text, `$0`, `$1`… and `$ARGUMENTS[0]`… the words (0-based; quotes group words), a
 * placeholder with no word stays as written, `\$` keeps a `$`. A template without any
 * placeholder gets the arguments appended as `ARGUMENTS: <text>`.
 */
export function expandTemplate(body: string, args: string): string {
  let words: string[] | undefined;
  const word = (i: number) => (words ??= splitWords(args))[i];
  let filled = false;
  const out = body.replace(PLACEHOLDER, (match, indexed?: string, positional?: string) => {
    if (match.startsWith("\\")) return "$";
    const at = indexed ?? positional;
    if (at === undefined) {
      filled = true;
      return args;
    }
    const value = word(Number.parseInt(at, 10));
    if (value === undefined) return match;
    filled = true;
    return value;
  });
  return !filled && args !== "" ? `${out}\n\nARGUMENTS: ${args}` : out;
}

/** Words as a shell splits them, without expansion: quotes group, backslash escapes. */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  let current: string | undefined;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? "";
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === "\\" && quote === '"' && (text[i + 1] === '"' || text[i + 1] === "\\")) {
        current = (current ?? "") + text[++i];
      } else current = (current ?? "") + c;
    } else if (c === '"' || c === "'") {
      quote = c;
      current ??= "";
    } else if (c === "\\" && i + 1 < text.length) {
      current = (current ?? "") + text[++i];
    } else if (/\s/.test(c)) {
      if (current !== undefined) words.push(current);
      current = undefined;
    } else current = (current ?? "") + c;
  }
  if (current !== undefined) words.push(current);
  return words;
}

/**
 * What the model reads for a used command, as Claude Code sends it: a block naming the
 * command, then the filled-in template.
 */
export function commandMessageTexts(use: CommandUse): [string, string] {
  const { name } = use.command;
  const head = [
    `<command-message>${name}</command-message>`,
    `<command-name>/${name}</command-name>`,
    ...(use.args === "" ? [] : [`<command-args>${use.args}</command-args>`]),
  ].join("\n");
  return [`${head}\n`, expandTemplate(use.command.body, use.args)];
}
