import { randomUUID } from "node:crypto";
import { rename, rm, writeFile } from "node:fs/promises";
import { z } from "zod";
import { errorMessage } from "../shared/values.js";
import { describeIssue } from "../shared/zod-issues.js";
import { readRegularFile, retryTransient } from "./files.js";

/** A record is a few hundred bytes; a larger file was not written by hookgate. */
const MAX_META_BYTES = 1024 * 1024;

/** The small record beside each transcript: what `session/list` shows and a load restores. */
export const sessionMetaSchema = z.object({
  version: z.literal(1),
  sessionId: z.string().min(1),
  cwd: z.string().min(1),
  additionalDirectories: z.array(z.string()),
  title: z.string().nullable(),
  mode: z.string().min(1),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  /** Tool calls and hook-denied calls (absent in records written before they were counted). */
  toolCalls: z.int().nonnegative().optional(),
  deniedCalls: z.int().nonnegative().optional(),
});

export type SessionMeta = z.infer<typeof sessionMetaSchema>;

/** A metadata file that could not be read or did not fit the schema. */
export class MetaError extends Error {}

/** Reads and validates one metadata file; `undefined` when it does not exist. */
export async function readMeta(path: string): Promise<SessionMeta | undefined> {
  let text: string | undefined;
  try {
    text = await readRegularFile(path, MAX_META_BYTES);
  } catch (error) {
    throw new MetaError(`${path}: ${errorMessage(error)}`, { cause: error });
  }
  if (text === undefined) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new MetaError(`${path}: not valid JSON`);
  }
  const parsed = sessionMetaSchema.safeParse(raw);
  if (!parsed.success) {
    throw new MetaError(`${path}: ${describeIssue(parsed.error.issues[0])}`);
  }
  return parsed.data;
}

/** Writes a metadata file whole (temp file, then rename), so a crash never leaves half of one. */
export async function writeMeta(path: string, meta: SessionMeta): Promise<void> {
  // A temp name per write: two saves of one session may overlap.
  const temp = `${path}.${process.pid}-${randomUUID()}.tmp`;
  try {
    await retryTransient(() => writeFile(temp, `${JSON.stringify(meta, null, 2)}\n`, "utf8"));
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}
