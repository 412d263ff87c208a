/** One hunk of a line diff, in the shape Claude Code's `structuredPatch` gives hooks. */
export interface Hunk {
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  /** ` line` kept, `-line` removed, `+line` added, `\ No newline at end of file` after a last line. */
  readonly lines: string[];
}

/** Lines of context around each change, as `diff -u` (and Claude Code) give. */
const CONTEXT = 3;
/** A middle part larger than this (old lines × new lines) is diffed as one replacement. */
const MAX_TABLE = 4_000_000;
const NO_NEWLINE = "\\ No newline at end of file";

type Op = { readonly kind: " " | "-" | "+"; readonly line: string; readonly last: boolean };

/**
 * The hunks that turn `oldText` into `newText`, line by line with 3 lines of context (the
 * jsdiff `structuredPatch` shape Claude Code's Write and Edit report). [] when they are equal.
 */
export function structuredPatch(oldText: string, newText: string): Hunk[] {
  if (oldText === newText) return [];
  return hunks(diffLines(tokens(oldText), tokens(newText)));
}

/** Lines with their newline, so a missing final newline is a difference, as in jsdiff. */
function tokens(text: string): string[] {
  if (text === "") return [];
  const parts = text.split("\n");
  const out = parts.map((p, i) => (i < parts.length - 1 ? `${p}\n` : p));
  if (out[out.length - 1] === "") out.pop();
  return out;
}

function diffLines(a: readonly string[], b: readonly string[]): Op[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const ops: Op[] = [];
  const push = (kind: Op["kind"], token: string, index: number, length: number) =>
    ops.push({
      kind,
      line: token.replace(/\n$/, ""),
      last: index === length - 1 && !token.endsWith("\n"),
    });
  for (let i = 0; i < start; i++) push(" ", a[i] ?? "", i, a.length);
  for (const [kind, i, j] of middle(a, b, start, endA, endB)) {
    if (kind === "+") push("+", b[j] ?? "", j, b.length);
    else push(kind, a[i] ?? "", i, a.length);
  }
  for (let i = endA; i < a.length; i++) push(" ", a[i] ?? "", i, a.length);
  return ops;
}

/** The edit script of the differing middle: a longest common subsequence when it is small. */
function middle(
  a: readonly string[],
  b: readonly string[],
  start: number,
  endA: number,
  endB: number,
): [Op["kind"], number, number][] {
  const n = endA - start;
  const m = endB - start;
  const out: [Op["kind"], number, number][] = [];
  if (n * m > MAX_TABLE || n === 0 || m === 0) {
    for (let i = start; i < endA; i++) out.push(["-", i, -1]);
    for (let j = start; j < endB; j++) out.push(["+", -1, j]);
    return out;
  }
  // lcs[i][j]: the common length of a[start+i..] and b[start+j..].
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    const row = lcs[i]!;
    const below = lcs[i + 1]!;
    for (let j = m - 1; j >= 0; j--) {
      row[j] = a[start + i] === b[start + j] ? below[j + 1]! + 1 : Math.max(below[j]!, row[j + 1]!);
    }
  }
  let i = 0;
  let j = 0;
  // Removals before additions where both fit, as jsdiff orders them.
  while (i < n || j < m) {
    if (i < n && j < m && a[start + i] === b[start + j]) out.push([" ", start + i++, start + j++]);
    else if (j === m || (i < n && lcs[i + 1]![j]! >= lcs[i]![j + 1]!))
      out.push(["-", start + i++, -1]);
    else out.push(["+", -1, start + j++]);
  }
  return out;
}

/** Groups the script into hunks: changes closer than twice the context share one. */
function hunks(ops: readonly Op[]): Hunk[] {
  const out: Hunk[] = [];
  const changed = ops.flatMap((op, i) => (op.kind === " " ? [] : [i]));
  let k = 0;
  while (k < changed.length) {
    const first = changed[k]!;
    let last = first;
    while (k + 1 < changed.length && changed[k + 1]! - last <= 2 * CONTEXT) last = changed[++k]!;
    k++;
    const from = Math.max(0, first - CONTEXT);
    const to = Math.min(ops.length, last + CONTEXT + 1);
    let oldBefore = 0;
    let newBefore = 0;
    for (let i = 0; i < from; i++) {
      if (ops[i]!.kind !== "+") oldBefore++;
      if (ops[i]!.kind !== "-") newBefore++;
    }
    const lines: string[] = [];
    let oldLines = 0;
    let newLines = 0;
    for (let i = from; i < to; i++) {
      const op = ops[i]!;
      if (op.kind !== "+") oldLines++;
      if (op.kind !== "-") newLines++;
      lines.push(`${op.kind}${op.line}`);
      if (op.last) lines.push(NO_NEWLINE);
    }
    out.push({
      oldStart: oldBefore + 1,
      oldLines,
      newStart: newBefore + 1,
      newLines,
      lines,
    });
  }
  return out;
}
