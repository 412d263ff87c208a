import pino from "pino";
import { describe, expect, it } from "vitest";
import { ServerElicitation, type ElicitationAsk } from "../../src/mcp/elicitation.js";
import { silentLogger } from "../../src/shared/log.js";

const FORM = {
  message: "Which target?",
  requestedSchema: { type: "object", properties: { target: { type: "string" } } },
};
const open = () => new AbortController().signal;

/** A server's elicitation side whose answerer records what it was asked. */
function recorded() {
  const asks: ElicitationAsk[] = [];
  const side = new ServerElicitation("deploy", silentLogger());
  side.answerer = (ask) => {
    asks.push(ask);
    return Promise.resolve({ action: "accept", content: { target: "prod" } });
  };
  return { side, asks };
}

describe("an MCP server's elicitation/create, before the session answers it", () => {
  it("is parsed (no mode means form) and tied to the one call in flight", async () => {
    const { side, asks } = recorded();
    const done = side.track("call-7", open());
    expect(await side.answer(FORM, open())).toEqual({
      action: "accept",
      content: { target: "prod" },
    });
    done();
    expect(asks[0]).toMatchObject({
      server: "deploy",
      toolCallId: "call-7",
      request: { mode: "form" },
    });
  });

  it("carries where its call's hook reports go", async () => {
    const { side, asks } = recorded();
    const attachReports = () => Promise.resolve();
    const done = side.track("call-8", open(), attachReports);
    await side.answer(FORM, open());
    done();
    expect(asks[0]?.attachReports).toBe(attachReports);
  });

  it("belongs to no call when several are in flight, and ends once all of them have", async () => {
    const { side, asks } = waiting();
    const doneA = side.track("a", open());
    const doneB = side.track("b", open());
    const answered = side.answer(FORM, open());
    await expect.poll(() => asks.length).toBe(1);
    expect(asks[0]?.toolCallId).toBeUndefined();
    doneA();
    expect(asks[0]?.signal.aborted).toBe(false);
    doneB();
    expect(await answered).toEqual({ action: "cancel" });
  });

  it("is declined when malformed, never reaching hooks or the user", async () => {
    const { side, asks } = recorded();
    expect(await side.answer({ message: "no schema" }, open())).toEqual({ action: "decline" });
    expect(await side.answer({ ...FORM, mode: "url" }, open())).toEqual({ action: "decline" });
    expect(asks).toEqual([]);
  });

  it("is declined before the session exists, cancelled when answering fails", async () => {
    const side = new ServerElicitation("deploy", silentLogger());
    expect(await side.answer(FORM, open())).toEqual({ action: "decline" });
    side.answerer = () => Promise.reject(new Error("client went away"));
    side.track("call-1", open());
    expect(await side.answer(FORM, open())).toEqual({ action: "cancel" });
  });

  it("is declined at once, and logged, when no call of the server is in flight", async () => {
    const { log, lines } = recordingLogger();
    const asks: ElicitationAsk[] = [];
    const side = new ServerElicitation("deploy", log);
    side.answerer = (ask) => (asks.push(ask), Promise.resolve({ action: "accept" }));
    expect(await side.answer(FORM, open())).toEqual({ action: "decline" });
    side.track("call-1", open())();
    expect(await side.answer(FORM, open())).toEqual({ action: "decline" });
    expect(asks).toEqual([]);
    expect(lines.join("")).toContain("no tool call of the server in flight");
  });
});

describe("an elicitation tied to the call that asked it", () => {
  it("is cancelled when the call ends, though nobody answered it", async () => {
    const { side, asks } = waiting();
    const done = side.track("call-7", open());
    const answered = side.answer(FORM, open());
    await expect.poll(() => asks.length).toBe(1);
    done();
    expect(asks[0]?.signal.aborted).toBe(true);
    expect(await answered).toEqual({ action: "cancel" });
  });

  it("is cancelled when the turn running the call is cancelled", async () => {
    const { side, asks } = waiting();
    const turn = new AbortController();
    side.track("call-7", turn.signal);
    const answered = side.answer(FORM, open());
    await expect.poll(() => asks.length).toBe(1);
    turn.abort();
    expect(await answered).toEqual({ action: "cancel" });
  });

  it("is one at a time per server: another while one is open is declined and logged", async () => {
    const { log, lines } = recordingLogger();
    const asks: ElicitationAsk[] = [];
    const side = new ServerElicitation("deploy", log);
    let reply: (a: { action: "accept" }) => void = () => {};
    side.answerer = (ask) => (asks.push(ask), new Promise((resolve) => (reply = resolve)));
    side.track("call-7", open());
    const first = side.answer(FORM, open());
    await expect.poll(() => asks.length).toBe(1);
    const flood = await Promise.all(Array.from({ length: 50 }, () => side.answer(FORM, open())));
    expect(flood.every((a) => a.action === "decline")).toBe(true);
    expect(asks).toHaveLength(1);
    expect(lines.join("")).toContain("while another of the server is open");
    reply({ action: "accept" });
    expect(await first).toEqual({ action: "accept" });
    // Once answered, the server may ask again.
    void side.answer(FORM, open());
    await expect.poll(() => asks.length).toBe(2);
  });
});

/** A server's elicitation side whose answerer never answers (a client that never replies). */
function waiting() {
  const asks: ElicitationAsk[] = [];
  const side = new ServerElicitation("deploy", silentLogger());
  side.answerer = (ask) => (asks.push(ask), new Promise(() => {}));
  return { side, asks };
}

function recordingLogger() {
  const lines: string[] = [];
  const log = pino({ level: "warn" }, { write: (line: string) => void lines.push(line) });
  return { log, lines };
}
