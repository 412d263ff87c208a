// `node --expose-gc bench/mcp-sessions.mjs [N]`: heap retained per closed MCP session.
// Starts the test fixture MCP server over streamable HTTP, then N times: connects a session's
// MCP servers to it, validates one argument object per tool (so every schema is compiled),
// closes the session. Forces GC and prints {"sessions", "tools", "retainedBytesPerSession"}
// as JSON. Needs `npm run build` first (it measures dist/).
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import console from "node:console";
import process from "node:process";
import { setTimeout } from "node:timers/promises";
import { fileURLToPath, URL } from "node:url";
import { ProcessGroups } from "../dist/process/process-group.js";
import { silentLogger } from "../dist/shared/log.js";
import { SessionMcp } from "../dist/mcp/session-servers.js";

const N = Number(process.argv[2] ?? 300);
const WARM = Math.min(50, N);
if (typeof globalThis.gc !== "function") throw new Error("run with node --expose-gc");

const fixture = fileURLToPath(new URL("../test/mcp/fixtures/server.mjs", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "hookgate-bench-"));
const portFile = join(dir, "port");
const server = spawn(process.execPath, [fixture, "--http", portFile], { stdio: "ignore" });
while (!existsSync(portFile) || readFileSync(portFile, "utf8") === "") await setTimeout(20);
const url = `http://127.0.0.1:${readFileSync(portFile, "utf8")}/mcp`;

let tools = 0;
async function oneSession() {
  const mcp = await SessionMcp.connect([{ type: "http", name: "bench", url, headers: [] }], {
    cwd: dir,
    log: silentLogger(),
    reserved: [],
    groups: new ProcessGroups(),
  });
  tools = mcp.tools().length;
  for (const tool of mcp.tools()) tool.inputSchema.safeParse({});
  await mcp.close();
}

async function heapAfterGc() {
  for (let i = 0; i < 3; i++) {
    await setTimeout(10);
    globalThis.gc();
  }
  return process.memoryUsage().heapUsed;
}

try {
  for (let i = 0; i < WARM; i++) await oneSession();
  const before = await heapAfterGc();
  for (let i = 0; i < N; i++) await oneSession();
  const after = await heapAfterGc();
  console.log(
    JSON.stringify({
      sessions: N,
      tools,
      retainedBytesPerSession: Math.round((after - before) / N),
    }),
  );
} finally {
  server.kill();
  rmSync(dir, { recursive: true, force: true });
}
