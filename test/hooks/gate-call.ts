import { z } from "zod";
import type { GateCall } from "../../src/hooks/gate.js";
import { buildHookInput } from "../../src/hooks/input.js";
import type { Callback } from "../../src/hooks/registry.js";

/** The Bash input schema the gate re-validates `updatedInput` against in these tests. */
export const bashSchema = z.object({ command: z.string(), timeout: z.number().optional() });

/** A callback with its group's settings. */
export function cb(id: string, timeoutMs = 30_000, failClosed = false): Callback {
  return { id, timeoutMs, failClosed, blocking: false };
}

/** One Bash call (session s1, call t1) to put through the gate. */
export function gateCall(
  callbacks: Callback[],
  input: Record<string, unknown> = { command: "rm -rf /" },
): GateCall {
  return {
    sessionId: "s1",
    toolUseId: "t1",
    toolName: "Bash",
    input,
    schema: bashSchema,
    handlers: callbacks,
    buildInput: () =>
      buildHookInput(
        { session_id: "s1", transcript_path: "", cwd: "/w", permission_mode: "default" },
        "PreToolUse",
        { tool_name: "Bash", tool_input: input, tool_use_id: "t1" },
        16384,
      ),
  };
}
