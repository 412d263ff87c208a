import { hasKnownField, REPLY_FIELDS, SPECIFIC_OUTPUT_FIELDS } from "../wire/hook-reply.js";

/** Unknown fields named in one message, at most; the rest are counted. */
const MAX_NAMED = 5;
/** Names longer than this get no spelling suggestion (nobody mistypes a field that long). */
const MAX_SUGGESTED_LENGTH = 64;

const TOP = new Set(REPLY_FIELDS);
const SPECIFIC = new Set(SPECIFIC_OUTPUT_FIELDS);
const SPECIFIC_PATHS = SPECIFIC_OUTPUT_FIELDS.map((f) => `hookSpecificOutput.${f}`);

/** The fields of a reply the reader does not know, described for a person. */
export interface UnknownFields {
  /**
   * No top-level field the reader acts on (at most a `reason` beside the unknown ones): the
   * reply says nothing it can read.
   */
  readonly nothingKnown: boolean;
  /**
   * One clause per unknown field, with the field it was probably meant to be, e.g.
   * `unknown field "permissionDecision" at the top level; did you mean hookSpecificOutput.permissionDecision?`.
   */
  readonly message: string;
}

/**
 * The fields of a reply object that the reader does not know, at the top level and in
 * `hookSpecificOutput`, each with the known field it is likely meant to be (the same name at
 * the other level, or a near spelling); `undefined` when every field is known.
 */
export function unknownFields(reply: object): UnknownFields | undefined {
  const clauses: string[] = [];
  let unknown = 0;
  const note = (clause: string) => {
    unknown++;
    if (unknown <= MAX_NAMED) clauses.push(clause);
  };
  for (const key of Object.keys(reply)) {
    if (TOP.has(key)) continue;
    const meant = SPECIFIC.has(key)
      ? `hookSpecificOutput.${key}`
      : nearest(key, [...REPLY_FIELDS, ...SPECIFIC_PATHS]);
    note(clause(key, "at the top level", meant));
  }
  const specific: unknown = Reflect.get(reply, "hookSpecificOutput");
  if (typeof specific === "object" && specific !== null && !Array.isArray(specific)) {
    for (const key of Object.keys(specific)) {
      if (SPECIFIC.has(key)) continue;
      const meant = TOP.has(key)
        ? `${key} at the top level`
        : nearest(key, [...SPECIFIC_PATHS, ...REPLY_FIELDS]);
      note(clause(key, "in hookSpecificOutput", meant));
    }
  }
  if (unknown === 0) return undefined;
  if (unknown > MAX_NAMED) clauses.push(`and ${unknown - MAX_NAMED} more unknown fields`);
  return { nothingKnown: !hasKnownField(reply), message: clauses.join("; ") };
}

function clause(key: string, where: string, meant: string | undefined): string {
  const head = `unknown field ${JSON.stringify(key)} ${where}`;
  return meant === undefined ? head : `${head}; did you mean ${meant}?`;
}

/**
 * The candidate (a field name, or a `hookSpecificOutput.` path) whose last name is spelled
 * nearest to `key`: the same letters ignoring case, `_` and `-`, or within a small edit
 * distance (1 for short names, 2 from 6 letters on).
 */
function nearest(key: string, candidates: readonly string[]): string | undefined {
  if (key.length > MAX_SUGGESTED_LENGTH) return undefined;
  const typed = normal(key);
  const limit = typed.length >= 6 ? 2 : 1;
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    const distance = editDistance(typed, normal(candidate.slice(candidate.lastIndexOf(".") + 1)));
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function normal(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, "");
}

/** Edit distance with adjacent transpositions (`decsion`/`decison` are one step apart). */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return Infinity;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const up = rows[i - 1] ?? [];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((up[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (up[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, (rows[i - 2]?.[j - 2] ?? 0) + 1);
      }
      row.push(d);
    }
    rows.push(row);
  }
  return rows[a.length]?.[b.length] ?? Infinity;
}
