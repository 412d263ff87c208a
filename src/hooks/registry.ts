import { HOOK_EVENTS, TOOL_EVENTS, type HookEventName } from "./events.js";
import { compileMatcher, type ToolMatcher } from "./matcher.js";
import type { HookGroup } from "../wire/hooks.js";

/** Default group timeout, as in Claude Code. */
export const DEFAULT_TIMEOUT_SECONDS = 30;

/** A group's settings as parsed from the wire. */
export type GroupSpec = HookGroup;

/** One callback to call for an event, with its group's settings. */
export interface Callback {
  readonly id: string;
  readonly timeoutMs: number;
  readonly failClosed: boolean;
}

interface CompiledGroup {
  readonly matches: ToolMatcher;
  readonly callbacks: readonly Callback[];
}

const NONE: readonly Callback[] = Object.freeze([]);

/** Distinct tool names whose callback lists a registry remembers per event. */
const RESOLVED_CACHE_LIMIT = 64;

/** A session's registered hooks, with matchers compiled once at registration. */
export class HookRegistry {
  private readonly groups = new Map<HookEventName, CompiledGroup[]>();
  /** Callback lists already resolved, per event and tool name: the hot path asks the same few. */
  private readonly resolved = new Map<HookEventName, Map<string, readonly Callback[]>>();

  constructor(spec: Partial<Record<HookEventName, GroupSpec[] | undefined>> = {}) {
    for (const event of HOOK_EVENTS) {
      const list = spec[event];
      if (!list || list.length === 0) continue;
      this.groups.set(
        event,
        list.map((g) => ({
          // Events without a tool name ignore the matcher: the group always fires.
          matches: TOOL_EVENTS.has(event) ? compileMatcher(g.matcher) : () => true,
          callbacks: g.hookCallbackIds.map((id) => ({
            id,
            timeoutMs: (g.timeout ?? DEFAULT_TIMEOUT_SECONDS) * 1000,
            failClosed: g.onFailure === "deny",
          })),
        })),
      );
    }
  }

  /**
   * The callbacks to call, in registration order. An id that appears in several matching
   * groups is called once, with its first group's timeout, failing closed if any of those
   * groups asked for it.
   */
  callbacksFor(event: HookEventName, toolName = ""): readonly Callback[] {
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

  /** Callback count per event, for the `session/new` result. */
  counts(): Partial<Record<HookEventName, number>> {
    const out: Partial<Record<HookEventName, number>> = {};
    for (const [event, groups] of this.groups) {
      out[event] = groups.reduce((n, g) => n + g.callbacks.length, 0);
    }
    return out;
  }
}

/** The callbacks of the groups matching `toolName`, in registration order, each id once. */
function resolve(groups: readonly CompiledGroup[], toolName: string): Callback[] {
  const index = new Map<string, number>();
  const out: Callback[] = [];
  for (const group of groups) {
    if (!group.matches(toolName)) continue;
    for (const cb of group.callbacks) {
      const at = index.get(cb.id);
      if (at === undefined) {
        index.set(cb.id, out.push(cb) - 1);
      } else if (cb.failClosed && !out[at]?.failClosed) {
        out[at] = { ...(out[at] ?? cb), failClosed: true };
      }
    }
  }
  return out;
}
