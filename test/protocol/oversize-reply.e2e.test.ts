import { afterEach, describe, expect, it } from "vitest";
import { textOf } from "../agent/setup.js";
import { attempt, openPolicySession, type PolicySession } from "../command-hooks/policy-session.js";

let o: PolicySession | undefined;
afterEach(async () => {
  await o?.close();
  o = undefined;
});

/** Within the 64 KiB frame limit these tests set; a reply quoting it thrice is past it. */
const padded = `rm -rf victim # ${"x".repeat(40_000)}`;

const echoing = (decision: "deny" | "allow") => (params: { input: unknown }) => ({
  decision,
  reason: `policy: ${JSON.stringify(params.input).repeat(3)}`,
});

describe("a client callback whose reply passes the frame limit", () => {
  it("still denies when its reply says deny (quoting the padded input)", async () => {
    o = await openPolicySession({
      args: ["--max-frame-bytes", "65536"],
      client: { hooks: { policy: echoing("deny") } },
      meta: {
        hooks: { PreToolUse: [{ matcher: "Bash", hookCallbackIds: ["policy"], timeout: 300 }] },
      },
    });
    const r = await attempt(o, padded);
    expect(r.victimDeleted).toBe(false);
    expect(r.reports).toEqual([
      expect.objectContaining({ kind: "callback", outcome: "denied", truncated: true }),
    ]);
    expect(textOf(r.done)).toMatch(/^Hook denied: policy: \{/);
  });

  it("a reply that is not a deny cannot be read whole: a transport_error, failing as the group says", async () => {
    o = await openPolicySession({
      args: ["--max-frame-bytes", "65536"],
      client: { hooks: { policy: echoing("allow") } },
      meta: {
        hooks: {
          PreToolUse: [
            { matcher: "Bash", hookCallbackIds: ["policy"], timeout: 300, onFailure: "deny" },
          ],
        },
      },
    });
    const r = await attempt(o, padded);
    expect(r.victimDeleted).toBe(false);
    expect(r.reports).toEqual([
      expect.objectContaining({ outcome: "transport_error", truncated: true }),
    ]);
  });
});
