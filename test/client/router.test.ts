import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { methods, RequestError } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import {
  HookRouter,
  HookResultError,
  type HookContext,
  type HookInput,
  type HookInputFor,
} from "../../src/client/index.js";
import { createHookgateApp } from "../../src/agent/serve.js";
import { createScriptedModel } from "../../src/model/scripted.js";
import { silentLogger } from "../../src/shared/log.js";
import { waitUntil } from "../helpers/wait.js";
import { connectInProcess, initialize, type Harness } from "../helpers/harness.js";
import { toolLine } from "../agent/setup.js";
import {
  finals,
  hanging,
  openSession,
  outcomes,
  prompt,
  recordErrors,
  routerClient,
  textOf,
} from "./router-session.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The router's app connected to an agent in this process (router.e2e.test.ts: the real binary). */
async function connect(router: HookRouter): Promise<Harness> {
  const agent = createHookgateApp({ log: silentLogger(), model: createScriptedModel() });
  h = connectInProcess(agent, routerClient(router));
  await initialize(h);
  return h;
}

describe("hookgate/client with an agent", () => {
  it("a deny from a sibling fires a hanging callback's signal long before its own 20 s timeout", async () => {
    const router = new HookRouter();
    const seen: { reason?: unknown; at?: number } = {};
    const reg = router.register({
      PreToolUse: [
        { timeout: 20, hooks: [hanging(seen)] },
        { hooks: [() => ({ decision: "deny", reason: "no" })] },
      ],
    });
    const h = await connect(router);
    const { sessionId } = await openSession(h, reg.meta);
    await prompt(h, sessionId, [toolLine("Bash", { command: "true" })]);
    // Well inside its 20 s timeout: only the sibling's deny can have fired it.
    await waitUntil("the failure reported", () => seen.reason !== undefined, { within: 10_000 });

    expect(seen.reason).toBeInstanceOf(RequestError);
    expect(outcomes(finals(h, sessionId)[0])).toEqual({
      "r1/PreToolUse:0:0": "cancelled",
      "r1/PreToolUse:1:0": "denied",
    });
  });

  it("session/cancel while a callback hangs fires its signal, runs nothing and stops with cancelled", async () => {
    const router = new HookRouter();
    const seen: { reason?: unknown } = {};
    let reached!: () => void;
    const reachedP = new Promise<void>((r) => (reached = r));
    const reg = router.register({ PreToolUse: [{ timeout: 60, hooks: [hanging(seen, reached)] }] });
    const h = await connect(router);
    const { sessionId, cwd } = await openSession(h, reg.meta);
    const file = join(cwd, "never.txt");
    const running = prompt(h, sessionId, [toolLine("Write", { file_path: file, content: "x" })]);
    await reachedP;
    await h.agent.notify(methods.agent.session.cancel, { sessionId });

    expect((await running).stopReason).toBe("cancelled");
    await waitUntil("the failure reported", () => seen.reason !== undefined);
    expect(seen.reason).toBeInstanceOf(RequestError);
    expect(existsSync(file)).toBe(false);
  });

  it("a throwing callback becomes a JSON-RPC error: labelled transport_error, the tool proceeds, onError hears of it", async () => {
    const options = recordErrors();
    const router = new HookRouter(options);
    const policy = () => {
      throw new Error("policy service down");
    };
    const reg = router.register({
      PreToolUse: [
        { matcher: "Write", hooks: [policy] },
        { matcher: "Bash", onFailure: "deny", hooks: [policy] },
      ],
    });
    const h = await connect(router);
    const { sessionId, cwd } = await openSession(h, reg.meta);
    const file = join(cwd, "written.txt");
    const touched = join(cwd, "touched");
    await prompt(h, sessionId, [
      toolLine("Write", { file_path: file, content: "x" }),
      toolLine("Bash", { command: `touch ${touched}` }),
    ]);

    const [write, bash] = finals(h, sessionId);
    expect(write?.status).toBe("completed");
    expect(outcomes(write)).toEqual({ "r1/PreToolUse:0:0:policy": "transport_error" });
    expect(existsSync(file)).toBe(true);
    // onFailure "deny": the same failure fails closed.
    expect(bash?.status).toBe("failed");
    expect(textOf(bash)).toMatch(
      /^Hook denied: hook r1\/PreToolUse:1:0:policy failed \(transport_error: .*policy service down.*\)/,
    );
    expect(existsSync(touched)).toBe(false);
    expect(
      options.errors.map((e) => [e.message, e.info.kind, e.info.phase, e.info.sessionId]),
    ).toEqual([
      ["policy service down", "run", "callback", sessionId],
      ["policy service down", "run", "callback", sessionId],
    ]);
  });

  it("a result that is not a _hooks/run result is refused before it is sent, with a clear error", async () => {
    const options = recordErrors();
    const router = new HookRouter(options);
    // Deliberately ill-typed, as a JavaScript callback could be.
    const sloppy = (() => ({ decision: 42 })) as unknown as () => undefined;
    const reg = router.register({ PreToolUse: [{ hooks: [sloppy] }] });
    const h = await connect(router);
    const { sessionId } = await openSession(h, reg.meta);
    await prompt(h, sessionId, [toolLine("Bash", { command: "true" })]);

    expect(outcomes(finals(h, sessionId)[0])).toEqual({
      "r1/PreToolUse:0:0:sloppy": "transport_error",
    });
    expect(options.errors[0]?.message).toBe(
      "hook r1/PreToolUse:0:0:sloppy returned an invalid result (decision: Invalid input: expected string, received number)",
    );
    expect(options.errors[0]?.error).toBeInstanceOf(HookResultError);
    expect(options.errors[0]?.info.phase).toBe("callback");
  });

  it("two sessions on one connection each reach only their own callbacks, even from one hooks object", async () => {
    const router = new HookRouter();
    const calls: { owner: string; sessionId: string }[] = [];
    const gate = (owner: string) =>
      function policy(_input: HookInputFor<"PreToolUse">, _id: unknown, ctx: HookContext) {
        calls.push({ owner, sessionId: ctx.sessionId });
        return {};
      };
    const shared = { PreToolUse: [{ hooks: [gate("shared")] }] };
    const regA = router.register({ PreToolUse: [{ hooks: [gate("A")] }] });
    const regB = router.register({ PreToolUse: [{ hooks: [gate("B")] }] });
    const regS1 = router.register(shared);
    const regS2 = router.register(shared);
    expect(regA.callbackIds[0]).toBe("r1/PreToolUse:0:0:policy");
    expect(regB.callbackIds[0]).toBe("r2/PreToolUse:0:0:policy");
    const h = await connect(router);
    const [a, b, s1, s2] = await Promise.all(
      [regA, regB, regS1, regS2].map((r) => openSession(h, r.meta)),
    );
    const line = [toolLine("Bash", { command: "true" })];
    await Promise.all([a, b, s1, s2].map((s) => prompt(h, s!.sessionId, line)));

    const by = (owner: string) => calls.filter((c) => c.owner === owner).map((c) => c.sessionId);
    expect(by("A")).toEqual([a!.sessionId]);
    expect(by("B")).toEqual([b!.sessionId]);
    expect(by("shared").sort()).toEqual([s1!.sessionId, s2!.sessionId].sort());
    expect(calls).toHaveLength(4);
  });

  it("observers that throw or reject are caught and reported; the client carries on", async () => {
    const options = recordErrors();
    const router = new HookRouter(options);
    const seen: string[] = [];
    const broken = (input: HookInput) => {
      throw new Error(`sync failure on ${input.hook_event_name}`);
    };
    const flaky = async (input: HookInput) => {
      await new Promise((r) => setImmediate(r)); // still running when the next message comes
      throw new Error(`async failure on ${input.hook_event_name}`);
    };
    const fine = (input: HookInput) => void seen.push(input.hook_event_name);
    const reg = router.register({
      UserPromptSubmit: [{ hooks: [broken, fine] }],
      Stop: [{ hooks: [flaky, fine] }],
    });
    const h = await connect(router);
    const { sessionId } = await openSession(h, reg.meta);
    for (let i = 0; i < 2; i++)
      expect((await prompt(h, sessionId, ["hello"])).stopReason).toBe("end_turn");
    await router.idle();

    expect(seen).toEqual(["UserPromptSubmit", "Stop", "UserPromptSubmit", "Stop"]);
    expect(
      options.errors
        .map((e) => `${e.info.kind}/${e.info.phase} ${e.info.hookCallbackId}: ${e.message}`)
        .sort(),
    ).toEqual([
      "event/callback r1/Stop:0:0:flaky: async failure on Stop",
      "event/callback r1/Stop:0:0:flaky: async failure on Stop",
      "event/callback r1/UserPromptSubmit:0:0:broken: sync failure on UserPromptSubmit",
      "event/callback r1/UserPromptSubmit:0:0:broken: sync failure on UserPromptSubmit",
    ]);
  });

  it("calls for a disposed registration are dispatch errors: a gate's is a transport_error, by default a process warning", async () => {
    const router = new HookRouter();
    const reg = router.register({
      PreToolUse: [{ hooks: [() => ({ decision: "deny" })] }],
      Stop: [{ hooks: [() => {}] }],
    });
    const h = await connect(router);
    const { sessionId, cwd } = await openSession(h, reg.meta);
    reg.dispose();
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on("warning", onWarning);
    try {
      mkdirSync(join(cwd, "d"));
      await prompt(h, sessionId, [toolLine("Bash", { command: "rmdir d" })]);
      await router.idle();
      await waitUntil("two warnings", () => warnings.length >= 2); // emitted on the next tick
    } finally {
      process.off("warning", onWarning);
    }
    expect(outcomes(finals(h, sessionId)[0])).toEqual({ "r1/PreToolUse:0:0": "transport_error" });
    expect(existsSync(join(cwd, "d"))).toBe(false);
    expect(warnings.map((w) => [(w as Error & { code?: string }).code, w.message])).toEqual([
      [
        "HOOKGATE_HOOK_ERROR",
        "_hooks/run r1/PreToolUse:0:0: Invalid params: no callback is registered as r1/PreToolUse:0:0",
      ],
      [
        "HOOKGATE_HOOK_ERROR",
        "_hooks/event r1/Stop:0:0: Invalid params: no callback is registered as r1/Stop:0:0",
      ],
    ]);
  });
});
