import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { childEnv, withholdVariable } from "../../src/commands/child-env.js";
import {
  groupAlive,
  processAlive as alive,
  ProcessGroups,
  terminateGroup,
} from "../../src/commands/process-group.js";

/** A group leader that starts a background grandchild and prints its pid. */
async function leaderWithGrandchild(script: string) {
  const child = spawn("sh", ["-c", script], {
    detached: true,
    stdio: ["ignore", "pipe", "ignore"],
  });
  const [chunk] = (await once(child.stdout, "data")) as [Buffer];
  const grandchild = Number(chunk.toString().trim());
  return { leader: child.pid!, grandchild, child };
}

describe("process groups", () => {
  it("terminating a group ends the grandchild a hook left in the background", async () => {
    const { leader, grandchild } = await leaderWithGrandchild("sleep 1000 & echo $!; wait");
    expect(alive(grandchild)).toBe(true);
    await terminateGroup(leader);
    await expect.poll(() => alive(grandchild)).toBe(false);
    expect(groupAlive(leader)).toBe(false);
  });

  it("a group that ignores SIGTERM is killed after the grace", async () => {
    const { leader, grandchild } = await leaderWithGrandchild(
      "trap '' TERM; sh -c 'trap \"\" TERM; sleep 1000' & echo $!; while :; do sleep 1; done",
    );
    await terminateGroup(leader, 200);
    await expect.poll(() => alive(grandchild)).toBe(false);
  });

  it("a session's groups all end when it terminates them", async () => {
    const groups = new ProcessGroups();
    const a = await leaderWithGrandchild("sleep 1000 & echo $!; wait");
    const b = await leaderWithGrandchild("sleep 1000 & echo $!; wait");
    groups.add(a.leader);
    groups.add(b.leader);
    await groups.terminateAll();
    expect(groups.size).toBe(0);
    await expect.poll(() => alive(a.grandchild) || alive(b.grandchild)).toBe(false);
  });
});

describe("child environment", () => {
  it("keeps every known key variable and withheld names out, and adds extras", () => {
    withholdVariable("MY_MODEL_KEY");
    const env = childEnv(
      { HOOKGATE_SESSION_ID: "s1" },
      {
        PATH: "/bin",
        OPENAI_API_KEY: "a",
        ANTHROPIC_API_KEY: "b",
        HOOKGATE_API_KEY: "c",
        MY_MODEL_KEY: "d",
      },
    );
    expect(env).toEqual({ PATH: "/bin", HOOKGATE_SESSION_ID: "s1" });
  });
});
