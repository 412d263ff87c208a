/** What the start of a frame says about it, read without parsing the rest. */
export interface FrameHead {
  /** The top-level `id`, when it appeared (a string, an integer or null). */
  id?: string | number | null;
  /** The top-level `method`, when it appeared. */
  method?: string;
}

const WHITESPACE = /\s*/y;
const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * Reads the top-level `id` and `method` from the first bytes of a JSON object, skipping any
 * other member however deep. Stops quietly where the text ends or stops making sense: the
 * head of an oversize frame is cut anywhere.
 */
export function readFrameHead(text: string): FrameHead {
  const head: FrameHead = {};
  let at = skipSpace(text, 0);
  if (text[at] !== "{") return head;
  at++;
  for (;;) {
    at = skipSpace(text, at);
    const key = readString(text, at);
    if (key === undefined) return head;
    at = skipSpace(text, key.end);
    if (text[at] !== ":") return head;
    at = skipSpace(text, at + 1);
    if (key.value === "id" || key.value === "method") {
      const value = readScalar(text, at);
      if (value === undefined) return head;
      if (key.value === "method" && typeof value.value === "string") head.method = value.value;
      if (key.value === "id" && value.value !== true && value.value !== false)
        head.id = value.value;
      at = value.end;
    } else {
      const end = skipValue(text, at);
      if (end === undefined) return head;
      at = end;
    }
    at = skipSpace(text, at);
    if (text[at] !== ",") return head;
    at++;
  }
}

function skipSpace(text: string, at: number): number {
  WHITESPACE.lastIndex = at;
  WHITESPACE.exec(text);
  return WHITESPACE.lastIndex;
}

/** A complete JSON string starting at `at`, decoded. */
function readString(text: string, at: number): { value: string; end: number } | undefined {
  if (text[at] !== '"') return undefined;
  let i = at + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === "\\") i += 2;
    else if (c === '"') {
      try {
        const value: unknown = JSON.parse(text.slice(at, i + 1));
        return typeof value === "string" ? { value, end: i + 1 } : undefined;
      } catch {
        return undefined;
      }
    } else i++;
  }
  return undefined;
}

function readScalar(
  text: string,
  at: number,
): { value: string | number | boolean | null; end: number } | undefined {
  if (text[at] === '"') return readString(text, at);
  for (const [word, value] of [
    ["null", null],
    ["true", true],
    ["false", false],
  ] as const) {
    if (text.startsWith(word, at)) return { value, end: at + word.length };
  }
  NUMBER.lastIndex = at;
  const match = NUMBER.exec(text);
  // A number cut by the end of the head may be missing digits.
  if (!match || NUMBER.lastIndex >= text.length) return undefined;
  return { value: Number(match[0]), end: NUMBER.lastIndex };
}

/** The end of the value starting at `at` (object, array or scalar), if the text holds all of it. */
function skipValue(text: string, at: number): number | undefined {
  let depth = 0;
  let i = at;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      const string = readString(text, i);
      if (string === undefined) return undefined;
      i = string.end;
    } else if (c === "{" || c === "[") {
      depth++;
      i++;
    } else if (c === "}" || c === "]") {
      if (depth === 0) return i;
      depth--;
      i++;
      if (depth === 0) return i;
    } else if (c === "," && depth === 0) {
      return i;
    } else i++;
  }
  return undefined;
}
