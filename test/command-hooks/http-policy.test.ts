import { describe, expect, it } from "vitest";
import { badUrlPatterns, refusedUrl } from "../../src/command-hooks/http-policy.js";

const allowed = (url: string, ...patterns: string[]) =>
  refusedUrl(url, { allowedHttpHookUrls: patterns }) === undefined;

describe("allowedHttpHookUrls", () => {
  it("no list allows every URL; an empty list allows none", () => {
    expect(refusedUrl("http://anything/x", {})).toBeUndefined();
    expect(allowed("http://127.0.0.1:8080/x")).toBe(false);
  });

  it("a pattern without a path allows every path of that origin, and nothing else", () => {
    expect(allowed("https://policy.example.com/v1/check", "https://policy.example.com")).toBe(true);
    expect(allowed("http://policy.example.com/v1/check", "https://policy.example.com")).toBe(false);
    expect(allowed("https://policy.example.com:8443/x", "https://policy.example.com")).toBe(false);
    expect(allowed("https://policy.example.com.evil.io/x", "https://policy.example.com")).toBe(
      false,
    );
  });

  it("* stands for any text in host, port and path", () => {
    expect(allowed("https://a.corp.example/hook", "https://*.corp.example/hook")).toBe(true);
    expect(allowed("https://a.corp.example/other", "https://*.corp.example/hook")).toBe(false);
    expect(allowed("http://localhost:9911/check", "http://localhost:*/check")).toBe(true);
    expect(allowed("http://localhost:9911/v2/check", "http://localhost:9911/v2/*")).toBe(true);
    expect(allowed("http://localhost:9911/v1/check", "http://localhost:9911/v2/*")).toBe(false);
    expect(allowed("http://x/y", "*")).toBe(true);
  });

  it("a pattern that is not a URL matches nothing, and is named", () => {
    expect(allowed("https://evil.com/x.example.com/", "*.example.com/*")).toBe(false);
    expect(allowed("https://a.example.com/x", "*.example.com/*")).toBe(false);
    expect(
      badUrlPatterns({ allowedHttpHookUrls: ["*.example.com/*", "*", "https://*.example.com"] }),
    ).toEqual(["*.example.com/*"]);
  });

  it("a refusal names the URL and the setting", () => {
    expect(refusedUrl("http://x/y", { allowedHttpHookUrls: [] })).toBe(
      "HTTP hook blocked: http://x/y does not match any pattern in allowedHttpHookUrls",
    );
  });
});
