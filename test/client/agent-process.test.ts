import { mkdtempSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { client } from "@agentclientprotocol/sdk";
import { expect, it } from "vitest";
import { spawnHookgate } from "../../src/client/agent-process.js";
import { processAlive } from "../../src/process/process-group.js";

it("close() ends a stuck agent together with what it started in its group", async () => {
  const dir = mkdtempSync(join(tmpdir(), "hookgate-stuck-"));
  const pids = join(dir, "pids");
  // An "agent" that ignores stdin closing and keeps a child in its own process group.
  const agent = join(dir, "stuck.mjs");
  writeFileSync(
    agent,
    `import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
const child = spawn("sleep", ["1000"], { stdio: "ignore" });
writeFileSync(${JSON.stringify(pids)}, String(child.pid));
process.stdin.resume();
process.stdin.on("end", () => {});
setInterval(() => {}, 1000);
`,
  );
  const proc = spawnHookgate(client({ name: "test" }), { agentPath: agent });
  await expect.poll(() => existsSync(pids), { timeout: 10_000 }).toBe(true);
  const grandchild = Number(readFileSync(pids, "utf8"));
  expect(processAlive(grandchild)).toBe(true);
  await proc.close();
  await expect.poll(() => processAlive(grandchild), { timeout: 10_000 }).toBe(false);
}, 30_000);
