import { describe, expect, it } from "vitest";
import { systemPrompt } from "../../../src/model/system-prompt.js";
import { builtinTools } from "../../../src/tools/index.js";

const base = {
  cwd: "/work/project",
  roots: ["/work/project", "/work/shared-lib"],
  mode: "default",
  tools: builtinTools,
  now: new Date(2026, 10, 30, 23, 59),
};

describe("the system prompt", () => {
  it("names the workspace root, the extra directories and today's local date", () => {
    const prompt = systemPrompt(base);
    expect(prompt).toContain(
      "Workspace root: /work/project\nAdditional directories: /work/shared-lib",
    );
    expect(prompt).toContain("Today's date: 2026-11-30");
  });

  it("lists every tool by name with its first sentence", () => {
    const prompt = systemPrompt(base);
    for (const tool of builtinTools)
      expect(prompt).toMatch(new RegExp(`^- ${tool.name}: \\S`, "m"));
    expect(prompt).toContain(
      '- Glob: Finds files by glob pattern (e.g. "**/*.js", "src/**/*.{ts,tsx}") and returns',
    );
  });

  it("says a hook or the user may deny a call, and to adapt rather than retry", () => {
    const prompt = systemPrompt(base);
    expect(prompt).toContain("hooks that the user's editor registered");
    expect(prompt).toContain("Hook no-rm denied this Bash call");
    expect(prompt).toContain("do not repeat it unchanged");
  });

  it("follows the session mode", () => {
    expect(systemPrompt({ ...base, mode: "plan" })).toContain("Plan mode is read-only");
    expect(systemPrompt({ ...base, mode: "acceptEdits" })).toContain("Bash asks the user first");
    expect(systemPrompt({ ...base, roots: ["/work/project"] })).not.toContain(
      "Additional directories",
    );
  });
});
