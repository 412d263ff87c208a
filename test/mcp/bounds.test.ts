import { describe, expect, it } from "vitest";
import { CoalescedTask } from "../../src/mcp/coalesce.js";
import { compileInputSchema, InputSchemas } from "../../src/mcp/input-schema.js";
import { LineReader } from "../../src/mcp/line-reader.js";
import { schemaPatterns } from "../../src/mcp/schema-patterns.js";

describe("a coalesced task", () => {
  it("runs once more for any number of requests made during a run, the runs spaced apart", async () => {
    const starts: number[] = [];
    let release!: () => void;
    const task = new CoalescedTask(
      async () => {
        starts.push(performance.now());
        if (starts.length === 1) await new Promise<void>((r) => (release = r));
      },
      100,
      new AbortController().signal,
    );
    task.request();
    for (let i = 0; i < 10_000; i++) task.request();
    release();
    await task.idle();
    expect(starts).toHaveLength(2);
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(99);
  });

  it("starts nothing once aborted, and drops a run waiting for its turn", async () => {
    const controller = new AbortController();
    let runs = 0;
    const task = new CoalescedTask(async () => void runs++, 60_000, controller.signal);
    task.request();
    await task.idle();
    task.request();
    controller.abort();
    await task.idle();
    task.request();
    await task.idle();
    expect(runs).toBe(1);
  });
});

describe("reading a server's stdout in lines", () => {
  it("splits on newlines across chunks", () => {
    const reader = new LineReader(100);
    expect(reader.push(Buffer.from('{"a":1}\n{"b"'))).toEqual([{ text: '{"a":1}' }]);
    expect(reader.push(Buffer.from(':2}\n\n{"c":3}\n'))).toEqual([
      { text: '{"b":2}' },
      { text: "" },
      { text: '{"c":3}' },
    ]);
  });

  it("past the cap keeps only the line's edges and its length, then reads on", () => {
    const reader = new LineReader(1000);
    const head = '{"jsonrpc":"2.0","id":7,"result":"';
    expect(reader.push(Buffer.from(head))).toEqual([]);
    for (let i = 0; i < 100; i++) expect(reader.push(Buffer.alloc(64 * 1024, "x"))).toEqual([]);
    const lines = reader.push(Buffer.from('"}\n{"ok":true}\n'));
    expect(lines).toHaveLength(2);
    const [over, next] = lines;
    expect(over).toEqual({
      oversized: {
        bytes: head.length + 100 * 64 * 1024 + 2,
        head: expect.stringMatching(/^\{"jsonrpc":"2\.0","id":7,"result":"x+$/),
        tail: expect.stringMatching(/^x+"\}$/),
      },
    });
    expect(next).toEqual({ text: '{"ok":true}' });
  });
});

describe("schema patterns", () => {
  it("are found wherever a validator applies them, and only there", () => {
    const patterns = schemaPatterns({
      type: "object",
      properties: {
        a: { type: "string", pattern: "^a$" },
        pattern: { type: "string", default: "not(" },
        list: { type: "array", items: { pattern: "^i$" }, prefixItems: [{ pattern: "^p$" }] },
      },
      patternProperties: { "^x-": { anyOf: [{ pattern: "^y$" }] } },
      $defs: { d: { pattern: "^d$" } },
      const: { pattern: "(?=ignored)" },
    });
    expect(patterns.sort()).toEqual(["^a$", "^d$", "^i$", "^p$", "^x-", "^y$"]);
  });

  it("run in linear time: a catastrophic pattern answers at once", () => {
    const compiled = compileInputSchema({
      type: "object",
      properties: { text: { type: "string", pattern: "^(a+)+$" } },
    });
    if (!compiled.ok) throw new Error(compiled.error);
    const result = compiled.schema.zod.safeParse({ text: `${"a".repeat(5000)}!` });
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ path: ["text"], message: 'must match pattern "^(a+)+$"' }),
    ]);
    expect(compiled.schema.zod.safeParse({ text: "aaaa" }).success).toBe(true);
  });

  it("that RE2 cannot run in linear time make the schema unusable, with RE2's reason", () => {
    for (const schema of [
      { type: "object", properties: { x: { type: "string", pattern: "(?=a)b" } } },
      { type: "object", patternProperties: { "(a)\\1": {} } },
    ]) {
      const compiled = compileInputSchema(schema);
      expect(compiled).toEqual({
        ok: false,
        error: expect.stringMatching(/^inputSchema is not valid JSON Schema: error parsing regexp/),
      });
    }
  });

  it("are kept apart: two patterns of one server never share a compiled expression", () => {
    const compiled = compileInputSchema({
      type: "object",
      properties: { a: { pattern: "^a$" }, b: { pattern: "^b$" } },
    });
    if (!compiled.ok) throw new Error(compiled.error);
    expect(compiled.schema.zod.safeParse({ a: "a", b: "b" }).success).toBe(true);
    expect(compiled.schema.zod.safeParse({ a: "b", b: "b" }).success).toBe(false);
  });
});

describe("a server's input schemas", () => {
  it("are prepared once per distinct schema and compiled on first use", () => {
    const schemas = new InputSchemas();
    const schema = { type: "object", properties: { n: { type: "integer" } } };
    const first = schemas.prepare(schema);
    expect(schemas.prepare(structuredClone(schema))).toBe(first);
    expect(schemas.size).toBe(1);
    expect(schemas.prepare({ ...schema, required: ["n"] })).not.toBe(first);
    expect(schemas.size).toBe(2);
  });

  it("a $ref to a dialect's meta-schema resolves (a tool that takes a JSON Schema)", () => {
    const compiled = compileInputSchema({
      type: "object",
      properties: { schema: { $ref: "https://json-schema.org/draft/2020-12/schema" } },
    });
    if (!compiled.ok) throw new Error(compiled.error);
    expect(compiled.schema.zod.safeParse({ schema: { type: "string" } }).success).toBe(true);
    expect(compiled.schema.zod.safeParse({ schema: { type: 7 } }).success).toBe(false);
  });

  it("a $ref that resolves nowhere fails the call that uses it, naming why", () => {
    const compiled = compileInputSchema({
      type: "object",
      properties: { x: { $ref: "#/$defs/missing" } },
    });
    if (!compiled.ok) throw new Error(compiled.error);
    const result = compiled.schema.zod.safeParse({ x: 1 });
    expect(result.error?.issues[0]?.message).toMatch(
      /^the server's inputSchema cannot be used: can't resolve reference/,
    );
  });
});
