import { describe, expect, it } from "vitest";
import { attempt, bashPolicy, usePolicySessions } from "./policy-session.js";

/** Tests with the same flags and operator files share an agent process, each in its own session. */
const open = usePolicySessions();

describe("a deny scoped with `if` holds for compound commands", () => {
  it.each(["true && rm -rf victim", "cd .; rm -rf victim", "echo $(rm -rf victim)"])(
    "if: Bash(rm:*) denies %j",
    async (command) => {
      const o = await open({
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
