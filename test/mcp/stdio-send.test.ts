import type { ChildProcess } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { ProcessGroups, processAlive } from "../../src/process/process-group.js";
import { silentLogger } from "../../src/shared/log.js";
import { GroupStdioTransport } from "../../src/mcp/stdio-transport.js";

const transports: GroupStdioTransport[] = [];
afterEach(async () => {
  await Promise.all(transports.splice(0).map((t) => t.close()));
});

/** A server that never reads its stdin; `exitAfterMs` makes it exit on its own. */
async function deafServer(exitAfterMs?: number) {
  const script =
    exitAfterMs === undefined
      ? "setInterval(() => {}, 1000);"
      : `setTimeout(() => process.exit(3), ${exitAfterMs});`;
  const t = new GroupStdioTransport(
    { command: process.execPath, args: ["-e", script], env: process.env, cwd: process.cwd() },
    new ProcessGroups(),
    silentLogger(),
  );
  transports.push(t);
  await t.start();
  return t;
}

/** One message far larger than a pipe buffer, so the write cannot complete at once. */
const big = {
  jsonrpc: "2.0" as const,
  id: 1,
  method: "tools/call",
  params: { blob: "x".repeat(4 * 1024 * 1024) },
};

/** The listeners a pending send could leave behind, on the server's stdin and process. */
function listeners(t: GroupStdioTransport): number {
  // The child is private: reach it only to count what `send` attached.
  const { child } = t as unknown as { child: ChildProcess };
  const stdin = child.stdin;
  if (!stdin) throw new Error("the server has no stdin");
  return (
    stdin.listenerCount("drain") +
    stdin.listenerCount("error") +
    child.listenerCount("exit") +
    child.listenerCount("close")
  );
}

describe("sending to an MCP server that stops reading", () => {
  it("a send blocked on a full pipe rejects when the server exits, naming it, and leaves no listeners behind", async () => {
    const t = await deafServer(500);
    const before = listeners(t);
    await expect(t.send(big)).rejects.toThrow(/MCP server .*(exited with code 3|EPIPE)/);
    expect(listeners(t)).toBe(before);
  });

  it("a send blocked on a full pipe rejects when the server is closed under it", async () => {
    const t = await deafServer();
    const pid = t.pid;
    const sent = t.send(big).then(
      () => "sent",
      (error: unknown) => String(error),
    );
    const before = listeners(t);
    await t.close();
    expect(await sent).toMatch(/MCP server .*(killed by|exited|EPIPE)/);
    expect(listeners(t)).toBeLessThan(before);
    expect(pid !== undefined && processAlive(pid)).toBe(false);
  });
});
