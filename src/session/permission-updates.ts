import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Logger } from "../shared/log.js";
import { errorMessage, isRecord } from "../shared/values.js";
import type { PermissionUpdate } from "../wire/hook-reply.js";
import { ruleText, type RuleBook } from "./rule-book.js";

/** Where a session applies permission updates. */
export interface UpdatePlaces {
  readonly rules: RuleBook;
  readonly cwd: string;
  readonly home: string;
  readonly log: Logger;
}

/** The settings file each of Claude Code's destinations names. */
function fileOf(destination: string | undefined, { cwd, home }: UpdatePlaces): string | undefined {
  switch (destination) {
    case "localSettings":
      return join(cwd, ".claude", "settings.local.json");
    case "projectSettings":
      return join(cwd, ".claude", "settings.json");
    case "userSettings":
      return join(home, ".claude", "settings.json");
    default:
      return undefined;
  }
}

/**
 * Applies a PermissionRequest hook's `updatedPermissions` as Claude Code does: `addRules`
 * join the session's rules, and are written to the settings file the destination names
 * (`localSettings`: `.claude/settings.local.json`). Rules are only added, never removed, so a
 * deny from any source stays; other update types are logged and not applied.
 */
export async function applyPermissionUpdates(
  updates: readonly PermissionUpdate[],
  places: UpdatePlaces,
): Promise<void> {
  for (const update of updates) {
    const { type, rules, behavior, destination } = update;
    if (type !== "addRules" || !rules || !behavior) {
      places.log.warn({ type, destination }, "a permission update hookgate does not apply");
      continue;
    }
    const problems = places.rules.add(rules, behavior);
    for (const p of problems) places.log.warn(`permission update: rule ${p}`);
    const file = fileOf(destination, places);
    if (file === undefined) continue;
    try {
      await addToFile(file, behavior, rules.map(ruleText));
    } catch (error) {
      places.log.warn({ file, error: errorMessage(error) }, "permission rules not saved");
    }
  }
}

/** Adds rule texts to `permissions.<behavior>` of a settings file, keeping everything else. */
async function addToFile(file: string, behavior: string, texts: readonly string[]) {
  let settings: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(await readFile(file, "utf8"));
    // A file that is not a settings object is left alone rather than overwritten.
    if (!isRecord(parsed)) throw new Error("not a JSON object");
    settings = parsed;
  } catch (error) {
    if (!(error instanceof Error && "code" in error && error.code === "ENOENT")) throw error;
  }
  const permissions = isRecord(settings.permissions) ? settings.permissions : {};
  const before = permissions[behavior];
  const list = Array.isArray(before) ? before : [];
  const added = texts.filter((t) => !list.includes(t));
  if (added.length === 0) return;
  const next = { ...settings, permissions: { ...permissions, [behavior]: [...list, ...added] } };
  await mkdir(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(next, null, 2)}\n`, "utf8");
  await rename(temp, file);
}
