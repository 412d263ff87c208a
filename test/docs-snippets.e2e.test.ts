import { execFile, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { transformSync } from "esbuild";
import { describe, expect, it, onTestFinished, TestRunner } from "vitest";
import { makeWorkspace, removeWorkspace, spawnAgent } from "../src/client/kit/index.js";
import { BUILT_CLI } from "./helpers/harness.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const run = promisify(execFile);
const pages = ["README.md", ...readdirSync(join(ROOT, "docs")).map((name) => `docs/${name}`)];

/** Every TypeScript block of the README and the docs, as the page has it. */
function tsBlocks(): { where: string; code: string }[] {
  return pages.flatMap((page) =>
    [
      ...readFileSync(join(ROOT, page), "utf8").matchAll(
        /^```(?:ts|typescript)\n([\s\S]*?)^```$/gm,
      ),
    ].map((m, i) => ({ where: `${page} block ${i + 1}`, code: m[1] ?? "" })),
  );
}

/**
 * A scratch directory inside this package, so that "hookgate/client" and "hookgate/testing"
 * resolve as they do for a user (by the package's own name, to the built dist/).
 */
function scratch(): string {
  const dir = join(ROOT, `.snippets-${process.pid}-${Math.random().toString(36).slice(2)}`);
  mkdirSync(dir);
  return dir;
}

const isTestFile = (code: string) => code.includes('from "vitest"');

describe(
  "every TypeScript block of the README and docs runs as written",
  { timeout: 60_000 },
  () => {
    it("there are blocks to run: the README's gate and the client guide's", () => {
      expect(tsBlocks().map((b) => b.where)).toEqual(
        expect.arrayContaining(["README.md block 1", "docs/client.md block 1"]),
      );
    });

    // A test file: its tests join this file's, as vitest collects them from the block's module
    // (a nested vitest cost seconds of CPU to start). A failing expectation fails its test here,
    // and a block that does not import or load fails this file's collection.
    for (const { where, code } of tsBlocks().filter((b) => isTestFile(b.code))) {
      describe(where, async () => {
        // The file is needed only while vitest imports it.
        const dir = scratch();
        const { tasks } = TestRunner.getCurrentSuite();
        try {
          writeFileSync(join(dir, "block.ts"), code);
          await import(pathToFileURL(join(dir, "block.ts")).href);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
        const defined = tasks.length;
        it("defines a test", () => expect(defined).toBeGreaterThan(0));
      });
    }

    it.each(tsBlocks().filter((b) => !isTestFile(b.code)))("$where", async ({ code }) => {
      const dir = scratch();
      onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
      const cwd = makeWorkspace({ "build/out.txt": "built" });
      onTestFinished(() => removeWorkspace(cwd));
      // A program: its types stripped (nothing else changed), run with node in a workspace.
      const js = transformSync(code, { loader: "ts", format: "esm", target: "es2022" }).code;
      writeFileSync(join(dir, "snippet.mjs"), js);
      const { stdout } = await run(process.execPath, [join(dir, "snippet.mjs")], {
        cwd,
        timeout: 45_000,
      });
      // Both programs prompt an rm -rf that their gate must deny; the target survives.
      expect(stdout).toMatch(/Bash was denied: "Hook \S+ denied this Bash call/);
      expect(readFileSync(join(cwd, "build/out.txt"), "utf8")).toBe("built");
    });
  },
);

describe("the Python client of docs/protocol.md#other-languages", () => {
  const example = "examples/python/gate_client.py";
  const python = spawnSync("python3", ["--version"], { encoding: "utf8" });
  const version = python.status === 0 ? python.stdout.trim() : undefined;

  it(`is ${example}, word for word, in at most 80 lines`, () => {
    const page = readFileSync(join(ROOT, "docs/protocol.md"), "utf8");
    const section = page.slice(page.indexOf("## Other languages"));
    const block = /^```python\n([\s\S]*?)^```$/m.exec(section)?.[1];
    const file = readFileSync(join(ROOT, example), "utf8");
    expect(block).toBe(file);
    expect(file.trimEnd().split("\n").length).toBeLessThanOrEqual(80);
  });

  it.skipIf(version === undefined)(
    version === undefined
      ? "runs against the built agent: skipped, python3 is not on PATH"
      : `runs against the built agent with ${version}: rm -rf is denied and nothing is deleted`,
    async () => {
      const cwd = makeWorkspace({ "build/out.txt": "built" });
      onTestFinished(() => removeWorkspace(cwd));
      // -I -S: no site-packages and no user paths, so only the standard library can be imported.
      const args = ["-I", "-S", join(ROOT, example), process.execPath, BUILT_CLI];
      const { stdout } = await run("python3", [...args, "--log-level", "warn"], {
        cwd,
        timeout: 45_000,
      });
      expect(stdout).toContain("tool call failed: Hook denied: rm -rf is not allowed here");
      expect(stdout).toMatch(/\nstopReason: end_turn\n$/);
      expect(readFileSync(join(cwd, "build/out.txt"), "utf8")).toBe("built");
    },
    60_000,
  );
});

it("the README's integration example stays short", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Integrating it"));
  const block = /```ts\n([\s\S]*?)```\n/.exec(section)?.[1] ?? "";
  expect(block.trimEnd().split("\n").length).toBeLessThanOrEqual(40);
});

describe("every sh block of the README and docs can be pasted into sh", () => {
  const blocks = pages.flatMap((page) =>
    [...readFileSync(join(ROOT, page), "utf8").matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => ({
      page,
      code: m[1] ?? "",
    })),
  );

  it.each(blocks)("$page: $code", ({ code }) => {
    for (const raw of code.split("\n")) {
      // What the shell parses: quoted strings and comments left out.
      const line = raw.replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, "''").replace(/(^|\s)#.*$/, "");
      expect(line, "the bin is only on PATH through npx").not.toMatch(/^\s*hookgate\b/);
      expect(line, "a <placeholder> is a redirection in sh").not.toMatch(/<[A-Za-z][^>]*>/);
      expect(line, "brace expansion is not sh").not.toMatch(/\{[^}\s]*,[^}\s]*\}/);
    }
  });
});

it("docs/commands.md gives every script its example config runs", () => {
  const page = readFileSync(join(ROOT, "docs/commands.md"), "utf8");
  const scripts = new Set([...page.matchAll(/\.\/(scripts\/[\w-]+\.sh)/g)].map((m) => m[1]));
  expect(scripts.size).toBeGreaterThan(0);
  for (const script of scripts)
    expect(page).toMatch(new RegExp(`\`${script}\`[^\\n]*:\\n\\n\`\`\`sh\\n`));
});

it("docs/models.md's configs for a keyless local server do not require a key", () => {
  const page = readFileSync(join(ROOT, "docs/models.md"), "utf8");
  const configs = [...page.matchAll(/^```json\n([\s\S]*?)^```$/gm)].map((m) =>
    JSON.parse(m[1] ?? "{}"),
  );
  const local = configs.filter((c) => /^http:\/\/localhost/.test(String(c.baseUrl)));
  expect(local.length).toBeGreaterThan(0);
  for (const config of local) expect(config.apiKeyEnv).toBeUndefined();
});

describe(
  "docs/editors.md's entries start an agent that runs the project's hooks",
  { timeout: 60_000 },
  () => {
    const page = readFileSync(join(ROOT, "docs/editors.md"), "utf8");
    const entries = [...page.matchAll(/^```json\n([\s\S]*?)^```$/gm)].flatMap((m) => {
      const servers = (
        JSON.parse(m[1] ?? "{}") as {
          agent_servers: Record<string, { command: string; args: string[] }>;
        }
      ).agent_servers;
      return Object.entries(servers).map(([name, entry]) => ({ name, ...entry }));
    });
    const policyFiles = () => {
      const policy = readFileSync(join(ROOT, "docs/policy-tests.md"), "utf8");
      const files: Record<string, string> = {};
      for (const [, path, body] of policy.matchAll(/^```\w+ file=(\S+)\n([\s\S]*?)^```$/gm)) {
        if (path?.startsWith(".claude/") && body !== undefined) files[path] = body;
      }
      return files;
    };

    it("there are two: Zed's and JetBrains'", () => expect(entries).toHaveLength(2));

    // Entries with the same command line start the same agent: it runs once for them all.
    const runs = new Map<string, ReturnType<typeof spawnAgent>>();
    const runOnce = (flags: string[]) => {
      const key = JSON.stringify(flags);
      let run = runs.get(key);
      if (run === undefined) {
        const cwd = makeWorkspace(policyFiles());
        run = spawnAgent({
          cwd,
          agentPath: join(ROOT, "dist/cli.js"),
          args: flags,
          prompt: '/tool Bash {"command": "grep -r TODO ."}',
        }).finally(() => removeWorkspace(cwd));
        runs.set(key, run);
      }
      return run;
    };

    it.each(entries)(
      "$name: node dist/cli.js with --setting-sources project",
      async ({ command, args }) => {
        expect(command).toBe("node");
        const [script, ...flags] = args;
        expect(script).toBe("/path/to/hookgate/dist/cli.js");
        const run = await runOnce(flags);
        expect(run.toolCalls).toMatchObject([
          {
            status: "failed",
            hooks: [
              {
                hookCallbackId: "project:.claude/settings.json#PreToolUse[0].hooks[0]",
                outcome: "denied",
              },
            ],
          },
        ]);
      },
    );
  },
);
