import { existsSync } from "node:fs";
import { join } from "node:path";
import { RequestError } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import {
  HookRouter,
  type HookContext,
  type HookInput,
  type HookInputFor,
} from "../../src/client/index.js";
import { waitUntil } from "../helpers/wait.js";
import { connectStdio, initialize, type Harness } from "../helpers/harness.js";
import { toolLine } from "../agent/setup.js";
import {
  finals,
  hanging,
  openSession,
  outcomes,
  prompt,
  routerClient,
  textOf,
} from "./router-session.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function connect(router: HookRouter): Promise<Harness> {
  h = connectStdio(routerClient(router), { args: ["--log-level", "warn"] });
  await initialize(h);
  return h;
}

// The rest of the router's behaviour with an agent is pinned in-process (router.test.ts).
describe("hookgate/client against the real binary over stdio", () => {
  it("round-trips: typed inputs reach the gate, a deny blocks, observers see the turn in order", async () => {
    const router = new HookRouter();
    const gateCalls: {
      input: HookInputFor<"PreToolUse">;
      toolUseID: string | undefined;
      ctx: HookContext;
    }[] = [];
    const observed: HookInput[] = [];
    const noRmRf = (
      input: HookInputFor<"PreToolUse">,
      toolUseID: string | undefined,
      ctx: HookContext,
    ) => {
      gateCalls.push({ input, toolUseID, ctx });
      return JSON.stringify(input.tool_input).includes("rm -rf")
        ? { decision: "deny" as const, reason: "no rm -rf" }
        : {};
    };
    const ui = async (input: HookInput) => {
      await new Promise((r) => setImmediate(r)); // still running when the next message comes
      observed.push(input);
    };
    const reg = router.register({
      PreToolUse: [{ matcher: "Bash", timeout: 5, hooks: [noRmRf] }],
      SessionStart: [{ hooks: [ui] }],
      PostToolUse: [{ hooks: [ui] }],
      Stop: [{ hooks: [ui] }],
    });
    const h = await connect(router);
    const { sessionId, cwd, _meta } = await openSession(h, reg.meta);
    expect(_meta?.hooks).toEqual({
      registered: { PreToolUse: 1, SessionStart: 1, PostToolUse: 1, Stop: 1 },
      ignoredEvents: [],
      warnings: [],
    });

    const victim = join(cwd, "victim");
    const res = await prompt(h, sessionId, [
      toolLine("Bash", { command: `mkdir ${victim}` }),
      toolLine("Bash", { command: `rm -rf ${victim}` }),
    ]);
    await router.idle();

    expect(res.stopReason).toBe("end_turn");
    expect(existsSync(victim)).toBe(true);
    const [made, removed] = finals(h, sessionId);
    expect(made?.status).toBe("completed");
    expect(removed?.status).toBe("failed");
    expect(textOf(removed)).toBe("Hook denied: no rm -rf");
    expect(outcomes(removed)).toEqual({ "r1/PreToolUse:0:0:noRmRf": "denied" });
    expect(gateCalls).toHaveLength(2);
    const first = gateCalls[0];
    expect(first?.input).toMatchObject({
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      session_id: sessionId,
      cwd,
      tool_input: { command: `mkdir ${victim}` },
    });
    expect(first?.ctx.sessionId).toBe(sessionId);
    expect(first?.toolUseID).toBe(first?.input.tool_use_id);
    expect(observed.map((i) => i.hook_event_name)).toEqual(["SessionStart", "PostToolUse", "Stop"]);
    expect(observed[2]).toMatchObject({ hook_event_name: "Stop", stop_reason: "end_turn" });
  });

  it("a callback hanging past its group's timeout has its signal fired by $/cancel_request; the agent says timed_out", async () => {
    const router = new HookRouter();
    const seen: { reason?: unknown; at?: number } = {};
    const reg = router.register({ PreToolUse: [{ timeout: 0.5, hooks: [hanging(seen)] }] });
    const h = await connect(router);
    const { sessionId, cwd } = await openSession(h, reg.meta);
    const file = join(cwd, "f.txt");
    const started = performance.now();
    await prompt(h, sessionId, [toolLine("Write", { file_path: file, content: "x" })]);
    await waitUntil("the failure reported", () => seen.reason !== undefined);

    expect(seen.reason).toBeInstanceOf(RequestError);
    expect((seen.reason as RequestError).code).toBe(-32800);
    // Not before its timeout (however late a loaded machine lets it fire).
    expect((seen.at ?? 0) - started).toBeGreaterThan(400);
    expect(outcomes(finals(h, sessionId)[0])).toEqual({ "r1/PreToolUse:0:0": "timed_out" });
    expect(existsSync(file)).toBe(true); // fail-open: the default onFailure
    // The helper answered the cancelled request instead of leaving it pending forever.
    const answered = h
      .framesFrom("client")
      .some((f) => "error" in f.message && f.message.error.code === -32800);
    expect(answered).toBe(true);
  });
});
