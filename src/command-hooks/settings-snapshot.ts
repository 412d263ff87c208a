import { closeSync, constants, fstatSync, openSync, readFileSync } from "node:fs";
import { open, readFile, rename, writeFile } from "node:fs/promises";
import { z } from "zod";
import { errorMessage } from "../shared/values.js";

/**
 * What a session's hook configuration files held when it started: each file's text, or
 * `null` when it did not exist. A session runs the hooks of its snapshot; a change made
 * since (by the model, a checkout, anyone) applies only once the user accepts it.
 */
export type HookFilesSnapshot = Readonly<Record<string, string | null>>;

const storedSnapshotSchema = z.object({
  version: z.literal(1),
  files: z.record(z.string(), z.string().nullable()),
});

/** Reads each file once; one that cannot be read for another reason than absence is left out. */
export function takeSnapshot(paths: readonly string[]): HookFilesSnapshot {
  const files: Record<string, string | null> = {};
  for (const path of paths) {
    try {
      files[path] = readSettingsFileSync(path);
    } catch (error) {
      if (isMissing(error)) files[path] = null;
    }
  }
  return files;
}

/**
 * The files whose text differs from the snapshot's. A file the snapshot does not name (a
 * source or `--settings` file the operator turned on since) is not a change.
 */
export function changedFiles(start: HookFilesSnapshot, now: HookFilesSnapshot): string[] {
  return Object.keys(now).filter((path) => path in start && start[path] !== now[path]);
}

/** `now`, with the files in `keep` as `start` had them. */
export function keepStarting(
  start: HookFilesSnapshot,
  now: HookFilesSnapshot,
  keep: readonly string[],
): HookFilesSnapshot {
  const files = { ...now };
  for (const path of keep) files[path] = start[path] ?? null;
  return files;
}

/**
 * Reads files as the snapshot has them (`loadCommandHooks`' `readText`): a file it holds as
 * absent throws ENOENT; one it does not hold is read from disk (and fails as it did).
 */
export function snapshotReader(snapshot: HookFilesSnapshot): (path: string) => string {
  return (path) => {
    const text = snapshot[path];
    if (typeof text === "string") return text;
    if (text === null) {
      throw Object.assign(new Error(`ENOENT: no such file, ${path}`), { code: "ENOENT" });
    }
    return readSettingsFileSync(path);
  };
}

/**
 * Reads a settings file when a session opens: only a regular file of at most
 * `MAX_SETTINGS_BYTES`, opened without blocking, so a named pipe or a device a repository puts
 * in a settings path cannot stall the agent or exhaust its memory. Throws as a read does.
 */
export function readSettingsFileSync(path: string): string {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Error(`${path} is not a regular file`);
    if (stat.size > MAX_SETTINGS_BYTES) throw new Error(`${path} is larger than 1 MiB`);
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}

/** Larger than this a settings file is not read mid-session (its change stays out). */
export const MAX_SETTINGS_BYTES = 1024 * 1024;

/**
 * A settings file's text as read mid-session: null when absent, or why it cannot be used.
 * `stamp` names the file version read (device, inode, size, modification and change times):
 * a write between two reads changes it even when it puts the same text back.
 */
export type SettingsText = { text: string | null; stamp?: string } | { problem: string };

/**
 * Reads a settings file, at most `MAX_SETTINGS_BYTES` of it, off the event loop. Only a
 * regular file is read: opened without blocking, so a named pipe cannot stall the reload.
 */
export async function readSettingsText(path: string): Promise<SettingsText> {
  let file;
  try {
    file = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if (isMissing(error)) return { text: null };
    return { problem: `cannot read it: ${errorMessage(error)}` };
  }
  try {
    const stat = await file.stat({ bigint: true });
    if (!stat.isFile()) return { problem: "it is not a regular file" };
    const stamp = [stat.dev, stat.ino, stat.size, stat.mtimeNs, stat.ctimeNs].join(":");
    // One byte more than the cap tells a file that grew past it since it was opened.
    const buffer = Buffer.alloc(MAX_SETTINGS_BYTES + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await file.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0 || (length += bytesRead) === buffer.length) break;
    }
    if (length > MAX_SETTINGS_BYTES) return { problem: "it is larger than 1 MiB" };
    return { text: buffer.toString("utf8", 0, length), stamp };
  } catch (error) {
    return { problem: `cannot read it: ${errorMessage(error)}` };
  } finally {
    await file.close();
  }
}

/**
 * Whether two reads saw the same version of the file: the same text and, for a file that
 * exists, the same stamp (a write that put back the text read first still differs).
 */
export function sameText(a: SettingsText, b: SettingsText): boolean {
  if ("text" in a && "text" in b) return a.text === b.text && a.stamp === b.stamp;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The snapshot a session stored, or undefined when there is none (or it is unreadable). */
export async function readStoredSnapshot(
  path: string,
): Promise<{ ok: true; snapshot: HookFilesSnapshot | undefined } | { ok: false; error: string }> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if (isMissing(error)) return { ok: true, snapshot: undefined };
    return { ok: false, error: errorMessage(error) };
  }
  try {
    const parsed = storedSnapshotSchema.safeParse(JSON.parse(text));
    if (parsed.success) return { ok: true, snapshot: parsed.data.files };
    return { ok: false, error: `not a hook snapshot: ${parsed.error.issues[0]?.message ?? ""}` };
  } catch (error) {
    return { ok: false, error: `not valid JSON: ${errorMessage(error)}` };
  }
}

/** Stores a session's snapshot (written whole, then renamed into place). */
export async function writeStoredSnapshot(path: string, snapshot: HookFilesSnapshot) {
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, JSON.stringify({ version: 1, files: snapshot }), "utf8");
  await rename(temp, path);
}

function isMissing(error: unknown): boolean {
  return error instanceof Error && "code" in error && error.code === "ENOENT";
}
