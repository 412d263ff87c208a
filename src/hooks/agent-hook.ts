import { z } from "zod";
import type { HookResult } from "./result.js";

/** The tool the subagent gives its verdict with, named as in Claude Code 2.1.332. */
export const VERDICT_TOOL = "StructuredOutput";

/** The verdict tool's input, as Claude Code 2.1.332 checks it. */
export const agentVerdictSchema = z.object({
  ok: z.boolean(),
  reason: z.string().optional(),
  impossible: z.boolean().optional(),
});

export type AgentVerdict = z.infer<typeof agentVerdictSchema>;

/** One run of the subagent, as the session's model and read-only tools do it. */
export interface HookAgentRequest {
  readonly system: string;
  readonly prompt: string;
  /** The handler's `model`; the session's model answers whatever it says. */
  readonly model?: string;
  /** Model steps it may take; the step that reaches the limit is not acted on. */
  readonly maxTurns: number;
  readonly signal: AbortSignal;
}

/** What a subagent run ended with; rejects only on a model failure or the signal. */
export type HookAgentEnd =
  | { readonly status: "decided"; readonly verdict: AgentVerdict; readonly turns: number }
  /** It reached the turn limit without a verdict. */
  | { readonly status: "turn_limit"; readonly turns: number }
  /** It stopped without calling the verdict tool (after one reminder), or only with bad input. */
  | { readonly status: "no_verdict"; readonly turns: number; readonly last?: string };

/** The session's model and read-only tools as `agent` hooks reach them. */
export type HookAgent = (request: HookAgentRequest) => Promise<HookAgentEnd>;

/** What running an `agent` hook gave. */
export type AgentExchange =
  | HookAgentEnd
  /** The subagent could not run or its model failed (no key, an API error). */
  | { readonly status: "failed"; readonly error: string }
  /** Not run: the event is one an agent hook cannot answer (PermissionRequest). */
  | { readonly status: "refused"; readonly error: string }
  /** The signal fired (timeout, cancel, decided elsewhere) before it decided. */
  | { readonly status: "aborted" };

/**
 * A verdict read as Claude Code reads an agent hook's: `ok: true` lets the action go ahead;
 * `ok: false` blocks it with `Agent hook condition was not met: <reason>` and, unlike a
 * prompt hook's, neither ends the turn nor honours `impossible` on Stop.
 */
export function agentVerdictResult(verdict: AgentVerdict): HookResult {
  if (verdict.ok) return { decision: "continue" };
  const said = verdict.reason === undefined ? "" : `: ${verdict.reason}`;
  // Claude Code reads it as a command's exit 2 (on Stop, the feedback alone), its text whole.
  return { decision: "deny", reason: `Agent hook condition was not met${said}`, fromExit2: true };
}
