import { HOOK_EVENTS, hasMatcher, type HookEventName } from "../wire/events.js";
import { isFileHandler, type FileHandler } from "./command.js";
import { compileMatcher, type ToolMatcher } from "../wire/matcher.js";
import type { HookGroup } from "../wire/registration.js";

/** Default group timeout, as in Claude Code. */
export const DEFAULT_TIMEOUT_SECONDS = 30;

/** A group's settings as parsed from the wire. */
export type GroupSpec = HookGroup;

/** One client callback to call for an event, with its group's settings. */
export interface Callback {
  readonly kind?: "callback";
  readonly id: string;
  readonly timeoutMs: number;
  readonly failClosed: boolean;
  /** The group set `blocking`: on a steering event it is asked and awaited, not notified. */
  readonly blocking: boolean;
  /** The matcher of the group it was selected through, for reports (absent: every tool). */
  readonly matcher?: string;
}

/** Anything the gate can ask: a client callback or a settings file's command or http hook. */
export type Handler = Callback | FileHandler;

/** A settings file's matcher group, its handlers already in file order and deduplicated. */
export interface CommandGroup {
  readonly matcher?: string;
  readonly handlers: readonly FileHandler[];
}

interface CompiledGroup {
  readonly matches: ToolMatcher;
  /** As registered, for reports; absent on events that ignore matchers. */
  readonly matcher?: string;
  readonly callbacks: readonly Handler[];
}

const NONE: readonly Handler[] = Object.freeze([]);

/** Distinct tool names whose callback lists a registry remembers per event. */
const RESOLVED_CACHE_LIMIT = 64;

/** A session's registered hooks, with matchers compiled once at registration. */
export class HookRegistry {
  private readonly groups = new Map<HookEventName, CompiledGroup[]>();
  /** Callback lists already resolved, per event and tool name: the hot path asks the same few. */
  private readonly resolved = new Map<HookEventName, Map<string, readonly Handler[]>>();
  private readonly callbackCounts: Partial<Record<HookEventName, number>> = {};
  /** Each client callback's first group, as the registration names it (`PreToolUse[0]`). */
  private readonly groupNames = new Map<string, string>();

  /** Command groups come first (settings files' order), client callbacks after them. */
  constructor(
    spec: Partial<Record<HookEventName, GroupSpec[] | undefined>> = {},
    commands: Partial<Record<HookEventName, readonly CommandGroup[]>> = {},
  ) {
    for (const event of HOOK_EVENTS) {
      // Events with nothing to match on (UserPromptSubmit, Stop) ignore the matcher.
      const compile = (matcher: string | undefined) =>
        hasMatcher(event)
          ? { matches: compileMatcher(matcher), ...(matcher && { matcher }) }
          : { matches: () => true };
      const compiled: CompiledGroup[] = (commands[event] ?? []).map((g) => ({
        ...compile(g.matcher),
        callbacks: g.handlers,
      }));
      (spec[event] ?? []).forEach((g, i) => {
        for (const id of g.hookCallbackIds) {
          const key = groupKey(event, id);
          if (!this.groupNames.has(key)) this.groupNames.set(key, `${event}[${i}]`);
        }
        compiled.push({
          ...compile(g.matcher),
          callbacks: g.hookCallbackIds.map((id) => ({
            id,
            timeoutMs: (g.timeout ?? DEFAULT_TIMEOUT_SECONDS) * 1000,
            failClosed: g.onFailure === "deny",
            blocking: g.blocking === true,
          })),
        });
        this.callbackCounts[event] = (this.callbackCounts[event] ?? 0) + g.hookCallbackIds.length;
      });
      if (compiled.length > 0) this.groups.set(event, compiled);
    }
  }

  /**
   * True when some group is registered for `event`, whatever its matcher: only then is the
   * event's input worth building (the matcher's subject is read from it).
   */
  has(event: HookEventName): boolean {
    return this.groups.has(event);
  }

  /**
   * The handlers to ask, in registration order: command hooks, then client callbacks.
   * `toolName`: what the matcher is tested against (`matcherSubject` in `hooks/input.ts`: the
   * tool name, SessionStart's `source`, ...). A
   * callback id that appears in several matching groups is called once, with its first
   * group's timeout, failing closed (and blocking) if any of those groups asked for it.
   */
  callbacksFor(event: HookEventName, toolName = ""): readonly Handler[] {
    const groups = this.groups.get(event);
    if (!groups) return NONE;
    let cache = this.resolved.get(event);
    const hit = cache?.get(toolName);
    if (hit) return hit;
    const out = Object.freeze(resolve(groups, toolName));
    if (!cache) this.resolved.set(event, (cache = new Map()));
    if (cache.size >= RESOLVED_CACHE_LIMIT) cache.clear();
    cache.set(toolName, out);
    return out;
  }

  /**
   * The registration's name of the first client group on `event` that holds `callbackId`
   * (`PreToolUse[0]`), for messages about it; undefined for an id no group holds.
   */
  groupOf(event: string, callbackId: string): string | undefined {
    return this.groupNames.get(groupKey(event, callbackId));
  }

  /** Client callback count per event, for the `session/new` result. */
  counts(): Partial<Record<HookEventName, number>> {
    return { ...this.callbackCounts };
  }
}

/**
 * The callbacks of the groups matching `toolName`, in registration order, each id once. Copies
 * of one command handler (a `dedupKey`) in several matching groups run once, where the first
 * stands, and wherever any copy's `if` admits the call.
 */
function resolve(groups: readonly CompiledGroup[], toolName: string): Handler[] {
  const index = new Map<string, number>();
  const commands = new Map<string, number>();
  const out: Handler[] = [];
  for (const group of groups) {
    if (!group.matches(toolName)) continue;
    for (const cb of group.callbacks) {
      if (isFileHandler(cb)) {
        const at = cb.dedupKey === undefined ? undefined : commands.get(cb.dedupKey);
        const first = at === undefined ? undefined : out[at];
        if (at === undefined || !first || !isFileHandler(first)) {
          const added = out.push(selected(cb, group.matcher)) - 1;
          if (cb.dedupKey !== undefined) commands.set(cb.dedupKey, added);
          continue;
        }
        out[at] = withEitherRule(first, cb);
        continue;
      }
      const at = index.get(cb.id);
      if (at === undefined) {
        index.set(cb.id, out.push(selected(cb, group.matcher)) - 1);
      } else {
        const first = out[at];
        if (!first || isFileHandler(first)) continue;
        if ((cb.failClosed && !first.failClosed) || (cb.blocking && !first.blocking)) {
          out[at] = {
            ...first,
            failClosed: first.failClosed || cb.failClosed,
            blocking: first.blocking || cb.blocking,
          };
        }
      }
    }
  }
  return out;
}

function groupKey(event: string, callbackId: string): string {
  return `${event}\0${callbackId}`;
}

/** The handler as selected through a group with this matcher (reports name it). */
function selected<H extends Handler>(handler: H, matcher: string | undefined): H {
  return matcher === undefined ? handler : { ...handler, matcher };
}

/**
 * `first`, running wherever either copy's `if` admits the call (no rule: everywhere), with the
 * strictest of the two copies: fail-closed if either is, the longer timeout, and in the
 * background only if both are. So a weaker copy written beside a handler (a settings file
 * rewritten mid-session, whose old handler a reload keeps in force) cannot loosen it.
 */
function withEitherRule(first: FileHandler, copy: FileHandler): FileHandler {
  const a = first.applies;
  const b = copy.applies;
  return {
    ...first,
    failClosed: first.failClosed || copy.failClosed,
    timeoutMs: Math.max(first.timeoutMs, copy.timeoutMs),
    async: first.async === true && copy.async === true,
    applies: a && b ? (name, input) => a(name, input) || b(name, input) : undefined,
  };
}

/** The handlers whose `if` rule (settings-file hooks only) admits this call. */
export function applicable(
  handlers: readonly Handler[],
  toolName: string,
  toolInput: unknown,
): readonly Handler[] {
  if (!handlers.some((h) => isFileHandler(h) && h.applies)) return handlers;
  return handlers.filter((h) => !isFileHandler(h) || !h.applies || h.applies(toolName, toolInput));
}
