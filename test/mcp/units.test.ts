import { describe, expect, it } from "vitest";
import { mapResult } from "../../src/mcp/content.js";
import { compileInputSchema } from "../../src/mcp/input-schema.js";
import { assignNames, MAX_TOOL_NAME, mcpToolName, sanitize } from "../../src/mcp/names.js";
import { kindOf } from "../../src/mcp/tool.js";
import { modePolicy } from "../../src/session/modes.js";

describe("MCP tool names", () => {
  it("are mcp__<server>__<tool> with characters models reject replaced by _", () => {
    expect(mcpToolName("github", "create_issue")).toBe("mcp__github__create_issue");
    expect(mcpToolName("my server", "a.b/c")).toBe("mcp__my_server__a_b_c");
    expect(sanitize("")).toBe("_");
  });

  it("past 64 characters keep their head and a hash of the whole, so long names stay apart", () => {
    const a = mcpToolName("srv", `${"x".repeat(80)}_one`);
    const b = mcpToolName("srv", `${"x".repeat(80)}_two`);
    expect(a).toHaveLength(MAX_TOOL_NAME);
    expect(b).toHaveLength(MAX_TOOL_NAME);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[a-zA-Z0-9_-]+$/);
  });

  it("that collide get _2, _3 in listing order, and never take a built-in's name", () => {
    const requests = [
      { server: "s", tool: "a.b" },
      { server: "s", tool: "a_b" },
      { server: "s", tool: "a b" },
      { server: "t", tool: "x" },
    ];
    const first = assignNames(requests, ["mcp__t__x"]);
    expect(first.names).toEqual(["mcp__s__a_b", "mcp__s__a_b_2", "mcp__s__a_b_3", "mcp__t__x_2"]);
    expect(first.collisions.map((c) => c.given)).toEqual([
      "mcp__s__a_b_2",
      "mcp__s__a_b_3",
      "mcp__t__x_2",
    ]);
    expect(assignNames(requests, ["mcp__t__x"])).toEqual(first);
  });
});

describe("MCP input schemas", () => {
  it("validate arguments exactly as the JSON Schema says, naming the field", () => {
    const compiled = compileInputSchema({
      type: "object",
      properties: { text: { type: "string", maxLength: 3 }, n: { type: "integer" } },
      required: ["text"],
      additionalProperties: false,
    });
    if (!compiled.ok) throw new Error(compiled.error);
    const { zod } = compiled.schema;
    expect(zod.safeParse({ text: "hi" }).success).toBe(true);
    const bad = zod.safeParse({ text: "long", n: 1.5 });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.path.join("."))).toEqual(["text", "n"]);
    expect(zod.safeParse({ text: "hi", extra: 1 }).success).toBe(false);
    expect(zod.safeParse({}).success).toBe(false);
  });

  it("that are not valid JSON Schema are refused with a reason, never thrown", () => {
    const cases: unknown[] = [
      { type: "object", properties: { x: { type: "banana" } } },
      { type: "object", properties: 5 },
      { type: "object", properties: { x: { type: "string", pattern: "((" } } },
      { type: "string" },
      "object",
      null,
    ];
    for (const schema of cases) {
      const compiled = compileInputSchema(schema);
      expect(compiled.ok, JSON.stringify(schema)).toBe(false);
      if (!compiled.ok) expect(compiled.error).toMatch(/inputSchema/);
    }
  });
});

describe("MCP results", () => {
  it("cap text for the model, the client and the hooks", () => {
    const mapped = mapResult({ content: [{ type: "text", text: "y".repeat(200_000) }] });
    expect(mapped.output.length).toBeLessThan(31_000);
    expect(mapped.output).toContain("[output truncated: 200000 characters");
    expect(JSON.stringify(mapped.content).length).toBeLessThan(31_000);
    expect(JSON.stringify(mapped.response).length).toBeLessThan(31_000);
  });

  it("too large an image becomes a note; structured content stands in for empty content", () => {
    const image = mapResult({
      content: [{ type: "image", data: "A".repeat(2 * 1024 * 1024), mimeType: "image/png" }],
    });
    expect(image.content).toEqual([
      {
        type: "content",
        content: {
          type: "text",
          text: "[image image/png] (2097152 base64 characters, too large to show)",
        },
      },
    ]);
    const structured = mapResult({ content: [], structuredContent: { ok: true } });
    expect(structured.output).toBe('{"ok":true}');
  });
});

describe("permission for MCP tools", () => {
  const mcp = (readOnlyHint: boolean) => ({
    mutating: !readOnlyHint,
    kind: readOnlyHint ? "read" : "other",
    external: { readOnlyHint },
  });

  it("asks in default and acceptEdits, whatever the server's hints", () => {
    expect(modePolicy("default", mcp(true))).toBe("ask");
    expect(modePolicy("default", mcp(false))).toBe("ask");
    expect(modePolicy("acceptEdits", mcp(false))).toBe("ask");
    expect(modePolicy("acceptEdits", mcp(true))).toBe("ask");
  });

  it("in plan mode refuses all but readOnlyHint tools, which still ask; bypass allows", () => {
    expect(modePolicy("plan", mcp(false))).toBe("refuse");
    expect(modePolicy("plan", mcp(true))).toBe("ask");
    expect(modePolicy("bypassPermissions", mcp(false))).toBe("allow");
  });

  it("maps annotations to ACP kinds where they fit", () => {
    expect(kindOf({ readOnlyHint: true })).toBe("read");
    expect(kindOf({ destructiveHint: true })).toBe("delete");
    expect(kindOf(undefined)).toBe("other");
  });
});

describe("MCP input schema dialects", () => {
  const compile = (schema: Record<string, unknown>) => {
    const compiled = compileInputSchema(schema);
    if (!compiled.ok) throw new Error(compiled.error);
    return compiled.schema.zod;
  };

  it("2020-12 (declared or not) reads prefixItems; draft-07 and 2019-09 are read as declared", () => {
    const tuple = { type: "array", prefixItems: [{ type: "string" }], items: false };
    for (const $schema of [undefined, "https://json-schema.org/draft/2020-12/schema"]) {
      const zod = compile({
        ...($schema && { $schema }),
        type: "object",
        properties: { t: tuple },
      });
      expect(zod.safeParse({ t: ["x"] }).success).toBe(true);
      expect(zod.safeParse({ t: ["x", 1] }).success).toBe(false);
    }
    const draft7 = compile({
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { n: { type: "integer", exclusiveMinimum: 0 } },
    });
    expect(draft7.safeParse({ n: 0 }).success).toBe(false);
    expect(draft7.safeParse({ n: 1 }).success).toBe(true);
    const draft2019 = compile({
      $schema: "https://json-schema.org/draft/2019-09/schema",
      type: "object",
      properties: { s: { type: "string", format: "email" } },
    });
    expect(draft2019.safeParse({ s: "not an email" }).success).toBe(false);
  });

  it("an unknown $schema is refused with a reason", () => {
    const compiled = compileInputSchema({ $schema: "http://example.com/mine", type: "object" });
    expect(compiled).toEqual({
      ok: false,
      error: 'inputSchema: unsupported $schema "http://example.com/mine"',
    });
  });
});
