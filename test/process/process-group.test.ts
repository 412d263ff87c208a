import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it, vi } from "vitest";
import { ChildEnvPolicy } from "../../src/process/child-env.js";
import {
  groupAlive,
  processAlive as alive,
  ProcessGroups,
  terminateGroup,
} from "../../src/process/process-group.js";

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

/** The pid of a group leader that has exited and been reaped, its group gone with it. */
async function finishedLeader(): Promise<number> {
  const child = spawn("sh", ["-c", "exit 0"], { detached: true, stdio: "ignore" });
  await once(child, "exit");
  return child.pid!;
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

  it("a group whose processes all ended on their own is dropped when the next group is added", async () => {
    const groups = new ProcessGroups();
    const ended = await finishedLeader();
    groups.add(ended);
    expect(groups.size).toBe(1);
    const running = spawn("sleep", ["1000"], { detached: true, stdio: "ignore" });
    await once(running, "spawn");
    groups.add(running.pid!);
    expect(groups.size).toBe(1);
    await groups.terminateAll();
    await expect.poll(() => alive(running.pid!)).toBe(false);
  });

  it("closing never signals a group that ended on its own, whose id may be someone else's now", async () => {
    const groups = new ProcessGroups();
    const ended = await finishedLeader();
    groups.add(ended);
    const kill = vi.spyOn(process, "kill");
    try {
      await groups.terminateAll(100);
      const signalled = kill.mock.calls.filter(([pid, signal]) => pid === -ended && signal !== 0);
      expect(signalled).toEqual([]);
      expect(groups.size).toBe(0);
    } finally {
      kill.mockRestore();
    }
  });
});

describe("child environment", () => {
  it("keeps every known key variable and withheld names out, and adds extras", () => {
    const policy = new ChildEnvPolicy();
    policy.withhold("MY_MODEL_KEY");
    const env = policy.env(
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
