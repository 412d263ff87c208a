import { createRequire } from "node:module";
import { isAbsolute, relative, resolve } from "node:path";
import type picomatchType from "picomatch";
import { splitShell } from "./shell-split.js";

const require = createRequire(import.meta.url);

/** picomatch, loaded with the first `if` rule: an agent start without one never pays for it. */
function picomatch(...args: Parameters<typeof picomatchType>): ReturnType<typeof picomatchType> {
  const load = require("picomatch") as typeof picomatchType;
  return load(...args);
}

/** Tools whose `if` pattern is a glob over the file path their input names. */
const PATH_FIELDS: Readonly<Record<string, string>> = {
  Read: "file_path",
  Write: "file_path",
  Edit: "file_path",
  Glob: "path",
  Grep: "path",
};

const RULE = /^([A-Za-z0-9_-]+)(?:\((.*)\))?$/s;

/** A handler's `if` rule, compiled; or why it cannot be read. */
export type IfRule =
  | { readonly ok: true; readonly applies: (toolName: string, toolInput: unknown) => boolean }
  | { readonly ok: false; readonly message: string };

/**
 * Compiles one permission rule, `Tool` or `Tool(pattern)`: for Bash a glob over the command
 * and over every simple command in it (`*` any text, a trailing `:*` a prefix), for file tools a glob over the path relative to
 * `cwd`. Events without a tool never match (their tool name is empty).
 */
export function compileIfRule(rule: string, cwd: string): IfRule {
  const m = RULE.exec(rule.trim());
  if (!m?.[1])
    return { ok: false, message: `if ${JSON.stringify(rule)}: expected Tool or Tool(pattern)` };
  const tool = m[1];
  const pattern = m[2];
  if (pattern === undefined || pattern === "*" || pattern === "") {
    return { ok: true, applies: (name) => name === tool };
  }
  if (tool === "Bash") {
    const test = bashMatcher(pattern);
    return {
      ok: true,
      applies: (name, input) => name === tool && test(stringField(input, "command") ?? ""),
    };
  }
  const field = PATH_FIELDS[tool];
  if (field === undefined) {
    return {
      ok: false,
      message: `if ${JSON.stringify(rule)}: patterns are understood for Bash and file tools only`,
    };
  }
  const test = picomatch(pattern.replace(/^\.\//, ""), { dot: true });
  return {
    ok: true,
    applies: (name, input) => {
      if (name !== tool) return false;
      const path = stringField(input, field) ?? ".";
      const abs = isAbsolute(path) ? path : resolve(cwd, path);
      return test(relative(cwd, abs) || ".");
    },
  };
}

/**
 * A Bash rule applies when it matches the whole line or any simple command in it (`true &&
 * rm -rf x` is an `rm`), and whenever the line cannot be split with confidence: a deny
 * scoped with `if` must not fail open because something harmless came first.
 */
function bashMatcher(pattern: string): (command: string) => boolean {
  const test = commandTest(pattern);
  return (command) => {
    if (test(command.trim())) return true;
    const split = splitShell(command);
    return !split.ok || split.commands.some(test);
  };
}

function commandTest(pattern: string): (command: string) => boolean {
  if (pattern.endsWith(":*")) {
    const prefix = pattern.slice(0, -2);
    return (command) => command.startsWith(prefix);
  }
  // `bash: true`: a single `*` crosses `/`, as "any text" in a command line should.
  const test = picomatch(pattern, { bash: true, dot: true, noextglob: true, nobrace: true });
  return (command) => test(command);
}

function stringField(input: unknown, field: string): string | undefined {
  if (typeof input !== "object" || input === null) return undefined;
  const value: unknown = Reflect.get(input, field);
  return typeof value === "string" ? value : undefined;
}
