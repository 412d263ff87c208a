import { describe, expect, it } from "vitest";
import { readJsonLine } from "../../src/shared/json-line.js";

describe("readJsonLine", () => {
  it("reads a line as the SDK's ndJsonStream does", () => {
    expect(readJsonLine("  \r")).toBeUndefined();
    expect(readJsonLine(' {"jsonrpc":"2.0","id":1,"result":{}}\r')).toEqual({
      frame: { jsonrpc: "2.0", id: 1, result: {} },
    });
    const codes = ["{nope", "[1,2]", "42", "null"].map((line) => {
      const read = readJsonLine(line);
      return read && "reply" in read ? read.reply : undefined;
    });
    expect(codes).toEqual([
      { jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: -32700 }) },
      {
        jsonrpc: "2.0",
        id: null,
        error: expect.objectContaining({
          code: -32600,
          message: "Invalid request: JSON-RPC batches are not supported",
        }),
      },
      { jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: -32600 }) },
      { jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: -32600 }) },
    ]);
  });
});
