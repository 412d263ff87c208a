import type { JsonRpcId } from "@agentclientprotocol/sdk";
import type { HookEventName } from "../wire/events.js";
import type { HookInput, HookInputFor } from "../hooks/input.js";
import type { OutcomeLabel } from "../hooks/outcome.js";
import type { HookDecision } from "../wire/hook-reply.js";
import type { HookRunResult, KnownHookReply } from "../wire/hook-run-result.js";
import type { HookRegistration } from "../wire/registration.js";

export type { HookEventName, HookInput, HookInputFor, HookDecision };

/** The label the agent gives each gate callback's reply (docs/protocol.md), as in `_meta.hooks`. */
export type HookOutcome = OutcomeLabel;

/** The `_meta.hooks` object sent in `session/new`: event name to hook groups. */
export type WireHooks = HookRegistration;

/**
 * A `_hooks/run` result as sent: a {@link PreToolUseResult} checked loosely, so `decision` may
 * be a string this version does not know; `null` means continue.
 */
export type RunReply = HookRunResult;

/** Events a client can only observe (everything but the PreToolUse gate). */
export type ObserverEvent = Exclude<HookEventName, "PreToolUse">;

/**
 * A callback's third argument: the Claude Agent SDK's `{ signal }`, plus the session the
 * call belongs to.
 */
export interface HookContext {
  /**
   * For a gate: fires when the agent cancels the request (the group's timeout passed,
   * another callback denied first, or the turn was cancelled). For an observer: fires when
   * the connection closes.
   */
  readonly signal: AbortSignal;
  readonly sessionId: string;
}

/**
 * What a PreToolUse callback answers; `{}`, `null` or nothing means continue. Either
 * hookgate's short form (`decision`: `deny` blocks the call, `ask` forces a permission
 * request, `allow` skips it; `updatedInput` is merged shallowly into the tool input) or
 * Claude Code's hook output (`hookSpecificOutput.permissionDecision`, legacy
 * `decision: "block"`, `continue: false`); where fields disagree the most restrictive wins.
 */
export type PreToolUseResult = KnownHookReply;

/**
 * What a callback may return: a reply in either dialect, or nothing (continue). The Claude
 * Agent SDK's `HookJSONOutput` fits, `{ async: true }` included (it reads as continue).
 * Observers may return one too, as SDK callbacks always do; `_hooks/event` has no reply,
 * so an observer's is not sent anywhere. `E` is kept for signatures that name the event.
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars
export type HookResult<E extends HookEventName = HookEventName> =
  PreToolUseResult | null | undefined | void;

/**
 * A hook callback with the Claude Agent SDK's signature, `(input, toolUseID, { signal })`,
 * so an SDK callback ports unchanged; the options also carry `sessionId`. `toolUseID` is
 * the tool call's id on tool events, `undefined` on the others. A gate callback that throws
 * becomes a JSON-RPC error reply, which the agent labels `transport_error` and fails open
 * unless its group says `onFailure: "deny"`.
 */
export type HookCallback<E extends HookEventName> = (
  input: HookInputFor<E>,
  toolUseID: string | undefined,
  options: HookContext,
) => HookResult<E> | Promise<HookResult<E>>;

export type PreToolUseCallback = HookCallback<"PreToolUse">;

/** One group of callbacks for event E, as in `session/new` `_meta.hooks.<E>[i]`. */
export interface HookGroupConfig<E extends HookEventName> {
  /**
   * Claude Code's matcher: the tool name, SessionStart's `source`, SessionEnd's `reason`,
   * Notification's `notification_type`, PreCompact's `trigger`; ignored on other events.
   */
  readonly matcher?: string;
  /** Seconds each callback may take (0 < t <= 300, agent default 30). */
  readonly timeout?: number;
  /** `"deny"` makes a failing PreToolUse callback block the call (fail closed). */
  readonly onFailure?: "allow" | "deny";
  /**
   * For the steering events (UserPromptSubmit, SessionStart, PostToolUse, PostToolUseFailure,
   * Stop): ask the callbacks with `_hooks/run` and await their replies, which can then block
   * or add context (docs/hooks.md), instead of only notifying them.
   */
  readonly blocking?: boolean;
  /** Called in registration order; a named function lends its name to the callback id. */
  readonly hooks: readonly HookCallback<E>[];
}

/** The `hooks` option: event name to groups, like the Claude Agent SDK's. */
export type HooksConfig = { readonly [E in HookEventName]?: readonly HookGroupConfig<E>[] };

/** Where a reported error came from. */
export interface HookErrorInfo {
  /** `run` for a `_hooks/run` request, `event` for a `_hooks/event` notification. */
  readonly kind: "run" | "event";
  /**
   * `dispatch`: the agent's message could not be routed (unknown id, invalid params or
   * input); no callback ran. `callback`: the callback threw or returned an invalid result.
   */
  readonly phase: "dispatch" | "callback";
  readonly hookCallbackId: string;
  readonly sessionId: string | undefined;
  readonly event: HookEventName | undefined;
}

/** One callback invocation, for recorders (the test kit, a UI's activity log). */
export interface HookTrace {
  readonly kind: "run" | "event";
  /** The `_hooks/run` request's JSON-RPC id; `undefined` for events. */
  readonly requestId: JsonRpcId | undefined;
  readonly hookCallbackId: string;
  readonly sessionId: string;
  readonly toolUseId: string | undefined;
  readonly input: HookInput;
  /** Settles when the callback does; never rejects. */
  readonly settled: Promise<HookSettlement>;
}

/** How a traced callback ended, and its own running time (not the round trip). */
export type HookSettlement =
  | { readonly ok: true; readonly result: RunReply; readonly ms: number }
  | {
      readonly ok: false;
      readonly error: unknown;
      /** The agent cancelled the request before the callback settled. */
      readonly cancelled: boolean;
      readonly ms: number;
    };
