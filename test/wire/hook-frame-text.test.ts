import { describe, expect, it } from "vitest";
import { HookFrameReader, hookFrameText } from "../../src/wire/hook-frame-text.js";

const input = {
  session_id: "s1",
  hook_event_name: "PreToolUse",
  tool_name: "Bash",
  tool_input: { command: 'echo "hi" \\ ünïcödé \u0001', nested: [1, { a: null }, true] },
};

function run(id: string | number, hookCallbackId: string, value: unknown = input): string {
  return hookFrameText({
    method: "_hooks/run",
    id,
    sessionId: "s1",
    hookCallbackId,
    toolUseId: "toolu_1",
    inputText: JSON.stringify(value),
  });
}

describe("hook frame text", () => {
  it("what the agent writes is exactly what JSON.stringify writes for the same frame", () => {
    const text = run("hook-1", "cb-1");
    expect(text).toBe(
      JSON.stringify({
        jsonrpc: "2.0",
        id: "hook-1",
        method: "_hooks/run",
        params: { sessionId: "s1", hookCallbackId: "cb-1", toolUseId: "toolu_1", input },
      }),
    );
  });

  it("reads back what JSON.parse reads, for runs, events and numeric ids", () => {
    const reader = new HookFrameReader();
    const lines = [
      run("hook-1", "cb-1"),
      run("hook-2", "cb-2"),
      run(7, "cb-3"),
      run(-12, "r1/PreToolUse:0:3:named"),
      hookFrameText({
        method: "_hooks/event",
        sessionId: "s1",
        hookCallbackId: "obs-1",
        inputText: JSON.stringify({ ...input, hook_event_name: "PostToolUse" }),
      }),
      run("hook-3", "cb-1", { other: "input" }),
      run("hook-4", "cb-1"),
    ];
    for (const line of lines) expect(reader.read(line)).toEqual(JSON.parse(line));
  });

  it("every frame gets its own input, even when the text repeats", () => {
    const reader = new HookFrameReader();
    const first = reader.read(run("hook-1", "cb-1")) as { params: { input: typeof input } };
    first.params.input.tool_input.command = "changed by a callback";
    first.params.input.tool_input.nested.push(false);
    const second = reader.read(run("hook-2", "cb-2")) as { params: { input: typeof input } };
    expect(second.params.input).toEqual(input);
    expect(second.params.input).not.toBe(first.params.input);
  });

  it("a __proto__ key in the input stays an own key, as JSON.parse keeps it", () => {
    const reader = new HookFrameReader();
    const value = JSON.parse('{"a":1,"__proto__":{"polluted":true}}') as unknown;
    for (const id of ["hook-1", "hook-2"]) {
      const line = run(id, "cb");
      const tricky = line.replace(JSON.stringify(input), JSON.stringify(value));
      const frame = reader.read(tricky) as { params: { input: Record<string, unknown> } };
      expect(frame).toEqual(JSON.parse(tricky));
      expect(Object.keys(frame.params.input)).toEqual(["a", "__proto__"]);
      expect(Object.getPrototypeOf(frame.params.input)).toBe(Object.prototype);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("leaves any other layout to the caller's parse, valid JSON or not", () => {
    const reader = new HookFrameReader();
    const good = run("hook-1", "cb-1");
    const others = [
      // Escapes in a field: the value is not its text.
      run("hook-\\u0041", "cb-1"),
      run("hook-1", 'cb-"1"'),
      good.replace('"jsonrpc":"2.0",', '"jsonrpc": "2.0",'),
      `${good} `,
      good.replace('"method":"_hooks/run"', '"method":"session/update"'),
      `${good.slice(0, -2)},"extra":1}}`,
      good.replace('"params":{', '"params":{"_meta":{},'),
      // An input that is not one JSON value, or that closes the frame early.
      good.replace(JSON.stringify(input), '{"a":1}},"x":{"b":2'),
      good.replace(JSON.stringify(input), "{"),
      good.slice(0, -1),
      "not json",
      "",
    ];
    for (const line of others) expect(reader.read(line)).toBeUndefined();
  });

  it("matches JSON.parse on many generated frames, or declines them", () => {
    const reader = new HookFrameReader();
    const strings = ["", "a", 'q"uote', "back\\slash", "tab\t", "ü", "\u2028", "x".repeat(40)];
    let read = 0;
    for (let i = 0; i < 400; i++) {
      const pick = <T>(list: readonly T[]): T => list[(i * 7 + list.length) % list.length] as T;
      const value = { k: pick(strings), n: i % 5 === 0 ? null : i, list: [pick(strings), i] };
      const line = hookFrameText({
        method: i % 3 === 0 ? "_hooks/event" : "_hooks/run",
        ...(i % 3 !== 0 && { id: i % 2 === 0 ? i : `hook-${i}`, toolUseId: pick(strings) }),
        sessionId: pick(strings),
        hookCallbackId: strings[i % strings.length] as string,
        inputText: JSON.stringify(i % 4 === 0 ? input : value),
      });
      const frame = reader.read(line);
      if (frame === undefined) continue;
      read++;
      expect(frame).toEqual(JSON.parse(line));
    }
    // Fields with escapes are declined; the rest are read.
    expect(read).toBeGreaterThan(100);
  });
});
