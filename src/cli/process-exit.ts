import type { AgentRuntime } from "../agent/runtime.js";

/** Exit codes of a process ended by a signal, as a shell reports them. */
const SIGNAL_EXIT_CODES = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const;

/**
 * Makes sure nothing the runtime started outlives this process: on exit (normal, or after
 * SIGTERM/SIGINT/SIGHUP) every group still running gets SIGKILL and every session lock still
 * held is given back. Only the CLI calls this: it owns the process, a library does not.
 */
export function endRuntimeWithProcess(runtime: AgentRuntime): void {
  process.on("exit", () => runtime.killNow());
  for (const signal of Object.keys(SIGNAL_EXIT_CODES) as (keyof typeof SIGNAL_EXIT_CODES)[]) {
    process.once(signal, () => process.exit(SIGNAL_EXIT_CODES[signal]));
  }
}
