import { describe, expect, it } from "vitest";
import { readFrameHead } from "../../src/protocol/frame-head.js";
import { FrameLimiter, type OversizeFrame } from "../../src/protocol/frame-limit.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

/** Feeds `chunks` through the limit and returns what passed and what was reported. */
function through(max: number, chunks: string[]) {
  const reported: OversizeFrame[] = [];
  const limiter = new FrameLimiter(max, (f) => void reported.push(f));
  let passed = "";
  const decoder = new TextDecoder();
  const emit = (piece: Uint8Array) => (passed += decoder.decode(piece, { stream: true }));
  for (const chunk of chunks) limiter.push(bytes(chunk), emit);
  limiter.end(emit);
  return Promise.resolve({ passed, reported });
}

describe("the incoming frame limit", () => {
  it("passes lines up to the limit unchanged, however they are chunked", async () => {
    const { passed, reported } = await through(10, ["abc\n0123", "456789\nx", "y\n"]);
    expect(passed).toBe("abc\n0123456789\nxy\n");
    expect(reported).toEqual([]);
  });

  it("drops a longer line, reports its length and head, and keeps the lines around it", async () => {
    const long = `{"id":7,"method":"m","x":"${"a".repeat(40)}"}`;
    const { passed, reported } = await through(20, [
      "ok1\n",
      long.slice(0, 15),
      long.slice(15, 30),
      `${long.slice(30)}\nok2\n`,
    ]);
    expect(passed).toBe("ok1\nok2\n");
    expect(reported).toHaveLength(1);
    expect(reported[0]?.bytes).toBe(long.length);
    expect(readFrameHead(new TextDecoder().decode(reported[0]?.head))).toEqual({
      id: 7,
      method: "m",
    });
  });

  it("drops an oversize last line that has no newline", async () => {
    const { passed, reported } = await through(8, ["fine\n", "x".repeat(50)]);
    expect(passed).toBe("fine\n");
    expect(reported.map((f) => f.bytes)).toEqual([50]);
  });
});

describe("reading the head of a cut frame", () => {
  it("finds the top-level id and method, not ones nested in params", () => {
    expect(
      readFrameHead(
        '{"jsonrpc":"2.0","params":{"id":99,"method":"no"},"id":"a\\"b","method":"x/y","p',
      ),
    ).toEqual({ id: 'a"b', method: "x/y" });
  });

  it("reports nothing it could not read whole", () => {
    expect(readFrameHead('{"jsonrpc":"2.0","id":12')).toEqual({});
    expect(readFrameHead('{"params":{"text":"aaaa')).toEqual({});
    expect(readFrameHead("[1,2,3]")).toEqual({});
    expect(readFrameHead('{"id":null,"result":{')).toEqual({ id: null });
  });
});
