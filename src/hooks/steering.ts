import { isHookEventName, type HookEventName } from "../wire/events.js";
import { denyReason, statesDeny, textOf, type HookText, type Outcome } from "./outcome.js";
import { blocks, isFailure, policyOf, type EVENT_POLICY } from "./policy.js";
import type { OutcomeReport } from "../wire/hooks.js";

/**
 * Events whose asked hooks can steer the turn (DESIGN §5), besides the PreToolUse gate: those
 * whose EVENT_POLICY awaits command hooks and blocking groups.
 */
export type SteerEvent = {
  [E in HookEventName]: (typeof EVENT_POLICY)[E]["awaited"] extends "command-and-blocking"
    ? E
    : never;
}[HookEventName];

export function isSteerEvent(event: string): event is SteerEvent {
  return isHookEventName(event) && policyOf(event).awaited === "command-and-blocking";
}

export type { HookText } from "./outcome.js";

/** Events whose hooks can give the model text: the steering events and the PreToolUse gate. */
export type NoteEvent = SteerEvent | "PreToolUse";

export function isNoteEvent(event: string): event is NoteEvent {
  return event === "PreToolUse" || isSteerEvent(event);
}

/**
 * What background (`async`) hooks answered, for the model's next step: their messages for
 * the user, their context for the model, their reports. Never a block or a decision.
 */
export interface LateAnswer {
  readonly event: NoteEvent;
  readonly reports: readonly OutcomeReport[];
  readonly systemMessages: readonly string[];
  readonly context: readonly HookText[];
}

/** What the asked hooks of one steering event decided, folded into one answer. */
export interface Steering {
  readonly event: SteerEvent;
  /** One per asked hook, in registration order: the `_meta.hooks` entries. */
  readonly reports: readonly OutcomeReport[];
  /** Shown to the user as agent messages. */
  readonly systemMessages: readonly string[];
  /** `continue: false`: the turn ends after the current step, with this text shown. */
  readonly stop?: HookText;
  /**
   * UserPromptSubmit: the prompt is kept from the model. Stop: the turn goes on with this
   * reason as the next user-role message. Also a fail-closed hook's failure on these events.
   */
  readonly block?: HookText;
  /** `additionalContext` per hook, in registration order, for the model. */
  readonly context: readonly HookText[];
  /** PostToolUse: `decision: "block"` reasons, shown to the model beside the result. */
  readonly feedback: readonly HookText[];
  /**
   * PostToolUse(Failure): what the model sees instead of the tool's output (or error text),
   * after every rewrite.
   */
  readonly output?: { readonly value: unknown };
  /** PostToolUse(Failure): a fail-closed hook failed, so the model must not see the output. */
  readonly withheld?: HookText;
  /** PermissionRequest: a hook answered the permission prompt instead of the user. */
  readonly permission?: PermissionVerdict;
}

/** The answer PermissionRequest hooks gave, and which hook gave it. */
export interface PermissionVerdict {
  readonly hookCallbackId: string;
  readonly behavior: "allow" | "deny";
  /** `allow`: replaces the whole tool input. */
  readonly updatedInput?: Record<string, unknown>;
  /** `deny`: what the model is told (the hook's `message`, else why it denied). */
  readonly message?: string;
  /** `deny` with `interrupt: true`: the turn ends too. */
  readonly interrupt?: boolean;
}

/** A steering with nothing asked: the common case, with no allocation. */
export function noSteering(event: SteerEvent): Steering {
  return { event, reports: [], systemMessages: [], context: [], feedback: [] };
}

/** The events whose hooks see what a tool gave back and may rewrite what the model reads. */
export type ToolOutputEvent = "PostToolUse" | "PostToolUseFailure";

/**
 * Folds the outcomes of hooks asked at once (every steering event but PostToolUse) into
 * one steering: `end` is the race's first blocking outcome, if any.
 */
export function foldConcurrent(
  event: SteerEvent,
  outcomes: readonly (Outcome | undefined)[],
  end: Outcome | undefined,
  reports: readonly OutcomeReport[],
): Steering {
  const settled = outcomes.filter((o): o is Outcome => o !== undefined);
  const stopper = settled.find((o) => o.label === "denied" && o.result?.stop);
  const blocker = end && !end.result?.stop ? end : undefined;
  return {
    event,
    reports,
    systemMessages: settled.flatMap((o) =>
      o.result?.systemMessage ? [o.result.systemMessage] : [],
    ),
    ...(stopper && { stop: textOf(stopper, denyReason(stopper)) }),
    ...(blocker && blocks(blocker, event) && { block: textOf(blocker, denyReason(blocker)) }),
    context: blocker ? [] : contextOf(settled),
    feedback: [],
    ...(event === "PermissionRequest" && permissionOf(settled, blocker)),
  };
}

/**
 * PermissionRequest's answer: the first deny (or fail-closed failure) wins, else the first
 * allow in registration order; nothing when no hook answered.
 */
function permissionOf(
  settled: readonly Outcome[],
  blocker: Outcome | undefined,
): { permission: PermissionVerdict } | undefined {
  if (blocker && blocks(blocker, "PermissionRequest")) {
    const answer = blocker.result?.permissionRequest;
    return {
      permission: {
        hookCallbackId: blocker.handler.id,
        behavior: "deny",
        message: answer?.message ?? denyReason(blocker),
        ...(answer?.interrupt === true && { interrupt: true }),
      },
    };
  }
  const allowing = settled.find(
    (o) => o.label === "proceeded" && o.result?.permissionRequest?.behavior === "allow",
  );
  const updatedInput = allowing?.result?.permissionRequest?.updatedInput;
  return (
    allowing && {
      permission: {
        hookCallbackId: allowing.handler.id,
        behavior: "allow",
        ...(updatedInput && { updatedInput }),
      },
    }
  );
}

/**
 * Builds up a PostToolUse(Failure) steering as its hooks answer one after another. A block
 * reason is feedback on PostToolUse only (a failure has nothing left to block).
 */
export class ToolOutputFold {
  private readonly reports: OutcomeReport[] = [];
  private readonly systemMessages: string[] = [];
  private readonly context: HookText[] = [];
  private readonly feedback: HookText[] = [];
  private stop: HookText | undefined;
  private withheld: HookText | undefined;
  private replaced = false;

  /**
   * `view`: the value the next hook sees (`tool_response`, or `error` on a failure), and the
   * model sees if replaced.
   */
  constructor(
    private readonly event: ToolOutputEvent,
    public view: unknown,
  ) {}

  add(outcome: Outcome, report: OutcomeReport): void {
    this.reports.push(report);
    const { result } = outcome;
    if (result?.systemMessage) this.systemMessages.push(result.systemMessage);
    // A deny stated in a malformed reply is feedback, as any block on this event.
    if (isFailure(outcome.label) && !statesDeny(outcome)) {
      if (blocks(outcome, this.event)) this.withheld ??= textOf(outcome, denyReason(outcome));
      return;
    }
    if (!result || outcome.label === "cancelled") return;
    if (result.updatedToolOutput !== undefined) {
      this.view = result.updatedToolOutput;
      this.replaced = true;
    }
    if (result.stop) this.stop ??= textOf(outcome, denyReason(outcome));
    else if (result.decision === "deny" && this.event === "PostToolUse")
      this.feedback.push(textOf(outcome, denyReason(outcome)));
    if (result.additionalContext) this.context.push(textOf(outcome, result.additionalContext));
  }

  done(): Steering {
    return {
      event: this.event,
      reports: this.reports,
      systemMessages: this.systemMessages,
      ...(this.stop && { stop: this.stop }),
      context: this.context,
      feedback: this.feedback,
      ...(this.replaced && { output: { value: this.view } }),
      ...(this.withheld && { withheld: this.withheld }),
    };
  }
}

function contextOf(outcomes: readonly Outcome[]): HookText[] {
  return outcomes.flatMap((o) =>
    o.label !== "cancelled" && !isFailure(o.label) && o.result?.additionalContext
      ? [textOf(o, o.result.additionalContext, o.result.plainOutput === true)]
      : [],
  );
}
