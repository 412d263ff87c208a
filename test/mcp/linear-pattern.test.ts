import { RE2JS } from "re2js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { compileInputSchema, InputSchemas } from "../../src/mcp/input-schema.js";
import { MATCH_BUDGET, MAX_PATTERN_INSTRUCTIONS } from "../../src/mcp/linear-pattern.js";

afterEach(() => vi.restoreAllMocks());

const withPattern = (pattern: string) => ({
  type: "object",
  properties: { text: { type: "string", pattern } },
});

function usable(schema: unknown) {
  const compiled = compileInputSchema(schema);
  if (!compiled.ok) throw new Error(compiled.error);
  return compiled.schema.zod;
}

describe("an MCP schema's patterns", () => {
  it("are compiled by RE2 once per server, when the schema is listed: no call compiles one again", () => {
    const compile = vi.spyOn(RE2JS, "compile");
    const translated = RE2JS.translateRegExp("^(a+)+$");
    // The meta-schemas' own patterns are compiled too, once per process: count the server's.
    const compiles = () => compile.mock.calls.filter(([expr]) => expr === translated).length;
    const schemas = new InputSchemas();
    const prepared = schemas.prepare(withPattern("^(a+)+$"));
    if (!prepared.ok) throw new Error(prepared.error);
    expect(compiles()).toBe(1);
    for (const text of ["aaaa", `${"a".repeat(25)}!`, "aa"])
      prepared.schema.zod.safeParse({ text });
    expect(prepared.schema.zod.safeParse({ text: "aaa" }).success).toBe(true);
    expect(prepared.schema.zod.safeParse({ text: "aa!" }).success).toBe(false);
    // The pattern was matched by RE2 (the linear engine) all along: the one compile is RE2's.
    expect(compiles()).toBe(1);
  });

  it("whose RE2 program is too large to match in bounded time make the schema unusable, naming the size", () => {
    const compiled = compileInputSchema(withPattern("^(a{1,30}){1,30}$"));
    expect(compiled).toEqual({
      ok: false,
      error: `inputSchema is not valid JSON Schema: pattern "^(a{1,30}){1,30}$" is too large to match in bounded time (1863 RE2 instructions, at most ${MAX_PATTERN_INSTRUCTIONS})`,
    });
  });

  it("are matched within a budget: an argument that would overspend it is refused before matching", () => {
    const zod = usable(withPattern("^[a-z0-9-]{1,64}$"));
    // 131 instructions: 64 KiB of text is over the budget, a few KiB is not.
    expect(131 * 65_536).toBeGreaterThan(MATCH_BUDGET);
    const refused = zod.safeParse({ text: "a".repeat(65_536) });
    expect(refused.error?.issues).toEqual([
      expect.objectContaining({
        path: [],
        message: `matching 65536 characters against pattern "^[a-z0-9-]{1,64}$" would exceed hookgate's validation budget`,
      }),
    ]);
    expect(zod.safeParse({ text: "a".repeat(4096) }).error?.issues).toEqual([
      expect.objectContaining({
        path: ["text"],
        message: 'must match pattern "^[a-z0-9-]{1,64}$"',
      }),
    ]);
    expect(zod.safeParse({ text: "hookgate-1" }).success).toBe(true);
  });

  it("share one budget per validation, however many strings the argument holds", () => {
    const zod = usable({
      type: "object",
      additionalProperties: { type: "string", pattern: "^[a-z0-9-]{1,64}$" },
    });
    // Each string alone is within the budget; together they are not.
    const many = Object.fromEntries(
      Array.from({ length: 8 }, (_, i) => [`k${i}`, "a".repeat(4000)]),
    );
    expect(zod.safeParse(many).error?.issues[0]?.message).toMatch(/validation budget/);
    expect(zod.safeParse({ k0: "a".repeat(4000) }).error?.issues[0]?.message).toMatch(
      /must match pattern/,
    );
  });
});
