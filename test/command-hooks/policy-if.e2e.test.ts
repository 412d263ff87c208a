import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  attempt,
  bashPolicy,
  openPolicySession,
  PolicyAgents,
  type PolicySession,
} from "./policy-session.js";

/** Tests with the same flags and operator files share an agent process, each in its own session. */
const agents = new PolicyAgents();
let o: PolicySession | undefined;
afterEach(async () => {
  await o?.close();
  o = undefined;
});
afterAll(() => agents.close());

describe("a deny scoped with `if` holds for compound commands", () => {
  it.each(["true && rm -rf victim", "cd .; rm -rf victim", "echo $(rm -rf victim)"])(
    "if: Bash(rm:*) denies %j",
    async (command) => {
      o = await openPolicySession(
        {
          explicit: [
            bashPolicy({ type: "command", command: "echo no rm >&2; exit 2", if: "Bash(rm:*)" }),
          ],
        },
        agents,
      );
      const r = await attempt(o, command);
      expect(r.victimDeleted).toBe(false);
      expect(r.reports.map((x) => x.outcome)).toEqual(["denied"]);
    },
  );
});
