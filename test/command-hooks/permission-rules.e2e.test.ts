import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { textOf } from "../agent/setup.js";
import { runCli } from "../helpers/run-cli.js";
import { attempt, bashPolicy, openPolicySession, type PolicySession } from "./policy-session.js";

let o: PolicySession | undefined;
afterEach(async () => {
  await o?.close();
  o = undefined;
});

/** A command hook that allows every Bash call, in Claude Code's shape. */
const allowAll = bashPolicy({
  type: "command",
  command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'`,
});

/** A command hook that denies every Bash call. */
const denyAll = bashPolicy({ type: "command", command: "echo denied by policy >&2; exit 2" });

// The policy is what these tests are about: an agent in this process reads the same files.
// One test runs the real binary, which takes them from --settings and --managed-settings.
describe("permission rules in settings files", () => {
  it("a deny rule blocks the call, and a hook's allow cannot lift it", async () => {
    o = await openPolicySession({
      explicit: [{ ...allowAll, permissions: { deny: ["Bash(rm:*)"] } }],
      inProcess: true,
    });
    expect(o.settings).toEqual([expect.objectContaining({ source: "explicit", rules: 1 })]);
    const r = await attempt(o, "rm -rf victim");
    expect(r.victimDeleted).toBe(false);
    expect(r.done?.status).toBe("failed");
    expect(textOf(r.done)).toBe(
      "Permission to use Bash with command rm -rf victim has been denied.",
    );
    expect(r.reports).toEqual([expect.objectContaining({ kind: "command", outcome: "proceeded" })]);
  });

  it("a deny rule sees the rm behind a harmless first command", async () => {
    o = await openPolicySession({
      explicit: [{ permissions: { deny: ["Bash(rm:*)"] } }],
      inProcess: true,
    });
    expect((await attempt(o, "echo hi && rm -rf victim")).victimDeleted).toBe(false);
  });
});

describe("managed settings, above --settings", () => {
  it("a managed deny rule beats a --settings allow rule and hook, over stdio", async () => {
    o = await openPolicySession({
      explicit: [{ ...allowAll, permissions: { allow: ["Bash"] } }],
      managed: { permissions: { deny: ["Bash(rm:*)"] } },
    });
    expect((await attempt(o, "rm -rf victim")).victimDeleted).toBe(false);
  });

  it("allowManagedHooksOnly turns --settings' hooks off, and says so", async () => {
    o = await openPolicySession({
      explicit: [denyAll],
      managed: { allowManagedHooksOnly: true },
      inProcess: true,
    });
    const explicit = o.settings?.find((r) => r.source === "explicit");
    expect(explicit?.skipped).toEqual([expect.stringMatching(/^allowManagedHooksOnly/)]);
    expect((await attempt(o, "rm -rf victim")).victimDeleted).toBe(true);
  });

  it("disableAllHooks in --settings leaves managed hooks on", async () => {
    o = await openPolicySession({
      explicit: [{ disableAllHooks: true }],
      managed: denyAll,
      inProcess: true,
    });
    expect((await attempt(o, "rm -rf victim")).victimDeleted).toBe(false);
  });

  it("a missing --managed-settings file: exit 2, one line naming it", async () => {
    const path = join(tmpdir(), "hookgate-no-such-managed.json");
    const { code, stderr } = await runCli("--managed-settings", path);
    expect(code).toBe(2);
    expect(stderr).toBe(`hookgate: settings file ${path}: not found\n`);
  });
});
