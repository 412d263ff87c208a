import { mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import {
  loadCommandHooks,
  settingsFiles,
  type LoadedSettings,
  type SettingsRequest,
} from "../command-hooks/settings.js";
import {
  changedFiles,
  keepStarting,
  type SettingsText,
  readStoredSnapshot,
  snapshotReader,
  takeSnapshot,
  writeStoredSnapshot,
  type HookFilesSnapshot,
} from "../command-hooks/settings-snapshot.js";
import { keepInForce } from "../command-hooks/settings-removals.js";
import { askToApplyHookChanges, hookChangeNotice } from "../session/hook-changes.js";
import { isModeId, type ModeId } from "../session/modes.js";
import type { Logger } from "../shared/log.js";
import type { ClientPort } from "../shared/port.js";
import { errorMessage } from "../shared/values.js";
import type { SessionStore } from "../store/session-store.js";
import type { SettingsReport } from "../wire/hook-reports.js";

/** What a session opening needs to read its settings files. */
export interface SettingsOpening {
  readonly id: string;
  /** The session's files (user, project, local, `--settings`), without the managed file. */
  readonly files: SettingsRequest;
  /** The one load request: the files above, the managed file, the http header environment. */
  readonly load: SettingsRequest;
  readonly restoring: boolean;
  readonly client: ClientPort;
  readonly store: SessionStore | undefined;
  readonly log: Logger;
}

/**
 * A session's settings files as it runs them: the snapshot it started from (stored beside its
 * transcript, so a file changed since is asked about when it opens again), and each change
 * a ConfigChange hook let in while it runs (applied, never stored). One owner per session;
 * nothing module-wide.
 */
export class SessionSettings {
  private constructor(
    private snapshot: HookFilesSnapshot,
    private readonly request: SettingsRequest,
    /** Where the snapshot is stored, when the session is; the paths it stores. */
    private readonly stored: { path: string; files: ReadonlySet<string> } | undefined,
    private readonly log: Logger,
    /** Told to the user and client: changed files kept out or accepted when it opened. */
    readonly notice: string | undefined,
    /** Files whose change the user declined when it opened: they stay as the snapshot has them. */
    declined: readonly string[],
  ) {
    this.declined = new Set(declined);
  }

  private readonly declined: Set<string>;
  /** Declined files whose later change the user was told stays out (told once). */
  private readonly toldDeclined = new Set<string>();
  /** What is in force: what a reload may add to but not take from (`accept`). */
  private current: LoadedSettings | undefined;

  /**
   * For a new session the files as they are; for one opening again, the files as they were
   * when it was last opened, unless the user accepts what changed since: a
   * hook file the model wrote must not run unseen on the next load.
   */
  static async open(o: SettingsOpening): Promise<SessionSettings> {
    // The managed file is held too (never stored): deleted mid-session, it is not lifted.
    const paths = settingsFiles(o.load).map((f) => f.path);
    const now = takeSnapshot(paths);
    if (!o.store) return new SessionSettings(now, o.load, undefined, o.log, undefined, []);
    const path = join(o.store.dir, `${o.id}.hooks`);
    let snapshot = now;
    let notice: string | undefined;
    let declined: string[] = [];
    const stored = o.restoring ? await readStoredSnapshot(path) : undefined;
    if (stored && !stored.ok) o.log.warn({ error: stored.error }, "hook snapshot unreadable");
    const start = stored?.ok ? stored.snapshot : undefined;
    // A stored file that cannot be read now (made a directory, a pipe, unreadable) is a change
    // too: declined, the stored text stands, so nothing of it goes off unasked.
    const unreadable = start ? paths.filter((p) => p in start && !(p in now)) : [];
    const changed = start ? [...changedFiles(start, now), ...unreadable] : [];
    if (start && changed.length > 0) {
      let applied = false;
      try {
        applied = await askToApplyHookChanges(o.client, changed);
      } catch (error) {
        o.log.warn({ error: errorMessage(error) }, "asking to apply changed hooks failed");
      }
      snapshot = applied ? now : keepStarting(start, now, changed);
      if (!applied) declined = changed;
      notice = hookChangeNotice(changed, applied);
      o.log.warn({ changed, applied }, notice);
    }
    const settings = new SessionSettings(
      snapshot,
      o.load,
      { path, files: new Set(settingsFiles(o.files).map((f) => f.path)) },
      o.log,
      notice,
      declined,
    );
    await settings.save(o.store.dir);
    return settings;
  }

  /** The settings loaded through the one loader, the session's files as its snapshot has them. */
  load(): LoadedSettings {
    this.current = this.loadFrom(this.snapshot);
    return this.current;
  }

  /** Loads the files as `snapshot` has them; what a file could not be or skipped is logged. */
  private loadFrom(snapshot: HookFilesSnapshot): LoadedSettings {
    const loaded = loadCommandHooks({ ...this.request, readText: snapshotReader(snapshot) });
    for (const r of loaded.reports) {
      const at = { path: r.path };
      if (r.error !== undefined) this.log.warn(at, `settings ${r.path}: ${r.error}`);
      for (const s of r.skipped ?? []) this.log.warn(at, `settings ${r.path}: ${s}`);
    }
    return loaded;
  }

  /**
   * Takes `text` as `path`'s (the file as read before its ConfigChange hooks were asked; null:
   * absent), the other files as the session has them, and loads the settings again. The
   * stored snapshot stays as the session opened: a change made while it runs (the model's Bash
   * can write these files) is asked about when the session opens again. The change stays out,
   * told in `notice`, when the file cannot be read or loaded, was deleted, or its change was
   * declined when the session opened; for a file other than the managed one, what it would
   * turn off (a hook, a deny or ask rule) stays in force: only the policy's author may switch
   * it off, by a change the user accepts when the session opens again.
   */
  accept(path: string, read: SettingsText): Reload {
    const keptOut = (why: string): Reload => ({
      notice: `Settings file ${path} changed, but the change stays out of this session: ${why}. The session keeps the hooks and rules it had.`,
    });
    if (this.declined.has(path)) {
      if (this.toldDeclined.has(path)) return {};
      this.toldDeclined.add(path);
      return keptOut("you declined its change when the session opened");
    }
    if ("problem" in read) return keptOut(read.problem);
    if (read.text === null && typeof this.snapshot[path] === "string") {
      return keptOut("the file was deleted");
    }
    const next = { ...this.snapshot, [path]: read.text };
    let loaded: LoadedSettings;
    try {
      loaded = this.loadFrom(next);
    } catch (error) {
      return keptOut(errorMessage(error));
    }
    const broken = loaded.reports.find((r) => r.path === path && r.error !== undefined);
    if (broken) return keptOut(`it does not load (${broken.error ?? ""})`);
    this.snapshot = next;
    if (!this.current) {
      this.current = loaded;
      return { loaded };
    }
    const managed = this.request.managed !== undefined && resolve(this.request.managed) === path;
    const { settings, kept } = keepInForce(this.current, loaded, managed);
    this.current = settings;
    if (kept.length === 0) return { loaded: settings };
    const shown =
      kept.slice(0, 5).join(", ") + (kept.length > 5 ? `, and ${kept.length - 5} more` : "");
    const notice =
      `Settings file ${path} changed; what it adds applies, but what it would turn off stays in force for this session: ${shown}. ` +
      `Open the session again to be asked about the change.`;
    return { loaded: settings, notice };
  }

  /** Stores the session's files' snapshot (the managed file is never stored). */
  private async save(dir?: string): Promise<void> {
    if (!this.stored) return;
    const { path, files } = this.stored;
    const kept = Object.fromEntries(Object.entries(this.snapshot).filter(([f]) => files.has(f)));
    try {
      if (dir !== undefined) await mkdir(dir, { recursive: true });
      await writeStoredSnapshot(path, kept);
    } catch (error) {
      this.log.warn({ error: errorMessage(error) }, "hook snapshot not saved");
    }
  }
}

/** A reload's outcome. */
export interface Reload {
  /** Put in force; absent when the change stays out. */
  readonly loaded?: LoadedSettings;
  /** Why the change stays out, or what of it does not apply: for the user. */
  readonly notice?: string;
}

/** The settings' `permissions.defaultMode`, if it names a mode hookgate has. */
export function settingsMode(mode: string | undefined, log: Logger): ModeId | undefined {
  if (mode === undefined || isModeId(mode)) return mode;
  log.warn({ mode }, "permissions.defaultMode names a mode hookgate does not have; ignored");
  return undefined;
}

/**
 * A settings file that could not be loaded means hooks the user expects are off: said where
 * the user looks (an agent message), not only where a client may look.
 */
export function unloadedNotices(reports: readonly SettingsReport[]): string[] {
  return reports.flatMap((r) =>
    r.error === undefined
      ? []
      : [`Settings file ${r.path} (${r.source}) was not loaded, its hooks are off: ${r.error}`],
  );
}
