import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { makeWorkspace, removeWorkspace } from "../../src/client/kit/index.js";
import { runPolicyTests } from "../../src/policy-test/main.js";

/**
 * `hookgate test <args>` in `dir`, run in this process (its agents are still processes of
 * their own; policy-test.e2e runs the command itself): its exit code and the lines it printed.
 */
async function hookgateTest(dir: string, ...args: string[]) {
  let stdout = "";
  const code = await runPolicyTests(
    args,
    { out: (text) => (stdout += text), err: (text) => (stdout += text) },
    { cwd: dir },
  );
  return { code, lines: stdout.trimEnd().split("\n") };
}

/** A directory with `hooks.json`: one PreToolUse command hook on Bash running `command`. */
function project(command: string, cases: unknown[]): string {
  const dir = makeWorkspace({
    "hooks.json": JSON.stringify({
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command }] }] },
    }),
  });
  onTestFinished(() => removeWorkspace(dir));
  writeFileSync(join(dir, "t.hookgate.json"), JSON.stringify({ cases }));
  return dir;
}

const bash = (command: string) => [{ tool: "Bash", input: { command } }];
const passed = (name: string) =>
  expect.stringMatching(new RegExp(`^✓ t\\.hookgate\\.json › ${name} \\(\\d+ ms\\)$`));

describe("hookgate test shares an agent among cases", { timeout: 60_000 }, () => {
  /**
   * The first two tests read one run: four cases naming one settings file, whose Bash hook
   * logs the process it runs under and its directory. One run is one agent process.
   */
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => removeWorkspace(dir)));
  let oneSettingsRun: Promise<{ log: string; lines: string[] }> | undefined;
  const oneSettings = () =>
    (oneSettingsRun ??= (async () => {
      const dir = makeWorkspace();
      dirs.push(dir);
      const log = join(dir, "calls.txt");
      // The hook's parent is the agent: one process id for both cases means one process.
      const root = makeWorkspace({
        "hooks.json": JSON.stringify({
          hooks: {
            PreToolUse: [
              {
                matcher: "Bash",
                hooks: [
                  { type: "command", command: `echo "$PPID $PWD" >> ${JSON.stringify(log)}` },
                ],
              },
            ],
          },
        }),
        "t.hookgate.json": JSON.stringify({
          cases: [
            { name: "first", settings: "hooks.json", prompt: bash("true") },
            { name: "second", settings: "hooks.json", prompt: bash("true") },
            {
              name: "writes",
              settings: "hooks.json",
              mode: "acceptEdits",
              prompt: [{ tool: "Write", input: { file_path: "left.txt", content: "x" } }],
              expect: { exists: ["left.txt"] },
            },
            {
              name: "finds nothing",
              settings: "hooks.json",
              prompt: [{ tool: "Glob", input: { pattern: "*.txt" } }],
              expect: { absent: ["left.txt"] },
            },
          ],
        }),
      });
      dirs.push(root);
      const { lines } = await hookgateTest(root, "--jobs", "1", "t.hookgate.json");
      return { log, lines };
    })());

  it("cases that name the same settings run in one agent process, each in a session and workspace of its own", async () => {
    const { log, lines } = await oneSettings();
    expect(lines).toEqual([
      passed("first"),
      passed("second"),
      passed("writes"),
      passed("finds nothing"),
      "4 cases: 4 passed, 0 failed",
    ]);
    const calls = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => l.split(" "));
    expect(calls).toHaveLength(2);
    const [[pidA, cwdA], [pidB, cwdB]] = calls as [string[], string[]];
    expect(pidA).toBe(pidB);
    expect(cwdA).not.toBe(cwdB);
  });

  it("a file one case writes is not there for the next", async () => {
    // "finds nothing" runs after "writes", in the same agent (--jobs 1).
    const { lines } = await oneSettings();
    expect(lines.slice(2, 4)).toEqual([passed("writes"), passed("finds nothing")]);
  });

  it("a hook that keeps state in its own directory starts afresh in each case", async () => {
    // Counts its calls in a file in the project directory; denies from the second call on.
    const counter =
      'n=$(cat "$CLAUDE_PROJECT_DIR/.calls" 2>/dev/null || echo 0); n=$((n+1)); ' +
      'echo $n > "$CLAUDE_PROJECT_DIR/.calls"; ' +
      'if [ $n -gt 1 ]; then echo "call $n" >&2; exit 2; fi';
    const once = (name: string) => ({
      name,
      settings: "hooks.json",
      prompt: bash("true"),
      expect: { calls: [{ decision: "allowed" }] },
    });
    const root = project(counter, [
      once("first"),
      once("second"),
      {
        name: "twice in one case",
        settings: "hooks.json",
        prompt: [...bash("true"), ...bash("true")],
        expect: { calls: [{ decision: "allowed" }, { decision: "denied", reason: "call 2" }] },
      },
    ]);
    const result = await hookgateTest(root, "--jobs", "1", "t.hookgate.json");
    expect(result.lines).toEqual([
      passed("first"),
      passed("second"),
      passed("twice in one case"),
      "3 cases: 3 passed, 0 failed",
    ]);
  });

  it("a case that kills its agent fails alone: the case beside it in that agent passes", async () => {
    // The hook ends the agent process for the command "crash" only.
    const root = project('grep -q \'"command":"crash"\' && kill -9 $PPID; exit 0', [
      { name: "crashes", settings: "hooks.json", prompt: bash("crash") },
      {
        name: "beside it",
        settings: "hooks.json",
        prompt: bash("echo fine"),
        expect: { calls: [{ decision: "allowed" }] },
      },
      {
        name: "after it",
        settings: "hooks.json",
        prompt: bash("echo fine"),
        expect: { calls: [{ decision: "allowed" }] },
      },
    ]);
    const result = await hookgateTest(root, "--jobs", "2", "t.hookgate.json");
    expect(result.code).toBe(1);
    expect(result.lines).toEqual([
      expect.stringMatching(/^✗ t\.hookgate\.json › crashes: the agent exited with/),
      passed("beside it"),
      passed("after it"),
      "3 cases: 2 passed, 1 failed",
    ]);
  });

  it("cases run side by side up to --jobs, and print in file order", async () => {
    const dir = makeWorkspace();
    onTestFinished(() => removeWorkspace(dir));
    // Each case's hook waits for the other's to have started: only side by side do both pass.
    // Both cases run in one agent (one settings file); each learns its name from its files.
    const meet =
      `me=$(cat me); other=$(cat other); touch ${JSON.stringify(dir)}/$me; ` +
      `for i in $(seq 150); do [ -f ${JSON.stringify(dir)}/$other ] && exit 0; sleep 0.1; done; ` +
      `echo "$me waited alone" >&2; exit 2`;
    const root = makeWorkspace({
      "hooks.json": JSON.stringify({
        hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: meet }] }] },
      }),
      "t.hookgate.json": JSON.stringify({
        cases: [
          ["a", "b"],
          ["b", "a"],
        ].map(([me, other]) => ({
          name: me,
          settings: "hooks.json",
          files: { me, other },
          prompt: bash("true"),
          expect: { calls: [{ decision: "allowed" }] },
        })),
      }),
    });
    onTestFinished(() => removeWorkspace(root));
    const result = await hookgateTest(root, "--jobs", "2", "t.hookgate.json");
    expect(result.lines).toEqual([passed("a"), passed("b"), "2 cases: 2 passed, 0 failed"]);
  });
});
