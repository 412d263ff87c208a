import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  bin: Record<string, string>;
};

describe("the published package", () => {
  it("resolves its own exports by name, as a consumer would", async () => {
    const root = await import("hookgate");
    expect(typeof root.createAgentApp).toBe("function");
    expect(root.HOOK_RUN_METHOD).toBe("_hooks/run");
    const clientLib = await import("hookgate/client");
    expect(typeof clientLib.HookRouter).toBe("function");
  });

  it("ships an executable bin", () => {
    const bin = readFileSync(new URL(`../${pkg.bin.hookgate}`, import.meta.url), "utf8");
    expect(bin.startsWith("#!/usr/bin/env node")).toBe(true);
  });
});
