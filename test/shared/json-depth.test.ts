import { describe, expect, it } from "vitest";
import { jsonTextDepth, MAX_TOOL_INPUT_DEPTH, tooDeep } from "../../src/shared/json-depth.js";

describe("tool input depth", () => {
  it("brackets inside strings, escaped quotes included, do not count as nesting", () => {
    const command = 'if [[ -f "a" ]]; then echo "{\\"x\\": [[1]]}"; fi';
    const text = JSON.stringify({ command, more: { list: [1, [2]] } });
    expect(jsonTextDepth(text)).toBe(4);
    expect(tooDeep(text)).toBeUndefined();
  });

  it("one level past the limit is refused, as text or as a parsed value, naming the limit", () => {
    const text = `${"[".repeat(MAX_TOOL_INPUT_DEPTH + 1)}${"]".repeat(MAX_TOOL_INPUT_DEPTH + 1)}`;
    expect(tooDeep(text)).toContain(`nested 65 levels deep, deeper than the 64-level limit`);
    expect(tooDeep(JSON.parse(text))).toContain("deeper than the 64-level limit");
    const atLimit = text.slice(1, -1);
    expect(tooDeep(atLimit)).toBeUndefined();
    expect(tooDeep(JSON.parse(atLimit))).toBeUndefined();
  });
});
