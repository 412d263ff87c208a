import { describe, expect, it } from "vitest";
import { keepInForce } from "../../src/command-hooks/settings-removals.js";
import { loadCommandHooks } from "../../src/command-hooks/settings.js";

const PROJECT = "/p/.claude/settings.json";

/** The settings of a project file holding `data` (the only file read). */
const load = (data: unknown) =>
  loadCommandHooks({
    cwd: "/p",
    home: "/h",
    sources: ["project"],
    explicit: [],
    readText: (path) => {
      if (path === PROJECT) return JSON.stringify(data);
      throw Object.assign(new Error("ENOENT"), { code: "ENOENT" });
    },
  });

const guard = (matcher: string, ifRule?: string) => ({
  hooks: {
    PreToolUse: [
      { matcher, hooks: [{ type: "command", command: "guard", ...(ifRule && { if: ifRule }) }] },
    ],
  },
});

describe("keepInForce: what a reload would turn off stays on", () => {
  it("a handler whose matcher narrows is kept beside the narrower one", () => {
    const { settings, kept } = keepInForce(load(guard("Bash|Write")), load(guard("Bash")));
    expect(kept).toEqual(["hook project:.claude/settings.json#PreToolUse[0].hooks[0]"]);
    expect(settings.commands.PreToolUse?.map((g) => g.matcher)).toEqual(["Bash", "Bash|Write"]);
  });

  it("a handler whose `if` rule changes is kept", () => {
    const { kept } = keepInForce(
      load(guard("Bash", "Bash(rm:*)")),
      load(guard("Bash", "Bash(x:*)")),
    );
    expect(kept).toHaveLength(1);
  });

  it("the same handler moved to another place is no removal", () => {
    const moved = {
      hooks: { PreToolUse: [{ matcher: "Read", hooks: [] }, ...guard("Bash").hooks.PreToolUse] },
    };
    expect(keepInForce(load(guard("Bash")), load(moved)).kept).toEqual([]);
  });

  it("a deny or ask rule dropped is kept; an allow rule dropped goes", () => {
    const before = load({
      permissions: { deny: ["Bash(rm:*)"], ask: ["Read"], allow: ["Bash(ls:*)"] },
    });
    const { settings, kept } = keepInForce(before, load({ permissions: { allow: ["Write"] } }));
    expect(kept).toEqual(["deny rule Bash(rm:*)", "ask rule Read"]);
    expect(settings.policy.rules.map((r) => `${r.behavior} ${r.rule.text}`)).toEqual([
      "allow Write",
      "deny Bash(rm:*)",
      "ask Read",
    ]);
  });

  it("disableAllHooks turning a file's hooks off keeps them on", () => {
    const { settings, kept } = keepInForce(
      load(guard("Bash")),
      load({ ...guard("Bash"), disableAllHooks: true }),
    );
    expect(kept).toHaveLength(1);
    expect(settings.commands.PreToolUse?.[0]?.handlers).toHaveLength(1);
  });

  describe("after a change to the managed file", () => {
    const MANAGED = "/m/managed-settings.json";
    /** Project and managed files holding `project` and `managed`. */
    const both = (project: unknown, managed: unknown) =>
      loadCommandHooks({
        cwd: "/p",
        home: "/h",
        sources: ["project"],
        explicit: [],
        managed: MANAGED,
        readText: (path) => {
          if (path === PROJECT) return JSON.stringify(project);
          if (path === MANAGED) return JSON.stringify(managed);
          throw Object.assign(new Error("ENOENT"), { code: "ENOENT" });
        },
      });
    const texts = (s: ReturnType<typeof both>) =>
      s.policy.rules.map((r) => `${r.behavior} ${r.rule.text}`);

    it("the operator's own removal applies; what the project file had in force is still kept", () => {
      const before = both(
        { permissions: { deny: ["Bash(rm:*)"] } },
        { permissions: { deny: ["Read"] } },
      );
      const { settings } = keepInForce(before, both({}, {}), true);
      expect(texts(settings)).toEqual(["deny Bash(rm:*)"]);
    });

    it("allowManagedPermissionRulesOnly turns the project's rules off", () => {
      const before = both({ permissions: { deny: ["Bash(rm:*)"] } }, {});
      const after = both({}, { allowManagedPermissionRulesOnly: true });
      expect(texts(keepInForce(before, after, true).settings)).toEqual([]);
    });
  });
});
