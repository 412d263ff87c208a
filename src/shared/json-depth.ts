/**
 * How deeply nested a tool input may be. JSON.stringify recurses, so a value nested thousands
 * deep throws wherever it is written (a frame, the model SDK's own bookkeeping); no tool
 * schema needs more than a few levels.
 */
export const MAX_TOOL_INPUT_DEPTH = 64;

/** The deepest nesting of `[` and `{` in a JSON text, strings skipped; linear, no recursion. */
export function jsonTextDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/** The nesting depth of a value (a scalar is 0), counted without recursion, stopping past `limit`. */
export function valueDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop() ?? [undefined, 0];
    if (typeof item !== "object" || item === null) continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > limit) return deepest;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** Why a tool input is refused for its depth, or undefined when it is shallow enough. */
export function tooDeep(input: unknown): string | undefined {
  const depth =
    typeof input === "string" ? jsonTextDepth(input) : valueDepth(input, MAX_TOOL_INPUT_DEPTH);
  if (depth <= MAX_TOOL_INPUT_DEPTH) return undefined;
  const seen =
    typeof input === "string" ? `${depth} levels` : `more than ${MAX_TOOL_INPUT_DEPTH} levels`;
  return `arguments are nested ${seen} deep, deeper than the ${MAX_TOOL_INPUT_DEPTH}-level limit`;
}

/** A copy of `value` with everything nested deeper than `max` levels replaced by a note. */
export function capDepth(value: unknown, max: number, depth = 0): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (depth >= max) return `[omitted: nested deeper than ${max} levels]`;
  if (Array.isArray(value)) return value.map((item: unknown) => capDepth(item, max, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, capDepth(item, max, depth + 1)]),
  );
}
