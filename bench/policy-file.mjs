// `hookgate test` on a file of many cases: the wall time of the whole run, as CI pays it.
// Four kinds of case take turns: a client stub that denies rm, a project command hook (a shell
// script) that denies grep, a Write in acceptEdits that must leave its file, a plain Read.
import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import process from "node:process";

const VALIDATOR = `#!/bin/sh
# Blocks grep, as Claude Code's example Bash validator does.
if grep -q '"command":"grep' ; then echo "Use rg instead of grep" >&2; exit 2; fi
`;

const SETTINGS = {
  hooks: {
    PreToolUse: [
      {
        matcher: "Bash",
        hooks: [{ type: "command", command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/validator.sh' }],
      },
    ],
  },
};

function kind(i) {
  switch (i % 4) {
    case 0:
      return {
        name: `case ${i}: a stub denies rm`,
        hooks: [
          {
            event: "PreToolUse",
            matcher: "Bash",
            id: "no-rm",
            reply: { decision: "deny", reason: "no rm" },
          },
        ],
        prompt: [{ tool: "Bash", input: { command: "rm -rf build" } }],
        expect: { calls: [{ decision: "denied", hook: "no-rm" }] },
      };
    case 1:
      return {
        name: `case ${i}: the project hook denies grep`,
        copy: [".claude"],
        settingSources: ["project"],
        prompt: [{ tool: "Bash", input: { command: "grep -r TODO ." } }],
        expect: { calls: [{ decision: "denied", reason: "Use rg" }] },
      };
    case 2:
      return {
        name: `case ${i}: a Write in acceptEdits leaves its file`,
        mode: "acceptEdits",
        prompt: [{ tool: "Write", input: { file_path: "out.txt", content: "x" } }],
        expect: { calls: [{ decision: "allowed" }], exists: ["out.txt"] },
      };
    default:
      return {
        name: `case ${i}: a Read is allowed`,
        files: { "a.txt": "hello\n" },
        prompt: [{ tool: "Read", input: { file_path: "a.txt" } }],
        expect: { calls: [{ decision: "allowed" }] },
      };
  }
}

/** A directory holding `cases.hookgate.json` with `count` cases and the project's hooks. */
export function policyFixture(count) {
  const dir = mkdtempSync(join(tmpdir(), "hookgate-bench-policy-"));
  mkdirSync(join(dir, ".claude/hooks"), { recursive: true });
  writeFileSync(join(dir, ".claude/settings.json"), JSON.stringify(SETTINGS));
  writeFileSync(join(dir, ".claude/hooks/validator.sh"), VALIDATOR);
  chmodSync(join(dir, ".claude/hooks/validator.sh"), 0o755);
  const cases = Array.from({ length: count }, (_, i) => kind(i));
  writeFileSync(join(dir, "cases.hookgate.json"), JSON.stringify({ cases }));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** One `node <entry> test cases.hookgate.json` in `dir`: wall ms, and the summary line. */
export function policyRun(entry, dir) {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [entry, "test", "cases.hookgate.json"],
      { cwd: dir, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout) => {
        const ms = performance.now() - started;
        const summary = stdout.trim().split("\n").at(-1) ?? "";
        if (error && !/ passed, /.test(summary)) reject(error);
        else resolve({ ms, summary, passed: !error });
      },
    );
  });
}
