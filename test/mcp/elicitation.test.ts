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

  it("belongs to no call when several are in flight", async () => {
    const { side, asks } = recorded();
    side.track("a", open());
    side.track("b", open());
    await side.answer(FORM, open());
    expect(asks[0]?.toolCallId).toBeUndefined();
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
    expect(await side.answer(FORM, open())).toEqual({ action: "cancel" });
  });
});
