import { existsSync } from "node:fs";
import { join } from "node:path";
import { methods } from "@agentclientprotocol/sdk";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { waitUntil } from "../helpers/wait.js";
import { startStdio, toolLine, type Session } from "./setup.js";

let s: Session | undefined;
afterEach(async () => {
  await s?.h.close();
  s = undefined;
});

/** One agent logging at debug for the gated turn and the stdout check, which read it apart. */
let shared: Promise<Session> | undefined;
afterAll(async () => (await shared)?.h.close());
const debugAgent = () =>
  (shared ??= startStdio(
    {
      hooks: {
        "no-rm": (p) =>
          JSON.stringify(p.input).includes("rm -rf")
            ? { decision: "deny", reason: "no rm -rf" }
            : {},
      },
    },
    { args: ["--log-level", "debug"] },
  ));

describe("the real hookgate binary over stdio", () => {
  it("runs a gated turn end to end: a deny blocks, an allowed call runs, observers see it", async () => {
    const s = await debugAgent();
    const { sessionId } = await s.newSession({
      hooks: {
        PreToolUse: [{ matcher: "Bash", hookCallbackIds: ["no-rm"], timeout: 5 }],
        PostToolUse: [{ hookCallbackIds: ["ui"] }],
        Stop: [{ hookCallbackIds: ["ui"] }],
      },
    });
    await s.h.agent.request(methods.agent.session.setMode, {
      sessionId,
      modeId: "bypassPermissions",
    });
    const victim = join(s.cwd, "victim");
    const made = join(s.cwd, "made");
    const stop = await s.prompt(
      sessionId,
      [
        toolLine("Bash", { command: `mkdir ${victim}` }),
        toolLine("Bash", { command: `rm -rf ${victim} && touch ${made}` }),
      ].join("\n"),
    );
    expect(stop).toBe("end_turn");
    expect(existsSync(victim)).toBe(true);
    expect(existsSync(made)).toBe(false);
    const statuses = s.h
      .sessionUpdates(sessionId)
      .flatMap((u) =>
        u.sessionUpdate === "tool_call_update" &&
        (u.status === "completed" || u.status === "failed")
          ? [u.status]
          : [],
      );
    expect(statuses).toEqual(["completed", "failed"]);
    const events = () => s.seen.events.filter((e) => e.sessionId === sessionId);
    await waitUntil("two hook events", () => events().length >= 2);
    expect(events().map((e) => e.input.hook_event_name)).toEqual(["PostToolUse", "Stop"]);
    expect(s.h.violations()).toEqual([]);
  });

  it("the client disconnecting mid-gate does not crash the agent, and nothing runs", async () => {
    let reached!: () => void;
    const reachedP = new Promise<void>((r) => (reached = r));
    s = await startStdio({ hooks: { hang: () => (reached(), new Promise(() => {})) } });
    const { sessionId } = await s.newSession({
      hooks: { PreToolUse: [{ hookCallbackIds: ["hang"] }] },
    });
    const file = join(s.cwd, "never");
    const prompt = s
      .prompt(sessionId, toolLine("Write", { file_path: file, content: "x" }))
      .catch(() => "gone");
    await reachedP;
    const child = s.h.child;
    const exited = new Promise<number | null>((r) => child?.once("exit", (code) => r(code)));
    await s.h.close();
    s = undefined;
    expect(await exited).toBe(0);
    expect(await prompt).toBe("gone");
    expect(existsSync(file)).toBe(false);
  });

  it("stdout carries protocol frames only, logs go to stderr", async () => {
    const s = await debugAgent();
    const logged = () => s.h.stderr().match(/session created/g)?.length ?? 0;
    const before = logged();
    await s.newSession();
    await waitUntil('"session created" on stderr', () => logged() > before);
    expect(s.h.violations()).toEqual([]);
  });
});
