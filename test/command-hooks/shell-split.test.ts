import { describe, expect, it } from "vitest";
import { compileIfRule } from "../../src/command-hooks/if-rule.js";
import { splitShell } from "../../src/command-hooks/shell-split.js";

const applies = (rule: string, command: string) => {
  const r = compileIfRule(rule, "/repo");
  if (!r.ok) throw new Error(r.message);
  return r.applies("Bash", { command });
};

describe("an if rule sees every simple command of a compound line", () => {
  it.each([
    "rm -rf build",
    "true && rm -rf build",
    "false || rm -rf build",
    "cd x; rm -rf build",
    "cd x ;rm -rf build",
    "ls | rm -rf build",
    "ls |& rm -rf build",
    "sleep 1 & rm -rf build",
    "echo ok\nrm -rf build",
    "echo $(rm -rf build)",
    'echo "$(rm -rf build)"',
    "echo `rm -rf build`",
    'echo "`rm -rf build`"',
    "(rm -rf build)",
    "( cd x && (rm -rf build) )",
    "{ rm -rf build; }",
    "if true; then rm -rf build; fi",
    "for f in a b; do rm -rf $f; done",
    "X=1 Y='a b' rm -rf build",
    "2>/dev/null rm -rf build",
    "diff <(rm -rf build) x",
    "echo $(echo $(rm -rf build))",
    '"rm" -rf build',
    "r\\m -rf build",
    "/bin/rm -rf build",
    "echo a 2>&1 && rm -rf build",
    "echo a \\\n&& rm -rf build",
    "[ -d build ] && rm -rf build",
    "f() { rm -rf build; }; f",
  ])("Bash(rm:*) applies to %j", (command) => {
    expect(applies("Bash(rm:*)", command)).toBe(true);
    expect(applies("Bash(rm -rf *)", command)).toBe(true);
  });

  it.each([
    "ls -la",
    "echo 'rm -rf build'",
    'echo "rm -rf build"',
    "git status && npm test",
    "echo a # ; rm -rf build",
    "grep -r rmdir . | wc -l",
  ])("Bash(rm -rf *) does not apply to %j", (command) => {
    expect(applies("Bash(rm -rf *)", command)).toBe(false);
  });

  it.each([
    ["cat <<EOF\nit's\nEOF\nrm -rf build\necho '", "a heredoc"],
    ["echo 'unterminated; rm -rf build", "unterminated single quote"],
    ['echo "unterminated; rm -rf build', "unterminated double quote"],
    ["echo $'\\x72m'", "$'…' quoting"],
    ["$CMD -rf build", "decided at run time"],
    ["`echo rm` -rf build", "decided at run time"],
    ["/bin/r? -rf build", "decided at run time"],
    ["eval 'r''m -rf build'", "eval runs a command"],
    ["sh -c 'rm -rf build'", "sh runs a command"],
    ["sudo rm -rf build", "sudo runs a command"],
    ["ls | xargs rm", "xargs runs a command"],
    ["find . -exec rm {} +", "find -exec"],
    ["echo $(( (1 + 2) ", "unbalanced parentheses"],
  ])("cannot split %j with confidence (%s): the handler runs", (command, why) => {
    const split = splitShell(command);
    expect(split.ok).toBe(false);
    if (!split.ok) expect(split.uncertain).toContain(why);
    expect(applies("Bash(rm -rf *)", command)).toBe(true);
  });

  it("splits into the simple commands, without assignments, redirections or reserved words", () => {
    expect(splitShell("A=1 make && if true; then >log rm -f x; fi | tee y")).toEqual({
      ok: true,
      commands: ["make", "true", "rm -f x", "tee y"],
    });
  });

  it("splits a megabyte of padding in linear time, bounded by nesting depth", () => {
    const padding = "x".repeat(1 << 20);
    expect(applies("Bash(rm:*)", `echo ${padding}; rm -rf build`)).toBe(true);
    expect(splitShell(`${"$(".repeat(40)}rm${")".repeat(40)}`).ok).toBe(false);
  });
});
