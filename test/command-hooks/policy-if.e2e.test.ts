import { afterEach, describe, expect, it } from "vitest";
import { attempt, bashPolicy, openPolicySession, type PolicySession } from "./policy-session.js";

let o: PolicySession | undefined;
afterEach(async () => {
  await o?.close();
  o = undefined;
});

describe("a deny scoped with `if` holds for compound commands", () => {
  it.each(["true && rm -rf victim", "cd .; rm -rf victim", "echo $(rm -rf victim)"])(
    "if: Bash(rm:*) denies %j",
    async (command) => {
      o = await openPolicySession({
        explicit: [
          bashPolicy({ type: "command", command: "echo no rm >&2; exit 2", if: "Bash(rm:*)" }),
        ],
      });
      const r = await attempt(o, command);
      expect(r.victimDeleted).toBe(false);
      expect(r.reports.map((x) => x.outcome)).toEqual(["denied"]);
    },
  );
});
