import type { WaitForTerminalExitResponse } from "@agentclientprotocol/sdk";
import pTimeout from "p-timeout";
import type { ClientTerminal } from "../shared/port.js";
import type { CommandOutcome } from "./bash-result.js";
import { headChars, truncationNote } from "./text.js";
import { ToolError, type ToolContext } from "./types.js";

/** How long the client gets to answer terminal/output, terminal/kill or terminal/release. */
export const TERMINAL_CALL_TIMEOUT_MS = 5_000;

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

/** Sends one terminal request, bounded by TERMINAL_CALL_TIMEOUT_MS and, when given, the signal. */
async function answered<T>(
  terminal: ClientTerminal,
  method: string,
  request: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  return pTimeout(request(), {
    milliseconds: TERMINAL_CALL_TIMEOUT_MS,
    signal,
    message: new ToolError(
      `The client did not answer ${method} for terminal ${terminal.id} within ${TERMINAL_CALL_TIMEOUT_MS} ms`,
    ),
  });
}

/** Kills the terminal's command (when asked) and then releases it; failures are logged, never thrown. */
async function dispose(terminal: ClientTerminal, kill: boolean, ctx: ToolContext): Promise<void> {
  const log = ctx.log.child({ terminalId: terminal.id });
  if (kill) {
    await answered(terminal, "terminal/kill", () => terminal.kill()).catch((err: unknown) => {
      log.warn({ err }, "killing the client terminal failed");
    });
  }
  await answered(terminal, "terminal/release", () => terminal.release()).catch((err: unknown) => {
    log.warn({ err }, "releasing the client terminal failed");
  });
}

/**
 * Runs `bash -c command` in a terminal on the client (`terminal/*`), so the user can see
 * it. The terminal is killed on timeout or abort and always released; every terminal
 * request has a deadline, so a silent client cannot wedge the turn. Rejects with the
 * signal's reason on abort, at once: the kill and release then finish in the background.
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
  let killed = false;
  try {
    await ctx.showContent?.([{ type: "terminal", terminalId: terminal.id }]);
    const ending = await waitForEnding(terminal, timeoutMs, ctx.signal);
    ctx.signal.throwIfAborted();
    if (ending.kind === "timeout") {
      killed = true;
      await answered(terminal, "terminal/kill", () => terminal.kill(), ctx.signal).catch(
        (err: unknown) => {
          ctx.signal.throwIfAborted();
          ctx.log.warn({ err, terminalId: terminal.id }, "killing the client terminal failed");
        },
      );
    }
    const current = await answered(
      terminal,
      "terminal/output",
      () => terminal.currentOutput(),
      ctx.signal,
    );
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
    const disposal = dispose(terminal, ctx.signal.aborted && !killed, ctx);
    // On abort the caller must hear of it now; the disposal still ends within its deadlines.
    if (!ctx.signal.aborted) {
      await pTimeout(disposal, { milliseconds: Number.POSITIVE_INFINITY, signal: ctx.signal });
    }
  }
}
