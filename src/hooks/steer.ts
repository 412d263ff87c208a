import type { Logger } from "../shared/log.js";
import type { CommandHookRunner } from "./command.js";
import { askHandler } from "./ask.js";
import { malformed, unanswered } from "./classify.js";
import type { Outcome } from "./outcome.js";
import { logOutcome, type OutcomePlace } from "./outcome-log.js";
import { blocks } from "./policy.js";
import { raceHandlers } from "./race.js";
import type { Handler } from "./registry.js";
import { EVENTS } from "./events/index.js";
import { viewAfter } from "./events/tool-output.js";
import { noSteering, type SteerEvent, type ToolOutputEvent, type Steering } from "./steering.js";
import type { HookTransport } from "./transport.js";
import { TOOL_EVENTS } from "../wire/events.js";
import type { AnyHookInput } from "../wire/hook-input.js";

/** Where a steering event's hooks are asked from, and what names it in logs. */
export interface SteerContext {
  readonly sessionId: string;
  readonly event: SteerEvent;
  /**
   * `_hooks/run` `toolUseId`: the tool call's id on PostToolUse(Failure), the turn's id on
   * UserPromptSubmit and Stop, the session's id on SessionStart.
   */
  readonly toolUseId: string;
  /** For log lines: the tool name, or the event name on events without a tool. */
  readonly subject: string;
  readonly transport: HookTransport;
  /** Runs command hooks; absent when the session has none. */
  readonly commands?: CommandHookRunner | undefined;
  readonly log: Logger;
}

/**
 * Asks every hook of a steering event at once (`_hooks/run`), each bounded by its own
 * timeout; the first block (or fail-closed failure) decides at once and cancels the rest.
 */
export async function steerConcurrently(
  ctx: SteerContext,
  handlers: readonly Handler[],
  input: AnyHookInput,
  signal: AbortSignal,
): Promise<Steering> {
  if (handlers.length === 0) return noSteering(ctx.event);
  const started = performance.now();
  const { end, outcomes } = await race(ctx, handlers, input, signal);
  const elapsed = performance.now() - started;
  const steering = {
    ...EVENTS[ctx.event].fold({ handlers, outcomes, end, elapsed }),
    event: ctx.event,
  };
  logSteering(ctx, steering);
  return steering;
}

/**
 * Judges a replacement of a tool's output: undefined when the model may see it, else why not
 * (e.g. it does not match the tool's output shape). The reply's other fields still count.
 */
export type OutputJudge = (
  value: unknown,
  field: "updatedToolOutput" | "updatedMCPToolOutput",
) => string | undefined;

/**
 * Asks PostToolUse(Failure) hooks one after another in registration order, each seeing the
 * view the hooks before it left (capped by `input`), so rewrites compose deterministically.
 */
export async function steerToolOutput(
  ctx: SteerContext & { readonly event: ToolOutputEvent },
  handlers: readonly Handler[],
  response: unknown,
  input: (view: unknown) => AnyHookInput,
  signal: AbortSignal,
  judge?: OutputJudge,
): Promise<Steering> {
  const outcomes: Outcome[] = [];
  let view = response;
  const first = performance.now();
  for (const handler of handlers) {
    const started = performance.now();
    const raced = await race(ctx, [handler], input(view), signal);
    const outcome = judged(
      ctx,
      raced.outcomes[0] ?? unanswered(handler, performance.now() - started),
      judge,
    );
    outcomes.push(outcome);
    view = viewAfter(view, outcome);
  }
  const elapsed = performance.now() - first;
  const decision = EVENTS[ctx.event].fold({
    handlers,
    outcomes,
    end: undefined,
    elapsed,
    view: response,
  });
  const steering = { ...decision, event: ctx.event };
  logSteering(ctx, steering);
  return steering;
}

/**
 * The outcome without a replacement the judge refused (logged; the rest of the reply still
 * counts, as in Claude Code). In a fail-closed group the refusal is a `malformed` reply, so
 * the output is withheld: a redaction that cannot apply never lets the original through.
 */
function judged(ctx: SteerContext, outcome: Outcome, judge: OutputJudge | undefined): Outcome {
  const result = outcome.result;
  if (!judge || result?.updatedToolOutput === undefined) return outcome;
  const field = result.updatedToolOutputField ?? "updatedToolOutput";
  const refused = judge(result.updatedToolOutput, field);
  if (refused === undefined) return outcome;
  const bad = malformed(outcome, `hookSpecificOutput.${field}: ${refused}`);
  if (blocks(bad, ctx.event)) {
    logOutcome(ctx.log, place(ctx), bad);
    return bad;
  }
  ctx.log.warn(
    { hookCallbackId: outcome.handler.id, event: ctx.event, tool: ctx.subject },
    `hook ${outcome.handler.id}: ${field} ${refused}; the tool's own output is kept`,
  );
  const rest = { ...result };
  delete rest.updatedToolOutput;
  delete rest.updatedToolOutputField;
  return { ...outcome, result: rest };
}

function race(
  ctx: SteerContext,
  handlers: readonly Handler[],
  input: AnyHookInput,
  signal: AbortSignal,
) {
  const { transport, commands, log } = ctx;
  const ask = askHandler(
    { transport, log, ...(commands && { commands }) },
    ctx.event,
    input,
    ctx.toolUseId,
  );
  return raceHandlers(handlers, signal, {
    event: ctx.event,
    ...(TOOL_EVENTS.has(ctx.event) && { tool: ctx.subject }),
    log: ctx.log,
    onSettle: (o) => logOutcome(ctx.log, place(ctx), o),
    timeoutMessage: (h) =>
      `hook ${h.id} timed out after ${h.timeoutMs} ms on ${ctx.event} (${ctx.subject})`,
    ask,
  });
}

/** Where a steering event's outcomes are logged: its tool, on tool events. */
function place(ctx: SteerContext): OutcomePlace {
  return { event: ctx.event, ...(TOOL_EVENTS.has(ctx.event) && { tool: ctx.subject }) };
}

/** Every steering decision is logged: what was decided, by whom, and each hook's outcome. */
function logSteering(ctx: SteerContext, s: Steering): void {
  const decided = [
    s.block && `blocked by ${s.block.hookCallbackId}`,
    s.stop && `turn ended by ${s.stop.hookCallbackId}`,
    s.output && "tool output replaced",
    s.withheld && `tool output withheld (${s.withheld.hookCallbackId} failed)`,
    s.feedback.length > 0 && "block reason added to the result",
    s.context.length > 0 && "context added",
  ].filter((d): d is string => typeof d === "string");
  ctx.log.info(
    { event: ctx.event, subject: ctx.subject, hooks: s.reports },
    `${ctx.event} hooks: ${decided.length > 0 ? decided.join(", ") : "no change"}`,
  );
}
