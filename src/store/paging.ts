import { z } from "zod";

/** Sessions per `session/list` page. */
export const PAGE_SIZE = 50;

/** A cursor that this agent did not hand out. */
export class CursorError extends Error {}

/** What a listed session is ordered by. */
export interface Listed {
  readonly id: string;
  readonly updatedAt: string;
}

const cursorSchema = z.object({ u: z.string(), id: z.string() });

/**
 * One page of sessions, newest first (ties by id). The cursor names the last session of the
 * previous page, so sessions that appear or change meanwhile do not shift the pages.
 */
export function page<T extends Listed>(
  items: readonly T[],
  cursor: string | null | undefined,
  size = PAGE_SIZE,
): { items: T[]; nextCursor?: string } {
  const sorted = [...items].sort(newestFirst);
  let start = 0;
  if (cursor) {
    const after = decode(cursor);
    start = sorted.findIndex((item) => newestFirst(item, { id: after.id, updatedAt: after.u }) > 0);
    if (start < 0) start = sorted.length;
  }
  const slice = sorted.slice(start, start + size);
  const last = slice.at(-1);
  if (last === undefined || start + size >= sorted.length) return { items: slice };
  return { items: slice, nextCursor: encode(last) };
}

function newestFirst(a: Listed, b: Listed): number {
  if (a.updatedAt !== b.updatedAt) return a.updatedAt < b.updatedAt ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function encode(item: Listed): string {
  return Buffer.from(JSON.stringify({ u: item.updatedAt, id: item.id })).toString("base64url");
}

function decode(cursor: string): z.infer<typeof cursorSchema> {
  try {
    const parsed = cursorSchema.safeParse(JSON.parse(Buffer.from(cursor, "base64url").toString()));
    if (parsed.success) return parsed.data;
  } catch {
    // falls through to the error below
  }
  throw new CursorError("cursor: not a cursor from a previous session/list response");
}
