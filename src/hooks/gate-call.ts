import type { z } from "zod";
import type { HookInputFor } from "./input.js";
import type { Handler } from "./registry.js";

/** One tool call to put through the gate. */
export interface GateCall {
  readonly sessionId: string;
  readonly toolUseId: string;
  readonly toolName: string;
  readonly input: Record<string, unknown>;
  /** The tool's input schema, to re-validate `updatedInput`. */
  readonly schema: z.ZodType;
  /** The hooks to ask: client callbacks and command hooks, in registration order. */
  readonly handlers: readonly Handler[];
  /** Builds the HookInput; called at most once, and only when there are handlers. */
  readonly buildInput: () => HookInputFor<"PreToolUse">;
}
