import { describe, expect, it } from "vitest";
import { CappedOutput, formatBytes, utf8Head } from "../../src/process/capped-output.js";

describe("capped output", () => {
  it("keeps every chunk up to the cap and reports the first byte past it", () => {
    const out = new CappedOutput(6);
    expect(out.add(Buffer.from("abc"))).toBe(true);
    expect(out.add(Buffer.from("def"))).toBe(true);
    expect(out.add(Buffer.from("g"))).toBe(false);
    expect(out.add(Buffer.from("h"))).toBe(false);
    expect(out.text()).toBe("abcdef");
  });

  it("never keeps part of a character that straddles the cap", () => {
    // "€" is 3 bytes, "😀" is 4.
    expect(utf8Head(Buffer.from("a€b"), 3)).toBe("a");
    expect(utf8Head(Buffer.from("a€b"), 4)).toBe("a€");
    expect(utf8Head(Buffer.from("😀😀"), 7)).toBe("😀");
    const out = new CappedOutput(5);
    out.add(Buffer.from("ab"));
    out.add(Buffer.from("c😀"));
    expect(out.text()).toBe("abc");
  });

  it("names sizes in KiB when they are whole", () => {
    expect(formatBytes(64 * 1024)).toBe("64 KiB");
    expect(formatBytes(100)).toBe("100 bytes");
  });
});
