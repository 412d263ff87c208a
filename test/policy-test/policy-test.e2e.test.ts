import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { makeWorkspace, removeWorkspace } from "../../src/client/kit/index.js";
import { runPolicyTests } from "../../src/policy-test/main.js";
import { AgentPool } from "../../src/policy-test/pool.js";
import { loadPolicyFile, PolicyFileError } from "../../src/policy-test/spec.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../..");
const CLI = join(ROOT, "dist/cli.js");
const run = promisify(execFile);

/** The blocks of docs/policy-tests.md fenced as ```<lang> file=<path>, by path: the exact text. */
function docFiles(): Record<string, string> {
  const page = readFileSync(join(ROOT, "docs/policy-tests.md"), "utf8");
  const files: Record<string, string> = {};
  for (const [, path, body] of page.matchAll(/^```\w+ file=(\S+)\n([\s\S]*?)^```$/gm)) {
    if (path !== undefined && body !== undefined) files[path] = body;
  }
  return files;
}

/** `hookgate test` in `cwd`; resolves to its exit code and output, whatever the code. */
async function hookgateTest(cwd: string, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, "test", ...args], { cwd });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/**
 * The same run in this process, for what the cases do rather than what the command line does:
 * its agents come from one pool for the whole file, so cases that pass an agent the same
 * arguments share it across tests, as they would within one run.
 */
const pool = new AgentPool();
afterAll(() => pool.close());
async function runInProcess(cwd: string, ...args: string[]) {
  let stdout = "";
  let stderr = "";
  const io = { out: (text: string) => (stdout += text), err: (text: string) => (stderr += text) };
  const code = await runPolicyTests(args, io, { cwd, pool });
  return { code, stdout, stderr };
}

function exampleRepo(extra: Record<string, string> = {}, without: string[] = []): string {
  const files = { ...docFiles(), ...extra };
  for (const path of without) delete files[path];
  const dir = makeWorkspace(files);
  onTestFinished(() => removeWorkspace(dir));
  return dir;
}

const FAILING = `cases:
  - name: grep runs
    copy: [.claude]
    settingSources: [project]
    prompt: '/tool Bash {"command":"grep -r TODO ."}'
    expect:
      calls: [{ decision: allowed }]
`;

/** A case that passes in the worked example's agent without running its (node) hook. */
const PASSING = `cases:
  - name: a plain prompt
    copy: [.claude]
    settingSources: [project]
    prompt: hi
`;

// Each run starts agent processes: a file of several cases takes seconds on a loaded machine.
describe("hookgate test", { timeout: 60_000 }, () => {
  it("the worked example of docs/policy-tests.md runs as written and passes", async () => {
    expect(Object.keys(docFiles()).sort()).toEqual([
      ".claude/hooks/bash-validator.mjs",
      ".claude/settings.json",
      "policy.hookgate.yaml",
    ]);
    const result = await hookgateTest(exampleRepo(), "policy.hookgate.yaml");
    expect(result.stderr).toBe("");
    expect(result.stdout.trimEnd().split("\n")).toEqual([
      expect.stringMatching(
        /^✓ policy\.hookgate\.yaml › grep is blocked, and the model is told to use rg \(\d+ ms\)$/,
      ),
      expect.stringMatching(
        /^✓ policy\.hookgate\.yaml › grep at the end of a pipeline runs \(\d+ ms\)$/,
      ),
      expect.stringMatching(
        /^✓ policy\.hookgate\.yaml › a read-only client denies every Write \(\d+ ms\)$/,
      ),
      "3 cases: 3 passed, 0 failed",
    ]);
    expect(result.code).toBe(0);
  });

  it("a failing case prints what happened instead and makes the exit code 1; files are found by default", async () => {
    // The worked example's own file is left out: the test above runs it.
    const files = { "wrong.hookgate.yaml": FAILING, "right.hookgate.yaml": PASSING };
    const dir = exampleRepo(files, ["policy.hookgate.yaml"]);
    // In this process: the junit test below checks the exit code 1 of the command itself.
    const result = await runInProcess(dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^✓ right\.hookgate\.yaml › a plain prompt/m);
    expect(result.stdout).toMatch(
      /^✗ wrong\.hookgate\.yaml › grep runs: call 1 \(Bash\): expected allowed, but it was denied: "• Use 'rg'/m,
    );
    expect(result.stdout).toMatch(/^2 cases: 1 passed, 1 failed$/m);
  });

  it("--reporter junit writes well-formed JUnit XML with a failure per failed case", async () => {
    const dir = exampleRepo({ "wrong.hookgate.yaml": FAILING });
    const result = await hookgateTest(dir, "--reporter", "junit", "wrong.hookgate.yaml");
    expect(result.code).toBe(1);
    expect(XMLValidator.validate(result.stdout)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false }).parse(result.stdout);
    const suite = doc.testsuites.testsuite;
    expect(suite["@_name"]).toBe("wrong.hookgate.yaml");
    expect(suite["@_failures"]).toBe("1");
    expect(suite.testcase["@_name"]).toBe("grep runs");
    expect(suite.testcase.failure["@_message"]).toMatch(/expected allowed, but it was denied/);
  });

  it("a misspelt expectation is an error naming the field, never a silent pass", () => {
    const dir = makeWorkspace({
      "t.hookgate.json": JSON.stringify({
        cases: [{ name: "x", prompt: "hi", expect: { calls: [{ decison: "denied" }] } }],
      }),
    });
    onTestFinished(() => removeWorkspace(dir));
    expect(() => loadPolicyFile(join(dir, "t.hookgate.json"))).toThrow(PolicyFileError);
    expect(() => loadPolicyFile(join(dir, "t.hookgate.json"))).toThrow(
      /cases\[0\]\.expect\.calls\[0\]: Unrecognized key: "decison"/,
    );
  });

  it("paths that would leave the workspace are refused, naming the field", () => {
    const dir = makeWorkspace({
      "t.hookgate.json": JSON.stringify({
        cases: [{ name: "x", prompt: "hi", copy: ["../secrets"] }],
      }),
    });
    onTestFinished(() => removeWorkspace(dir));
    expect(() => loadPolicyFile(join(dir, "t.hookgate.json"))).toThrow(
      /^cases\[0\]\.copy\[0\]: must be a relative path without \.\.$/,
    );
  });

  it("a settings file that does not load fails the case; a stub's matcher warning fails it unless allowed", async () => {
    const dir = exampleRepo();
    mkdirSync(join(dir, "broken"));
    writeFileSync(join(dir, "broken/settings.json"), "{ not json");
    const stub = (allowWarnings: boolean) => ({
      name: allowWarnings ? "allowed" : "warned",
      allowWarnings,
      hooks: [{ event: "PreToolUse", matcher: "bash", id: "typo" }],
      prompt: "hi",
    });
    writeFileSync(
      join(dir, "t.hookgate.json"),
      JSON.stringify({
        cases: [
          { name: "broken", settings: "broken/settings.json", prompt: "hi" },
          stub(false),
          stub(true),
        ],
      }),
    );
    const result = await runInProcess(dir, "t.hookgate.json");
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^✗ t\.hookgate\.json › broken: .*broken\/settings\.json/m);
    expect(result.stdout).toMatch(
      /^✗ t\.hookgate\.json › warned: the agent warned about the hooks: .*bash/m,
    );
    expect(result.stdout).toMatch(/^✓ t\.hookgate\.json › allowed/m);
  });
  it("shows a hook reply's unknown fields and a settings file's dead matcher, naming the file", async () => {
    const dead = { matcher: "bash", hooks: [{ type: "command", command: "true" }] };
    const dir = makeWorkspace({
      "dead/settings.json": JSON.stringify({ hooks: { PreToolUse: [dead] } }),
      "t.hookgate.json": JSON.stringify({
        cases: [
          {
            name: "typo",
            hooks: [
              { event: "PreToolUse", id: "policy", reply: { decision: "allow", decison: "deny" } },
            ],
            prompt: '/tool Bash {"command":"true"}',
            expect: { calls: [{ decision: "allowed" }] },
          },
          { name: "dead", settings: "dead/settings.json", prompt: "hi" },
          {
            name: "dead allowed",
            settings: "dead/settings.json",
            allowWarnings: true,
            prompt: "hi",
          },
        ],
      }),
    });
    onTestFinished(() => removeWorkspace(dir));
    const result = await runInProcess(dir, "t.hookgate.json");
    const where = `${join(dir, "dead/settings.json")}: hooks.PreToolUse[0].matcher "bash" matches no tool`;
    expect(result.stdout).toMatch(
      /^✓ t\.hookgate\.json › typo .*\n {2}⚠ hook \S*policy: unknown field "decison" at the top level; did you mean decision\?$/m,
    );
    expect(result.stdout).toContain(
      `✗ t.hookgate.json › dead: the agent warned about the hooks: ${where}`,
    );
    expect(result.stdout).toMatch(/^✓ t\.hookgate\.json › dead allowed .*$/m);
    expect(result.stdout).toContain(`\n  ⚠ ${where}`);
  });

  it("stubs can rewrite a call, and a blocking UserPromptSubmit stub gives the model context", async () => {
    const dir = makeWorkspace({
      "t.hookgate.json": JSON.stringify({
        cases: [
          {
            name: "rewrite",
            mode: "acceptEdits",
            hooks: [
              {
                event: "PreToolUse",
                id: "tidy",
                reply: { decision: "allow", updatedInput: { content: "tidied" } },
              },
              {
                event: "UserPromptSubmit",
                id: "ctx",
                blocking: true,
                reply: { additionalContext: "CTX-42: the build uses pnpm" },
              },
            ],
            prompt: [{ tool: "Write", input: { file_path: "a.txt", content: "messy" } }],
            expect: {
              calls: [{ tool: "Write", decision: ["allowed", "rewritten"], hook: "tidy" }],
              exists: ["a.txt"],
              context: ["CTX-42: the build uses pnpm"],
            },
          },
        ],
      }),
    });
    onTestFinished(() => removeWorkspace(dir));
    const result = await runInProcess(dir);
    expect(result.stdout).toMatch(/^✓ t\.hookgate\.json › rewrite/m);
    expect(result.code).toBe(0);
  });
});
