import type { CommandGroup } from "../hooks/registry.js";
import type { HookEventName } from "../wire/events.js";
import type { LoadedSettings } from "./settings.js";

/**
 * `after`, with what `before` had in force that `after` would turn off kept on: hook handlers
 * (compared by event, matcher and what they run, wherever they are written) and deny and ask
 * rules; and what was kept, for the user. A reload of a file the model can write must not
 * switch a gate off; an allow rule removed only asks more, so it goes. After a change to the
 * managed file (`managed`), the operator's own removals and its `allowManagedHooksOnly` and
 * `allowManagedPermissionRulesOnly` apply, but what the other files had in force is kept:
 * touching the managed file must not flush what a reload kept before.
 */
export function keepInForce(
  before: LoadedSettings,
  after: LoadedSettings,
  managed = false,
): { settings: LoadedSettings; kept: string[] } {
  const kept: string[] = [];
  const commands: Partial<Record<HookEventName, CommandGroup[]>> = { ...after.commands };
  const present = new Set(
    groupsOf(after).flatMap(([event, g]) => g.handlers.map((h) => keyOf(event, g, h))),
  );
  const keepsHooks = !(managed && after.policy.managedHooksOnly);
  for (const [event, group] of groupsOf(before)) {
    if (!keepsHooks) break;
    const missing = group.handlers.filter(
      (h) => !present.has(keyOf(event, group, h)) && !(managed && h.id.startsWith("managed:")),
    );
    if (missing.length === 0) continue;
    commands[event] = [...(commands[event] ?? []), { ...group, handlers: missing }];
    for (const h of missing) kept.push(`hook ${h.id}`);
  }
  const rulesAfter = new Set(after.policy.rules.map(ruleKey));
  const keepsRules = !(managed && after.policy.managedRulesOnly);
  const lost = before.policy.rules.filter(
    (r) =>
      keepsRules &&
      r.behavior !== "allow" &&
      !rulesAfter.has(ruleKey(r)) &&
      !(managed && r.source === "managed"),
  );
  for (const r of lost) kept.push(`${r.behavior} rule ${r.rule.text}`);
  const policy = { ...after.policy, rules: [...after.policy.rules, ...lost] };
  return { settings: { ...after, commands, policy }, kept: [...new Set(kept)] };
}

function groupsOf(settings: LoadedSettings): [HookEventName, CommandGroup][] {
  return (Object.entries(settings.commands) as [HookEventName, CommandGroup[]][]).flatMap(
    ([event, groups]) => groups.map((g): [HookEventName, CommandGroup] => [event, g]),
  );
}

/** A handler's identity without its place (`id`); `ifRule` stands for `applies`. */
function keyOf(
  event: HookEventName,
  group: CommandGroup,
  handler: CommandGroup["handlers"][number],
) {
  return JSON.stringify([event, group.matcher ?? null, { ...handler, id: undefined }]);
}

function ruleKey(r: LoadedSettings["policy"]["rules"][number]): string {
  return `${r.behavior} ${r.rule.text}`;
}
