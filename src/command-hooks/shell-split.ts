/**
 * Splits a shell command line into the simple commands it runs, for `if` rules: a rule such
 * as `Bash(rm:*)` must see `rm -rf x` in `true && rm -rf x`, `cd y; rm -rf x`,
 * `echo $(rm -rf x)` or `(rm -rf x)`. It errs toward "cannot tell": whatever it does not
 * understand with confidence (a heredoc, `$'…'`, an unbalanced quote, a command name built at
 * run time, a command that runs other commands such as `eval`, `sh -c`, `sudo`, `xargs`)
 * makes the line `uncertain`, and the handler then runs.
 */
export type ShellSplit =
  | { readonly ok: true; readonly commands: readonly string[] }
  | { readonly ok: false; readonly uncertain: string };

/** Commands that run a command given to them: what they run cannot be read from the line. */
const RUNNERS = new Set([
  ".",
  "bash",
  "builtin",
  "command",
  "dash",
  "doas",
  "env",
  "eval",
  "exec",
  "fish",
  "ksh",
  "nice",
  "nohup",
  "parallel",
  "setsid",
  "sh",
  "source",
  "stdbuf",
  "su",
  "sudo",
  "time",
  "timeout",
  "watch",
  "xargs",
  "zsh",
]);

/** Reserved words that may start a simple command in a compound one; they are skipped. */
const KEYWORDS = new Set([
  "!",
  "{",
  "}",
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "do",
  "done",
  "while",
  "until",
]);

const MAX_DEPTH = 16;

const EMPTY_PARENS = /\(\s*\)/y;

class Uncertain extends Error {}

/**
 * The simple commands of `line`, each with its leading assignments, redirections and
 * reserved words removed; or why the line cannot be split with confidence.
 */
export function splitShell(line: string): ShellSplit {
  try {
    const raw: string[] = [];
    scan(line, 0, raw);
    return { ok: true, commands: raw.flatMap(simpleCommand) };
  } catch (error) {
    if (error instanceof Uncertain) return { ok: false, uncertain: error.message };
    throw error;
  }
}

/** Pushes the command texts of `line` (split on operators, substitutions and subshells). */
function scan(line: string, depth: number, out: string[]): void {
  if (depth > MAX_DEPTH) throw new Uncertain("nested too deep");
  let cur = "";
  const push = () => {
    if (cur.trim() !== "") out.push(cur.trim());
    cur = "";
  };
  // Only the last character is looked at: a regex anchored at the end would rescan `cur`.
  const wordStart = () => cur === "" || /\s/.test(cur.at(-1) ?? "");
  let i = 0;
  while (i < line.length) {
    const c = line[i] ?? "";
    const next = line[i + 1] ?? "";
    if (c === "\\") {
      if (next !== "\n") cur += c + next;
      i += 2;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end === -1) throw new Uncertain("unterminated single quote");
      cur += line.slice(i, end + 1);
      i = end + 1;
    } else if (c === '"') {
      const end = doubleQuoted(line, i, depth, out);
      cur += line.slice(i, end + 1);
      i = end + 1;
    } else if (c === "$" && next === "'") {
      throw new Uncertain("$'…' quoting");
    } else if ((c === "$" || c === "<" || c === ">") && next === "(") {
      const end = closingParen(line, i + 2);
      scan(line.slice(i + 2, end), depth + 1, out);
      cur += line.slice(i, end + 1);
      i = end + 1;
    } else if (c === "`") {
      const end = backquoted(line, i, depth, out);
      cur += line.slice(i, end + 1);
      i = end + 1;
    } else if (c === "(") {
      EMPTY_PARENS.lastIndex = i;
      if (EMPTY_PARENS.test(line)) {
        // `f() { …; }`: a function's body is a command list of its own.
        push();
        i = EMPTY_PARENS.lastIndex;
        continue;
      }
      const end = closingParen(line, i + 1);
      push();
      scan(line.slice(i + 1, end), depth + 1, out);
      i = end + 1;
    } else if (c === "#" && wordStart()) {
      const end = line.indexOf("\n", i);
      i = end === -1 ? line.length : end;
    } else if (c === "<" && next === "<" && line[i + 2] !== "<") {
      throw new Uncertain("a heredoc");
    } else if (c === "&" && (cur.endsWith("<") || cur.endsWith(">") || next === ">")) {
      cur += c; // a redirection: 2>&1, &>file
      i++;
    } else if (c === ";" || c === "&" || c === "|" || c === "\n" || c === ")") {
      push();
      i++;
    } else {
      cur += c;
      i++;
    }
  }
  push();
}

/** The index of the `"` closing the string opening at `start`; substitutions in it are scanned. */
function doubleQuoted(line: string, start: number, depth: number, out: string[]): number {
  let i = start + 1;
  while (i < line.length) {
    const c = line[i];
    if (c === "\\") i += 2;
    else if (c === '"') return i;
    else if (c === "$" && line[i + 1] === "(") {
      const end = closingParen(line, i + 2);
      scan(line.slice(i + 2, end), depth + 1, out);
      i = end + 1;
    } else if (c === "`") i = backquoted(line, i, depth, out) + 1;
    else i++;
  }
  throw new Uncertain("unterminated double quote");
}

/** The index of the backquote closing the one at `start`; its command is scanned. */
function backquoted(line: string, start: number, depth: number, out: string[]): number {
  let i = start + 1;
  while (i < line.length) {
    if (line[i] === "\\") i += 2;
    else if (line[i] === "`") {
      scan(line.slice(start + 1, i).replace(/\\([`$\\])/g, "$1"), depth + 1, out);
      return i;
    } else i++;
  }
  throw new Uncertain("unterminated backquote");
}

/** The index of the `)` that closes a `(` just before `start`, across quotes and nesting. */
function closingParen(line: string, start: number): number {
  let depth = 1;
  let i = start;
  while (i < line.length) {
    const c = line[i];
    if (c === "\\") i += 2;
    else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end === -1) break;
      i = end + 1;
    } else if (c === '"') {
      i = skipDoubleQuoted(line, i);
      if (i === -1) break;
    } else if (c === "`") {
      const end = line.indexOf("`", i + 1);
      if (end === -1) break;
      i = end + 1;
    } else {
      if (c === "(") depth++;
      if (c === ")" && --depth === 0) return i;
      i++;
    }
  }
  throw new Uncertain("unbalanced parentheses");
}

/** The index after the double-quoted string at `start`, or -1 when it never closes. */
function skipDoubleQuoted(line: string, start: number): number {
  let i = start + 1;
  while (i < line.length) {
    const c = line[i];
    if (c === "\\") i += 2;
    else if (c === '"') return i + 1;
    else if (c === "$" && line[i + 1] === "(") i = closingParen(line, i + 2) + 1;
    else i++;
  }
  return -1;
}

interface Word {
  readonly raw: string;
  /** Without quotes and backslashes: what the shell would pass. */
  readonly plain: string;
}

/** One simple command's matchable texts: as written, and with its words unquoted. */
function simpleCommand(text: string): string[] {
  const all = words(text);
  let at = 0;
  for (; at < all.length; at++) {
    const w = all[at];
    if (w === undefined) break;
    if (KEYWORDS.has(w.raw) || /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/.test(w.raw)) continue;
    const redirect = /^\d*(<|>|>>|&>|&>>|>&|<&|<>)(.*)$/.exec(w.raw);
    if (redirect) {
      if (redirect[2] === "") at++; // the target is the next word
      continue;
    }
    break;
  }
  const rest = all.slice(at);
  const [name, ...args] = rest;
  if (name === undefined) return [];
  if (name.raw === "[" || name.raw === "[[") return [rest.map((w) => w.raw).join(" ")];
  if (/[$`*?[]/.test(name.plain) || /[$`]/.test(name.raw)) {
    throw new Uncertain(`the command name ${name.raw} is decided at run time`);
  }
  const base = name.plain.slice(name.plain.lastIndexOf("/") + 1);
  if (RUNNERS.has(base)) throw new Uncertain(`${base} runs a command the line does not show`);
  if (base === "find" && args.some((a) => /^-(exec|execdir|ok|okdir)$/.test(a.plain))) {
    throw new Uncertain("find -exec runs a command the line does not show");
  }
  const asWritten = rest.map((w) => w.raw).join(" ");
  const plain = [base, ...args.map((w) => w.plain)].join(" ");
  return asWritten === plain ? [asWritten] : [asWritten, plain];
}

/** Splits a simple command into words, keeping quoted and substituted text together. */
function words(text: string): Word[] {
  const out: Word[] = [];
  let raw = "";
  let plain = "";
  const push = () => {
    if (raw !== "") out.push({ raw, plain });
    raw = "";
    plain = "";
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i] ?? "";
    if (/\s/.test(c)) {
      push();
      i++;
    } else if (c === "\\") {
      raw += text.slice(i, i + 2);
      plain += text[i + 1] ?? "";
      i += 2;
    } else if (c === "'" || c === '"' || c === "`" || (c === "$" && text[i + 1] === "(")) {
      const end =
        c === "'"
          ? text.indexOf("'", i + 1) + 1
          : c === '"'
            ? skipDoubleQuoted(text, i)
            : c === "`"
              ? text.indexOf("`", i + 1) + 1
              : closingParen(text, i + 2) + 1;
      if (end <= i) throw new Uncertain("unbalanced quoting");
      const part = text.slice(i, end);
      raw += part;
      const inner = part.slice(1, -1);
      plain += c === "'" ? inner : c === '"' ? inner.replace(/\\(.)/g, "$1") : part;
      i = end;
    } else {
      raw += c;
      plain += c;
      i++;
    }
  }
  push();
  return out;
}
