import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { spawnAgent, toolLine } from "../../src/client/kit/index.js";
import { waitUntil } from "../helpers/wait.js";

const SERVER = resolve("examples/policy-server/server.mjs");
const RULES = resolve("examples/policy-server/rules.json");

let server: ChildProcessWithoutNullStreams | undefined;
const temps: string[] = [];
afterEach(() => {
  server?.kill("SIGTERM");
  server = undefined;
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Starts the example server on a free port; resolves with its URL and its stderr so far. */
async function startPolicyServer(rules = RULES) {
  const child = spawn(process.execPath, [SERVER, "--rules", rules, "--port", "0"]);
  server = child;
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  await waitUntil("the policy server to listen", () => /listening on (\S+)/.test(stderr));
  const url = /listening on (\S+)/.exec(stderr)?.[1] ?? "";
  return { url, log: () => stderr };
}

function settingsFor(url: string, dir: string): string {
  const path = join(dir, "team-policy.json");
  const handler = { type: "http", url: `${url}hook`, timeout: 5, onFailure: "block" };
  writeFileSync(path, JSON.stringify({ hooks: { PreToolUse: [{ hooks: [handler] }] } }));
  return path;
}

describe("the example policy server, asked by hookgate's http hook", () => {
  it("a rule's deny blocks the call, an allowed call runs, and each decision is logged", async () => {
    const policy = await startPolicyServer();
    const cwd = mkdtempSync(join(tmpdir(), "policy-server-"));
    temps.push(cwd);
    mkdirSync(join(cwd, "victim"));
    const run = await spawnAgent({
      cwd,
      mode: "bypassPermissions",
      args: ["--settings", settingsFor(policy.url, cwd)],
      prompt: [
        toolLine("Bash", { command: "rm -rf victim" }),
        toolLine("Bash", { command: "ls && touch made.txt" }),
      ].join("\n"),
      timeoutMs: 60_000,
    });
    expect(existsSync(join(cwd, "victim"))).toBe(true);
    expect(existsSync(join(cwd, "made.txt"))).toBe(true);
    const [rm, ls] = run.toolCalls;
    expect(rm).toMatchObject({ status: "failed" });
    expect(rm?.text).toContain("No recursive or forced deletes");
    expect(rm?.hooks).toEqual([expect.objectContaining({ kind: "http", outcome: "denied" })]);
    expect(ls).toMatchObject({ status: "completed" });
    expect(ls?.hooks).toEqual([expect.objectContaining({ kind: "http", outcome: "proceeded" })]);
    await waitUntil("the allow to be logged", () => policy.log().includes('"decision":"allow"'));
    const lines = policy
      .log()
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l.tool, l.decision, l.rule])).toEqual([
      ["Bash", "deny", 0],
      ["Bash", "allow", 3],
    ]);
  });

  it("a rules file that does not fit the schema stops the server with the field named", async () => {
    const dir = mkdtempSync(join(tmpdir(), "policy-rules-"));
    temps.push(dir);
    const bad = join(dir, "rules.json");
    writeFileSync(bad, JSON.stringify({ rules: [{ tool: "Bash", decision: "block" }] }));
    const child = spawn(process.execPath, [SERVER, "--rules", bad]);
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const code = await new Promise((done) => child.on("close", done));
    expect(code).toBe(2);
    expect(stderr).toContain("rules.0.decision");
  });
});
