import type { AgentExchange } from "./agent-hook.js";
import type { CommandRun, HttpExchange, PromptExchange } from "./command.js";
import type { Outcome } from "./outcome.js";

export { malformed, unanswered } from "./outcome.js";
import type { McpToolExchange } from "./mcp-tool.js";
import { interpretReply } from "./result.js";
import { errorMessage } from "../shared/values.js";
import {
  abortOf,
  denyFromSkeleton,
  failed,
  fromInterpretation,
  type Asked,
} from "./classify-rules.js";
import { fromProcess, processEnd } from "./classify-process.js";
import {
  fromAgentExchange,
  fromHttp,
  fromMcpTool,
  fromPromptExchange,
} from "./classify-exchange.js";

/** What asking one handler gave, before it is judged. */
export type Answer =
  /** A client callback's `_hooks/run` result, as it came. */
  | { readonly kind: "reply"; readonly raw: unknown }
  /**
   * The ask failed: a JSON-RPC error reply or a closed connection (HookTransportError), the
   * handler's signal firing (timeout, cancel, decided elsewhere), or any other error.
   */
  | { readonly kind: "rejected"; readonly error: unknown }
  /**
   * A reply too large to read whole (a callback that quoted a padded tool input): its
   * skeleton, strings cut and deep values null, and what to say of it.
   */
  | { readonly kind: "oversized"; readonly skeleton: unknown; readonly message: string }
  /** A command hook's process, as the runner reports it. */
  | { readonly kind: "process"; readonly run: CommandRun }
  /** An `http` hook's exchange, as the runner reports it. */
  | { readonly kind: "http"; readonly exchange: HttpExchange }
  /** A `prompt` hook's model answer, as the runner reports it. */
  | { readonly kind: "prompt"; readonly exchange: PromptExchange }
  /** An `mcp_tool` hook's call, as the runner reports it. */
  | { readonly kind: "mcp_tool"; readonly exchange: McpToolExchange }
  /** An `agent` hook's subagent run, as the runner reports it. */
  | { readonly kind: "agent"; readonly exchange: AgentExchange }
  /** Nothing can run this handler (no command runner was configured): a configuration error. */
  | { readonly kind: "unrunnable"; readonly why: string };

/**
 * The one classifier: turns what asking a handler gave into its outcome, with exactly one
 * label, the reply read (for `denied` and `proceeded`) or what went wrong (for the others).
 * What a reply means depends on the event (its policy, in `events/`); whether an outcome blocks is
 * `blocks` (policy.ts).
 */
export function classify(answer: Answer, asked: Asked): Outcome {
  switch (answer.kind) {
    case "reply":
      return fromInterpretation(asked, interpretReply(answer.raw, asked.event));
    case "oversized":
      return fromOversized(asked, answer.skeleton, answer.message);
    case "rejected":
      return fromRejection(asked, answer.error);
    case "process":
      return { ...fromProcess(asked, answer.run), process: processEnd(answer.run) };
    case "http":
      return fromHttp(asked, answer.exchange);
    case "prompt":
      return fromPromptExchange(asked, answer.exchange);
    case "mcp_tool":
      return fromMcpTool(asked, answer.exchange);
    case "agent":
      return fromAgentExchange(asked, answer.exchange);
    case "unrunnable":
      return failed(asked, "hook_error", answer.why);
  }
}

function fromRejection(asked: Asked, error: unknown): Outcome {
  const abort = abortOf(asked.signal);
  if (abort)
    return failed(asked, abort.kind === "timeout" ? "timed_out" : "cancelled", abort.message);
  return failed(asked, "transport_error", errorMessage(error));
}

/**
 * A reply too large to read whole (a callback that quoted a padded tool input): its size is
 * the model's doing, so a deny (or `continue: false`) read from its skeleton still denies;
 * anything else in it cannot be trusted whole (a cut `updatedInput`), so it is a
 * `transport_error`, failing as the group says.
 */
function fromOversized(asked: Asked, skeleton: unknown, message: string): Outcome {
  const denied = denyFromSkeleton(asked, skeleton);
  if (denied) return denied;
  const failure = `${message}; only a deny is read from a reply that size`;
  return failed(asked, "transport_error", failure, true);
}
