import { createHook } from "node:async_hooks";
import { PassThrough, Writable } from "node:stream";
import { client, methods } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { HookRouter } from "../../src/client/index.js";
import { hookFrameTaker } from "../../src/client/fast-path.js";
import { stdioFrames } from "../../src/client/stdio-frames.js";
import { recordingOutput } from "../helpers/recording-output.js";
import { waitUntil } from "../helpers/wait.js";
import { bashInput as input, hangingCallback } from "./hook-fixtures.js";

/**
 * A client app with a router on the stdio framing spawnHookgate uses; the test plays the agent
 * by writing lines to its stdout and reading what the client writes to its stdin.
 */
function connect(router: HookRouter) {
  const stdout = new PassThrough();
  const { out: stdin, writes } = recordingOutput();
  const updates: unknown[] = [];
  const app = router.install(
    client({ name: "stdio-frames-test" }).onNotification(
      methods.client.session.update,
      ({ params }) => void updates.push(params),
    ),
  );
  app.connect(stdioFrames(stdout, stdin, { taker: (send) => hookFrameTaker(router, send) }));
  const replies = () =>
    writes
      .join("")
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { stdout, writes, replies, updates };
}

const line = (message: object) => `${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`;

/** `_hooks/run` frames, one per callback id, with ids `hook-<i>`. */
const runFrames = (callbackIds: readonly string[], toolInput: object = input.tool_input) =>
  callbackIds
    .map((hookCallbackId, i) =>
      line({
        id: `hook-${i}`,
        method: "_hooks/run",
        params: {
          sessionId: "s1",
          hookCallbackId,
          toolUseId: "call-1",
          input: { ...input, tool_input: toolInput },
        },
      }),
    )
    .join("");

/** Counts the promises created while `during` runs and until what it returns settles. */
async function promisesCreated(during: () => Promise<unknown>): Promise<number> {
  let created = 0;
  const hook = createHook({ init: (_id, type) => void (type === "PROMISE" && created++) });
  hook.enable();
  try {
    await during();
  } finally {
    hook.disable();
  }
  return created;
}

describe("hookgate/client's stdio framing", () => {
  it("answers a gate's _hooks/run burst, split across reads, with every reply in one write", async () => {
    const router = new HookRouter();
    const reg = router.register({
      PreToolUse: [{ hooks: [() => ({}), () => ({ decision: "deny", reason: "no rm" })] }],
    });
    const h = connect(router);
    const burst = reg.callbackIds
      .map((hookCallbackId, i) =>
        line({
          id: `hook-${i}`,
          method: "_hooks/run",
          params: { sessionId: "s1", hookCallbackId, toolUseId: "call-1", input },
        }),
      )
      .join("");
    // A read may end anywhere, even inside a multi-byte character.
    const bytes = Buffer.from(burst.replace("rm -rf /", "rm -rf /ü"));
    const cut = bytes.indexOf(Buffer.from("ü")) + 1;
    h.stdout.write(bytes.subarray(0, cut));
    h.stdout.write(bytes.subarray(cut));
    await waitUntil("two replies written", () => h.replies().length === 2);
    expect(h.writes).toHaveLength(1);
    expect(h.replies()).toEqual([
      { jsonrpc: "2.0", id: "hook-0", result: {} },
      { jsonrpc: "2.0", id: "hook-1", result: { decision: "deny", reason: "no rm" } },
    ]);
  });

  it("answers a long burst in writes of about 2 KiB, in order, so the agent can start on the first", async () => {
    const router = new HookRouter();
    const hooks = Array.from({ length: 120 }, () => () => ({}));
    const reg = router.register({
      PreToolUse: [{ hooks: hooks.slice(0, 60) }, { hooks: hooks.slice(60) }],
    });
    const h = connect(router);
    h.stdout.write(runFrames(reg.callbackIds));
    await waitUntil("every reply written", () => h.replies().length === 120);
    expect(h.replies().map((r) => r.id)).toEqual(reg.callbackIds.map((_, i) => `hook-${i}`));
    expect(h.writes.length).toBeGreaterThanOrEqual(3);
    const reply = JSON.stringify(h.replies()[0]).length + 1;
    for (const write of h.writes) expect(write.length).toBeLessThan(2 * 1024 + reply);
  });

  it("answers malformed _hooks/run params with -32602 naming the field, before any callback runs", async () => {
    const errors: string[] = [];
    const router = new HookRouter({ onError: (e) => void errors.push(String(e)) });
    let called = false;
    const reg = router.register({ PreToolUse: [{ hooks: [() => void (called = true)] }] });
    const h = connect(router);
    const hookCallbackId = reg.callbackIds[0];
    const withoutToolName: Partial<typeof input> = { ...input };
    delete withoutToolName.tool_name;
    h.stdout.write(
      line({ id: 1, method: "_hooks/run", params: { sessionId: "s1", toolUseId: "c", input } }) +
        line({
          id: 2,
          method: "_hooks/run",
          params: { sessionId: "s1", hookCallbackId, toolUseId: "c", input: withoutToolName },
        }) +
        line({
          id: 3,
          method: "_hooks/run",
          params: { sessionId: "s1", hookCallbackId, toolUseId: "c", input: "text" },
        }),
    );
    await waitUntil("three replies written", () => h.replies().length === 3);
    const byId = new Map(h.replies().map((r) => [r.id, r]));
    for (const [id, field] of [
      [1, "hookCallbackId"],
      [2, "input.tool_name"],
      [3, "input"],
    ] as const) {
      expect(byId.get(id)).toMatchObject({ error: { code: -32602 } });
      expect(JSON.stringify(byId.get(id))).toContain(`${field}: `);
    }
    expect(called).toBe(false);
    expect(errors).toHaveLength(3);
  });

  it("hands other frames to the app and answers an unreadable line as the SDK does", async () => {
    const router = new HookRouter();
    const h = connect(router);
    const update = {
      sessionId: "s1",
      update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } },
    };
    h.stdout.write(`{"jsonrpc":"2.0",\n${line({ method: "session/update", params: update })}`);
    await waitUntil(
      "the update and one reply",
      () => h.updates.length === 1 && h.replies().length === 1,
    );
    expect(h.updates).toEqual([update]);
    expect(h.replies()[0]).toMatchObject({ id: null, error: { code: -32700 } });
  });

  it("aborts running callbacks when the agent's output ends", async () => {
    let started = false;
    const router = new HookRouter({ trace: () => void (started = true) });
    const hanging = hangingCallback();
    const reg = router.register({ PreToolUse: [{ hooks: [hanging.callback] }] });
    const h = connect(router);
    h.stdout.write(
      line({
        id: 1,
        method: "_hooks/run",
        params: { sessionId: "s1", hookCallbackId: reg.callbackIds[0], toolUseId: "c", input },
      }),
    );
    await waitUntil("the callback started", () => started);
    h.stdout.end();
    await waitUntil("the callback aborted", hanging.aborted);
  });

  it("answers a burst of callbacks that return plain values with no promise per frame", async () => {
    const router = new HookRouter();
    const count = 64;
    const reg = router.register({
      PreToolUse: [{ hooks: Array.from({ length: count }, () => () => ({})) }],
    });
    const stdout = new PassThrough();
    let replies = 0;
    let answered = () => {};
    const allAnswered = new Promise<void>((resolve) => (answered = resolve));
    const stdin = new Writable({
      write(chunk: Buffer, _encoding, done) {
        replies += chunk.toString("utf8").split("\n").length - 1;
        if (replies === count) answered();
        done();
      },
    });
    router
      .install(client({ name: "stdio-frames-test" }))
      .connect(stdioFrames(stdout, stdin, { taker: (send) => hookFrameTaker(router, send) }));
    const burst = runFrames(reg.callbackIds);
    const created = await promisesCreated(async () => {
      stdout.write(burst);
      await allAnswered;
    });
    expect(replies).toBe(count);
    // Each promise hop of a frame costs about what parsing it does.
    expect(created).toBeLessThan(count);
  });

  it("joins a frame split over several reads, whatever follows it in the last one", async () => {
    const router = new HookRouter();
    const seen: string[] = [];
    const reg = router.register({
      PreToolUse: [{ hooks: [(i) => void seen.push(JSON.stringify(i.tool_input))] }],
    });
    const h = connect(router);
    const update = {
      sessionId: "s1",
      update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "ü€" } },
    };
    const id = reg.callbackIds[0] ?? "";
    const text =
      runFrames([id], { command: "echo ü€😀" }) +
      line({ method: "session/update", params: update });
    const bytes = Buffer.from(`${text}${runFrames([id], { command: "tail" }).trimEnd()}`);
    // Cuts inside the first frame's multi-byte characters, then one read with the rest of it,
    // a whole frame after it, and the start of a last frame that ends with the stream.
    const euro = bytes.indexOf(Buffer.from("€"));
    const emoji = bytes.indexOf(Buffer.from("😀"));
    for (const [from, to] of [
      [0, euro + 1],
      [euro + 1, emoji + 2],
      [emoji + 2, bytes.length - 10],
      [bytes.length - 10, bytes.length],
    ] as const) {
      h.stdout.write(bytes.subarray(from, to));
    }
    h.stdout.end();
    await waitUntil("both calls and the update", () => seen.length === 2 && h.updates.length === 1);
    expect(seen).toEqual(['{"command":"echo ü€😀"}', '{"command":"tail"}']);
    expect(h.updates).toEqual([update]);
  });

  it("answers a result that cannot be written with an error, not silence", async () => {
    const errors: unknown[] = [];
    const router = new HookRouter({ onError: (e) => void errors.push(e) });
    const cyclic: Record<string, unknown> = { reason: "loops" };
    cyclic.self = cyclic;
    const reg = router.register({ PreToolUse: [{ hooks: [() => cyclic] }] });
    const h = connect(router);
    h.stdout.write(runFrames(reg.callbackIds));
    await waitUntil("one reply", () => h.replies().length === 1);
    expect(h.replies()[0]).toMatchObject({ id: "hook-0", error: { code: -32603 } });
  });

  it("runs the callback and answers it though the trace recorder throws; idle() still resolves", async () => {
    const router = new HookRouter({
      trace: () => {
        throw new Error("recorder broke");
      },
    });
    const reg = router.register({ PreToolUse: [{ hooks: [() => ({ decision: "deny" })] }] });
    const h = connect(router);
    h.stdout.write(runFrames(reg.callbackIds));
    await waitUntil("one reply", () => h.replies().length === 1);
    expect(h.replies()[0]).toEqual({ jsonrpc: "2.0", id: "hook-0", result: { decision: "deny" } });
    await router.idle();
  });
});
