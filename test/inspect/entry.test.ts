import { describe, expect, it } from "vitest";
import {
  ENTRY_CODE_LIFETIME_MS,
  EntryCodes,
  readCookie,
  tokenCookie,
} from "../../src/inspect/entry.js";

describe("one-time entry codes", () => {
  it("a code opens the page once; its second use is told apart from a code never issued", () => {
    const codes = new EntryCodes();
    const code = codes.issue();
    expect(codes.redeem(code)).toBe("redeemed");
    expect(codes.redeem(code)).toBe("spent");
    expect(codes.redeem("made-up")).toBe("unknown");
  });

  it("a code nobody used is dead after 60 s", () => {
    let now = 1_000;
    const codes = new EntryCodes(() => now);
    const late = codes.issue();
    const inTime = codes.issue();
    now += ENTRY_CODE_LIFETIME_MS;
    expect(codes.redeem(inTime)).toBe("redeemed");
    now += 1;
    expect(codes.redeem(late)).toBe("expired");
    expect(codes.redeem(late)).toBe("unknown");
  });

  it("the token's cookie is HttpOnly and SameSite=Strict, named per port, and read back by name", () => {
    const cookie = tokenCookie(43117, "s3cret");
    expect(cookie).toBe("hookgate_inspect_43117=s3cret; HttpOnly; SameSite=Strict; Path=/");
    const header = "other=1; hookgate_inspect_43118=no; hookgate_inspect_43117=s3cret";
    expect(readCookie(header, "hookgate_inspect_43117")).toBe("s3cret");
    expect(readCookie(undefined, "hookgate_inspect_43117")).toBeUndefined();
  });
});
