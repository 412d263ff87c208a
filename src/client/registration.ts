import { HOOK_EVENTS, isHookEventName, type HookEventName } from "../wire/events.js";
import { hookGroupSchema, hookRegistrationSchema, type HookGroup } from "../wire/registration.js";
import { asAnyInput, parseHookInput } from "./inputs.js";
import type {
  HookCallback,
  HookContext,
  HookGroupConfig,
  HookInput,
  HooksConfig,
  WireHooks,
} from "./types.js";

/** A hooks option that the agent would reject, caught before `session/new` is sent. */
export class HookConfigError extends TypeError {
  override readonly name = "HookConfigError";
}

/** A callback input checked against its event, ready to call. */
export type Prepared =
  | {
      ok: true;
      input: HookInput;
      call: (toolUseID: string | undefined, options: HookContext) => unknown;
    }
  | { ok: false; error: string };

/** One registered callback, addressed on the wire by `id`. */
export interface CallbackEntry {
  readonly id: string;
  readonly event: HookEventName;
  prepare(rawInput: unknown): Prepared;
}

/** A hooks option turned into its wire registration and the callbacks behind its ids. */
export interface CompiledHooks {
  readonly wire: WireHooks;
  readonly entries: readonly CallbackEntry[];
}

const GROUP_KEYS = ["matcher", "timeout", "onFailure", "blocking", "hooks"];

const LABEL = /^[A-Za-z0-9_.-]{1,64}$/;
const FUNCTION_NAME = /^[A-Za-z0-9_$.-]{1,64}$/;

/**
 * Callback ids read `<label>/<Event>:<group>:<index>[:<function name>]`: stable for the
 * same option, readable in agent logs, and unique per registration through the label.
 */
export function callbackId(
  label: string,
  event: HookEventName,
  group: number,
  index: number,
  name: string,
): string {
  const base = `${label}/${event}:${group}:${index}`;
  return FUNCTION_NAME.test(name) ? `${base}:${name}` : base;
}

/** Checks a registration label: 1 to 64 letters, digits, `_`, `.` or `-`. */
export function checkLabel(label: string): void {
  if (!LABEL.test(label)) {
    throw new HookConfigError(
      `label ${JSON.stringify(label)} must be 1 to 64 letters, digits, "_", "." or "-"`,
    );
  }
}

/** Validates a hooks option and assigns its callback ids; throws HookConfigError naming the path. */
export function compileHooks(config: HooksConfig, label: string): CompiledHooks {
  checkLabel(label);
  for (const key of Object.keys(config)) {
    if (!isHookEventName(key)) {
      throw new HookConfigError(`hooks.${key}: unknown event; one of ${HOOK_EVENTS.join(", ")}`);
    }
  }
  const wire: Record<string, HookGroup[]> = {};
  const entries: CallbackEntry[] = [];
  for (const event of HOOK_EVENTS) {
    const groups = compileEvent(event, config, label, entries);
    if (groups) wire[event] = groups;
  }
  const checked = hookRegistrationSchema.safeParse(wire);
  if (!checked.success) throw new HookConfigError(`hooks: ${checked.error.issues[0]?.message}`);
  return { wire: checked.data, entries };
}

function compileEvent<E extends HookEventName>(
  event: E,
  config: HooksConfig,
  label: string,
  entries: CallbackEntry[],
): HookGroup[] | undefined {
  const groups: readonly HookGroupConfig<E>[] | undefined = config[event];
  if (groups === undefined) return undefined;
  const list: unknown = groups;
  if (!Array.isArray(list)) throw new HookConfigError(`hooks.${event}: must be an array of groups`);
  return groups.map((group, g) => {
    const path = `hooks.${event}[${g}]`;
    // A misspelt key (`onfailure`) would otherwise be dropped, and the group quietly weaker.
    for (const key of Object.keys(group)) {
      if (!GROUP_KEYS.includes(key)) {
        throw new HookConfigError(`${path}.${key}: unknown key; one of ${GROUP_KEYS.join(", ")}`);
      }
    }
    const hooks: unknown = group.hooks;
    if (!Array.isArray(hooks) || hooks.length === 0) {
      throw new HookConfigError(`${path}.hooks: must list at least one callback`);
    }
    const ids = group.hooks.map((callback, i) => {
      if (typeof callback !== "function") {
        throw new HookConfigError(
          `${path}.hooks[${i}]: must be a function, got ${typeof callback}`,
        );
      }
      const id = callbackId(label, event, g, i, callback.name);
      entries.push(entry(id, event, callback));
      return id;
    });
    const parsed = hookGroupSchema.safeParse({
      hookCallbackIds: ids,
      ...(group.matcher !== undefined && { matcher: group.matcher }),
      ...(group.timeout !== undefined && { timeout: group.timeout }),
      ...(group.onFailure !== undefined && { onFailure: group.onFailure }),
      ...(group.blocking !== undefined && { blocking: group.blocking }),
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path[0] === "hookCallbackIds" ? "hooks" : issue?.path.join(".");
      throw new HookConfigError(`${path}.${field}: ${issue?.message ?? "invalid"}`);
    }
    return parsed.data;
  });
}

function entry<E extends HookEventName>(
  id: string,
  event: E,
  callback: HookCallback<E>,
): CallbackEntry {
  return {
    id,
    event,
    prepare(rawInput) {
      const parsed = parseHookInput(event, rawInput);
      if (!parsed.ok) return parsed;
      const input = parsed.input;
      return {
        ok: true,
        input: asAnyInput(input),
        call: (toolUseID, options) => callback(input, toolUseID, options),
      };
    },
  };
}
