import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TERMINAL_CALL_TIMEOUT_MS } from "../../src/tools/bash-terminal.js";
import { bashTool } from "../../src/tools/bash.js";
import { ToolError } from "../../src/tools/types.js";
import { waitUntil } from "../helpers/wait.js";
import { FakeClient } from "./fake-client.js";
import { runTool, tempDir, toolContext } from "./helpers.js";

/** Whether a process still runs; a zombie waiting for its reaper counts as gone. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw err;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return true;
  }
}

/** The pid a command wrote to `file`, once it is all there (the shell creates the file first). */
function readPid(file: string): Promise<number> {
  return waitUntil(`a pid in ${file}`, () => {
    const pid = existsSync(file) ? Number(readFileSync(file, "utf8").trim()) : 0;
    return pid > 1 && pid;
  });
}

const BACKGROUND_SLEEP = "sleep 30 & echo $! > pidfile; wait";

describe("Bash (local process)", () => {
  it("runs in the session cwd and returns the output", async () => {
    const cwd = await tempDir();
    const result = await runTool(bashTool, { command: "pwd; echo hi >&2" }, toolContext(cwd));
    expect(result.output).toBe(`${cwd}\nhi`);
    // Claude Code's tool_response: one stream, trimmed; stderr joins stdout.
    expect(result.response).toEqual({
      stdout: `${cwd}\nhi`,
      stderr: "",
      interrupted: false,
      isImage: false,
      noOutputExpected: false,
      exitCode: 0,
    });
    expect(result.content).toEqual([
      { type: "content", content: { type: "text", text: `\`\`\`\n${cwd}\nhi\n\`\`\`` } },
    ]);
  });

  it("a non-zero exit is a tool error the model reads as Exit code N and the output, as in Claude Code", async () => {
    const cwd = await tempDir();
    const run = runTool(bashTool, { command: "echo failing; exit 3" }, toolContext(cwd));
    await expect(run).rejects.toThrow(ToolError);
    await expect(run).rejects.toThrow(/^Exit code 3\nfailing$/);
    const error = await run.catch((e: unknown) => e);
    expect(error instanceof ToolError && error.content).toEqual([
      { type: "content", content: { type: "text", text: "```\nExit code 3\nfailing\n```" } },
    ]);
  });

  it("a command killed by a signal is a tool error with the shell's exit code 128 + n", async () => {
    const cwd = await tempDir();
    const run = runTool(bashTool, { command: "echo going; kill -9 $$" }, toolContext(cwd));
    await expect(run).rejects.toThrow(/^Exit code 137\ngoing$/);
  });

  it("says when there is no output", async () => {
    const cwd = await tempDir();
    const result = await runTool(bashTool, { command: "true" }, toolContext(cwd));
    expect(result.output).toBe("(no output, exit code 0)");
  });

  it("caps long output and says how much was cut", async () => {
    const cwd = await tempDir();
    const result = await runTool(
      bashTool,
      { command: "head -c 100000 /dev/zero | tr '\\0' a" },
      toolContext(cwd),
    );
    expect(result.output).toBe(
      `${"a".repeat(30000)}\n[output truncated: 100000 characters, showing the first 30000]`,
    );
  });

  it("kills the whole process group on timeout", async () => {
    const cwd = await tempDir();
    // Decided at the deadline: waiting for the 30 s sleep's pipes would outlast the test.
    const attempt = runTool(
      bashTool,
      { command: BACKGROUND_SLEEP, timeout: 1000 },
      toolContext(cwd),
    );
    await expect(attempt).rejects.toBeInstanceOf(ToolError);
    await expect(attempt).rejects.toThrow("Command timed out after 1000 ms");
    const pid = await readPid(path.join(cwd, "pidfile"));
    await waitUntil(`pid ${pid} gone`, () => !isAlive(pid));
  });

  it("keeps the output seen before a timeout in the error", async () => {
    const cwd = await tempDir();
    await expect(
      runTool(bashTool, { command: "echo started; sleep 30", timeout: 300 }, toolContext(cwd)),
    ).rejects.toThrow(/timed out after 300 ms[\s\S]*started/);
  });

  it("kills the whole process group when the signal fires", async () => {
    const cwd = await tempDir();
    const controller = new AbortController();
    const attempt = runTool(
      bashTool,
      { command: BACKGROUND_SLEEP },
      toolContext(cwd, { signal: controller.signal }),
    );
    const pid = await readPid(path.join(cwd, "pidfile"));
    expect(isAlive(pid)).toBe(true);
    controller.abort(new Error("cancelled by the user"));
    await expect(attempt).rejects.toThrow("cancelled by the user");
    await waitUntil(`pid ${pid} gone`, () => !isAlive(pid));
  });

  it("does not start when the signal has already fired", async () => {
    const cwd = await tempDir();
    const controller = new AbortController();
    controller.abort();
    await expect(
      runTool(bashTool, { command: "touch ran" }, toolContext(cwd, { signal: controller.signal })),
    ).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 200));
    expect(existsSync(path.join(cwd, "ran"))).toBe(false);
  });

  it("does not wait for a background job that keeps the pipes open", async () => {
    const cwd = await tempDir();
    const result = await runTool(
      bashTool,
      { command: "sleep 30 & echo $! > pidfile; echo done" },
      toolContext(cwd),
    );
    expect(result.output).toBe("done");
    // The result came while the job holding the pipes still runs: it was not waited for.
    const pid = await readPid(path.join(cwd, "pidfile"));
    expect(isAlive(pid)).toBe(true);
    process.kill(pid, "SIGKILL");
  });

  it("titles a call with the command itself, not the model's description", () => {
    expect(bashTool.title({ command: "rm -rf build", description: "List files" })).toBe(
      "rm -rf build",
    );
    expect(bashTool.title({ command: "echo a\necho b" })).toBe("echo a...");
  });

  it("rejects a timeout above 600000 ms at the schema", () => {
    expect(bashTool.inputSchema.safeParse({ command: "ls", timeout: 600_001 }).success).toBe(false);
  });
});

describe("Bash (client terminal)", () => {
  it("runs bash -c in a client terminal, reads its output and releases it", async () => {
    const cwd = await tempDir();
    const client = new FakeClient({ terminal: true });
    client.terminalScript = { output: "built\n", exitCode: 2 };
    const command = "touch ran-locally; make";
    const run = runTool(bashTool, { command }, toolContext(cwd, { client }));
    expect(client.callsTo("createTerminal")).toEqual([
      {
        method: "createTerminal",
        params: { command: "bash", args: ["-c", command], cwd, outputByteLimit: 30000 },
      },
    ]);
    const error = await run.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect(error instanceof ToolError && error.message).toBe("Exit code 2\nbuilt");
    // The failed call still shows the terminal it ran in.
    expect(error instanceof ToolError && error.content?.[0]).toEqual({
      type: "terminal",
      terminalId: client.terminals[0]?.id,
    });
    expect(client.terminals[0]?.released).toBe(true);
    expect(client.terminals[0]?.killed).toBe(false);
    expect(existsSync(path.join(cwd, "ran-locally"))).toBe(false);
  });

  it("shows the live terminal in the tool call while it runs, and keeps it in the result", async () => {
    const cwd = await tempDir();
    const client = new FakeClient({ terminal: true });
    client.terminalScript = { output: "ok\n", exitCode: 0 };
    const shown: unknown[] = [];
    const ctx = {
      ...toolContext(cwd, { client }),
      showContent: async (c: unknown) => void shown.push(c),
    };
    const result = await runTool(bashTool, { command: "true" }, ctx);
    const terminalId = client.terminals[0]?.id;
    expect(terminalId).toBeDefined();
    expect(shown).toEqual([[{ type: "terminal", terminalId }]]);
    expect(result.content[0]).toEqual({ type: "terminal", terminalId });
  });

  it("notes when the client dropped the beginning of the output", async () => {
    const cwd = await tempDir();
    const client = new FakeClient({ terminal: true });
    client.terminalScript = { output: "tail end\n", truncated: true };
    const result = await runTool(bashTool, { command: "yes" }, toolContext(cwd, { client }));
    expect(result.output).toContain("its beginning was dropped");
  });

  it("kills and releases the terminal on timeout", async () => {
    const cwd = await tempDir();
    const client = new FakeClient({ terminal: true });
    client.terminalScript = { output: "waiting\n", hang: true };
    await expect(
      runTool(bashTool, { command: "sleep 100", timeout: 200 }, toolContext(cwd, { client })),
    ).rejects.toThrow(/Command timed out after 200 ms[\s\S]*waiting/);
    expect(client.terminals[0]?.killed).toBe(true);
    expect(client.terminals[0]?.released).toBe(true);
  });

  it("kills and releases the terminal when the signal fires", async () => {
    const cwd = await tempDir();
    const client = new FakeClient({ terminal: true });
    client.terminalScript = { output: "", hang: true };
    const controller = new AbortController();
    const attempt = runTool(
      bashTool,
      { command: "sleep 100" },
      toolContext(cwd, { client, signal: controller.signal }),
    );
    await waitUntil("a terminal created", () => client.terminals.length > 0);
    controller.abort(new Error("cancelled"));
    await expect(attempt).rejects.toThrow("cancelled");
    expect(client.terminals[0]?.killed).toBe(true);
    expect(client.terminals[0]?.released).toBe(true);
  });

  describe("with a client that never answers kill, output or release", () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    /** Starts Bash in a hanging, unresponsive client terminal under fake timers. */
    async function startUnresponsive(timeout: number, signal?: AbortSignal) {
      const cwd = await tempDir();
      vi.useFakeTimers();
      const client = new FakeClient({ terminal: true });
      client.terminalScript = { output: "waiting\n", hang: true, unresponsive: true };
      const attempt = runTool(
        bashTool,
        { command: "sleep 100", timeout },
        toolContext(cwd, { client, signal }),
      );
      const settled = vi.fn();
      attempt.then(settled, settled);
      return { client, attempt, settled };
    }

    it("rejects with the cancel reason at once, and still asks to kill and then release", async () => {
      const controller = new AbortController();
      const { client, attempt, settled } = await startUnresponsive(60_000, controller.signal);
      await vi.advanceTimersByTimeAsync(10);
      controller.abort(new Error("cancelled"));
      await vi.advanceTimersByTimeAsync(0);
      expect(settled).toHaveBeenCalled();
      await expect(attempt).rejects.toThrow("cancelled");
      const terminal = client.terminals[0];
      expect(terminal?.killed).toBe(true);
      expect(terminal?.released).toBe(false);
      await vi.advanceTimersByTimeAsync(TERMINAL_CALL_TIMEOUT_MS);
      expect(terminal?.released).toBe(true);
    });

    it("fails a timed-out command once the output request passes its deadline", async () => {
      const { client, attempt, settled } = await startUnresponsive(1_000);
      await vi.advanceTimersByTimeAsync(1_000 + 3 * TERMINAL_CALL_TIMEOUT_MS);
      expect(settled).toHaveBeenCalled();
      await expect(attempt).rejects.toThrow(
        `The client did not answer terminal/output for terminal term-1 within ${TERMINAL_CALL_TIMEOUT_MS} ms`,
      );
      const terminal = client.terminals[0];
      expect(terminal?.killed).toBe(true);
      expect(terminal?.outputRequests).toBe(1);
      expect(terminal?.released).toBe(true);
    });
  });
});
