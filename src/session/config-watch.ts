import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import type { settingsFiles } from "../command-hooks/settings.js";
import { sameText, type SettingsText } from "../command-hooks/settings-snapshot.js";
import { keepsOut } from "../hooks/events/config-change.js";
import type { SessionHooks } from "../hooks/session-hooks.js";
import type { Logger } from "../shared/log.js";
import type { ClientPort } from "../shared/port.js";
import type { ConfigChangeSource } from "../wire/event-fields.js";
import { say, showMessages } from "./apply-decision.js";
import { watchFiles } from "./file-watch.js";

type SettingsFile = ReturnType<typeof settingsFiles>[number];

/** Claude Code's ConfigChange source per settings source; `--settings` files have none. */
const SOURCES: Partial<Record<SettingsFile["source"], ConfigChangeSource>> = {
  user: "user_settings",
  project: "project_settings",
  local: "local_settings",
  managed: "policy_settings",
};

export interface ConfigWatch {
  /** The settings files the session read (user, project, local, `--settings`, managed). */
  readonly files: readonly SettingsFile[];
  readonly hooks: SessionHooks;
  readonly client: ClientPort;
  /**
   * Takes `path` as it is now (the other files as the session has them) and loads the
   * settings again through the one loader, putting their hooks and permission rules in force
   * (or not); `notice` is for the user: why it stays out, or what of it does not apply.
   */
  readonly reload: (
    path: string,
    text: SettingsText,
  ) => Promise<{ applied: boolean; notice?: string | undefined }>;
  /** Reads a settings file as it is now (capped). */
  readonly read: (path: string) => Promise<SettingsText>;
  readonly log: Logger;
}

/**
 * Watches the session's settings files: a settled change asks ConfigChange, with the hooks
 * in force before it, and unless a hook keeps it out the files are loaded again. Changes are
 * handled one at a time, in the order they settled. Returns the closer (the session's).
 */
export function watchSettings(watch: ConfigWatch): () => void {
  const sources = new Map<string, ConfigChangeSource>();
  for (const f of watch.files) {
    const source = SOURCES[f.source];
    // A file whose folder does not exist (no `.claude` in the project, no managed settings)
    // cannot be watched; it is left out rather than warned about in every session.
    if (source !== undefined && existsSync(dirname(f.path))) sources.set(f.path, source);
  }
  // Nothing to watch (no settings sources, no managed settings): nothing for the session to keep.
  if (sources.size === 0) return () => {};
  const lifetime = new AbortController();
  let queue = Promise.resolve();
  const unwatch = watchFiles(
    [...sources.keys()],
    (path) => {
      const source = sources.get(path);
      if (source === undefined) return;
      queue = queue.then(() => changed(watch, path, source, lifetime.signal));
    },
    watch.log,
  );
  return () => {
    unwatch();
    lifetime.abort();
  };
}

async function changed(
  { hooks, client, reload, read, log }: ConfigWatch,
  path: string,
  source: ConfigChangeSource,
  signal: AbortSignal,
): Promise<void> {
  if (signal.aborted) return;
  try {
    // Read before asking: what the hooks judge is what applies, not a later write (below).
    const text = await read(path);
    const fields = () => ({ source, file_path: path });
    hooks.emit("ConfigChange", fields);
    const decision = await hooks.run("ConfigChange", {
      fields,
      toolUseId: `config-change-${randomUUID()}`,
      signal,
    });
    await showMessages(client, decision.systemMessages);
    if (signal.aborted) return;
    if (keepsOut(decision, source)) {
      log.warn({ path, source, reason: decision.block?.text }, "ConfigChange: kept out");
      return;
    }
    if (decision.block)
      log.warn({ path }, "ConfigChange: a managed change applies despite a block");
    if (!sameText(text, await read(path))) {
      // Written again while its hooks were asked: that write settles as its own change, which
      // is queued behind this one and judged in its turn.
      log.info(
        { path, source },
        "ConfigChange: changed again while judged; the newer change is judged",
      );
      return;
    }
    const { applied, notice } = await reload(path, text);
    if (notice !== undefined) {
      // A gate never goes quiet: what keeps a change (or part of it) out is told to the user.
      log.warn({ path, source, applied }, notice);
      await say(client, notice);
    }
    if (applied) log.info({ path, source }, "ConfigChange: settings reloaded");
    else if (notice === undefined) log.info({ path, source }, "ConfigChange: change not applied");
  } catch (error) {
    // A change that could not be judged or loaded stays out: the session keeps what it has.
    log.warn({ path, error: String(error) }, "ConfigChange: change not applied");
  }
}
