import type { WaitForTerminalExitResponse } from "@agentclientprotocol/sdk";
import type { ClientTerminal } from "../session/port.js";
import type { CommandOutcome } from "./bash-result.js";
import { headChars, truncationNote } from "./text.js";
import type { ToolContext } from "./types.js";

type Ending =
  | { readonly kind: "exited"; readonly status: WaitForTerminalExitResponse }
  | { readonly kind: "timeout" }
  | { readonly kind: "aborted" };

/** Waits for the terminal's command to exit, the deadline to pass, or the signal to fire. */
function waitForEnding(
  terminal: ClientTerminal,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<Ending> {
  return new Promise<Ending>((resolve, reject) => {
    const onAbort = (): void => done({ kind: "aborted" });
    const timer = setTimeout(() => done({ kind: "timeout" }), timeoutMs);
    signal.addEventListener("abort", onAbort, { once: true });
    function done(ending: Ending): void {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      resolve(ending);
    }
    if (signal.aborted) return done({ kind: "aborted" });
    terminal.waitForExit().then(
      (status) => done({ kind: "exited", status }),
      (err: unknown) => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        reject(err);
      },
    );
  });
}

/**
 * Runs `bash -c command` in a terminal on the client (`terminal/*`), so the user can see
 * it. The terminal is killed on timeout or abort and always released. Rejects with the
 * signal's reason on abort.
 */
export async function runInTerminal(
  command: string,
  ctx: ToolContext,
  timeoutMs: number,
  maxChars: number,
): Promise<CommandOutcome> {
  ctx.signal.throwIfAborted();
  const terminal = await ctx.client.createTerminal(
    { command: "bash", args: ["-c", command], cwd: ctx.cwd, outputByteLimit: maxChars },
    ctx.signal,
  );
  try {
    await ctx.showContent?.([{ type: "terminal", terminalId: terminal.id }]);
    const ending = await waitForEnding(terminal, timeoutMs, ctx.signal);
    if (ending.kind !== "exited") {
      await terminal.kill().catch((err: unknown) => {
        ctx.log.warn({ err, terminalId: terminal.id }, "killing the client terminal failed");
      });
    }
    ctx.signal.throwIfAborted();
    const current = await terminal.currentOutput();
    const status = ending.kind === "exited" ? ending.status : (current.exitStatus ?? {});
    // The client keeps the end of long output; a client ignoring the limit is capped here.
    const output = headChars(current.output, maxChars);
    const notes: string[] = [];
    if (current.truncated)
      notes.push("[output truncated by the client terminal: its beginning was dropped]");
    if (output.length < current.output.length) {
      notes.push(truncationNote(current.output.length, output.length));
    }
    return {
      stdout: output,
      stderr: "",
      output,
      truncation: notes.join("\n"),
      exitCode: status.exitCode ?? null,
      signal: status.signal ?? null,
      timedOut: ending.kind === "timeout",
      terminalId: terminal.id,
    };
  } finally {
    await terminal.release().catch((err: unknown) => {
      ctx.log.warn({ err, terminalId: terminal.id }, "releasing the client terminal failed");
    });
  }
}
