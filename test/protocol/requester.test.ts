import type { AnyMessage } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { HookAbort, HookCancel } from "../../src/hooks/transport.js";
import { Requester, type Reply, type RequestWay } from "../../src/protocol/requester.js";

/** A requester over a way that records what it sends and gives up, replies read off the wire. */
function direct() {
  const sent: { id: string; params: string }[] = [];
  const abandoned: string[] = [];
  const way: RequestWay<string> = {
    send: (request) => void sent.push({ ...request }),
    abandon: (id) => void abandoned.push(id),
  };
  const requester = new Requester(way);
  const idOf = (i: number) => sent[i]?.id ?? "";
  return { requester, sent, abandoned, idOf };
}

const open = () => new HookCancel();

describe("the agent's requester for reverse requests", () => {
  it("gives each request an id of its own and takes its reply before the SDK", async () => {
    const { requester, sent, idOf } = direct();
    const a = requester.request("a", open());
    const b = requester.request("b", open());
    expect(sent.map((r) => r.params)).toEqual(["a", "b"]);
    expect(idOf(0)).not.toBe(idOf(1));
    // The SDK's own requests (numeric ids) and other frames are not the requester's.
    expect(requester.take({ jsonrpc: "2.0", id: 0, result: {} })).toBe(false);
    expect(
      requester.take({ jsonrpc: "2.0", method: "session/cancel", params: {} } as AnyMessage),
    ).toBe(false);
    expect(requester.take({ jsonrpc: "2.0", id: idOf(1), result: { decision: "deny" } })).toBe(
      true,
    );
    expect(requester.take({ jsonrpc: "2.0", id: idOf(0), result: null })).toBe(true);
    await expect(b).resolves.toEqual({ kind: "result", result: { decision: "deny" } });
    await expect(a).resolves.toEqual({ kind: "result", result: null });
  });

  it("an error reply arrives with its code; a malformed one names the field", async () => {
    const { requester, idOf } = direct();
    const replied = requester.request("a", open());
    const malformed = requester.request("b", open());
    requester.take({
      jsonrpc: "2.0",
      id: idOf(0),
      error: { code: -32601, message: "Method not found" },
    });
    requester.take({ jsonrpc: "2.0", id: idOf(1), error: { code: "x", message: "bad" } } as never);
    await expect(replied).resolves.toEqual({
      kind: "error",
      code: -32601,
      message: "Method not found",
    });
    const failed = await malformed;
    expect(failed).toMatchObject({ kind: "failed" });
    expect(failed.kind === "failed" && failed.message).toMatch(/error\.code: /);
  });

  it("a reply too large to read arrives as what it is, with its skeleton", async () => {
    const { requester, idOf } = direct();
    const big = requester.request("a", open());
    expect(requester.takeOversized({ id: 7, bytes: 9, limit: 8 })).toBe(false);
    expect(
      requester.takeOversized({
        id: idOf(0),
        bytes: 9000,
        limit: 8000,
        skeleton: { decision: "deny" },
      }),
    ).toBe(true);
    await expect(big).resolves.toEqual({
      kind: "oversized",
      bytes: 9000,
      limit: 8000,
      skeleton: { decision: "deny" },
    } satisfies Reply);
  });

  it("an aborted request is abandoned, rejects with the signal's reason, and its late reply is dropped", async () => {
    const { requester, abandoned, idOf } = direct();
    const controller = new HookCancel();
    const asked = requester.request("a", controller);
    const answered = new HookCancel();
    const done = requester.request("b", answered);
    requester.take({ jsonrpc: "2.0", id: idOf(1), result: {} });
    await done;
    const reason = new HookAbort("decided", "the gate was already decided");
    controller.abort(reason);
    answered.abort(reason);
    await expect(asked).rejects.toBe(reason);
    // One abandon, for the request still waiting; the answered one is not given up.
    expect(abandoned).toEqual([idOf(0)]);
    // Taken (not handed to the SDK, which would report an unknown request) and ignored.
    expect(requester.take({ jsonrpc: "2.0", id: idOf(0), result: {} })).toBe(true);
    await expect(requester.request("c", controller)).rejects.toBe(reason);
  });

  it("a closed connection releases the requests still waiting and fails every later one", async () => {
    const { requester } = direct();
    const waiting = requester.request("a", open());
    requester.close();
    const failed = { kind: "failed", message: "request failed: ACP connection closed" };
    await expect(waiting).resolves.toEqual(failed);
    await expect(requester.request("b", open())).resolves.toEqual(failed);
  });

  it("an output that fails makes a request fail, never hang", async () => {
    const requester = new Requester<string>({
      send() {
        throw new Error("EPIPE");
      },
      abandon() {},
    });
    await expect(requester.request("a", open())).resolves.toEqual({
      kind: "failed",
      message: "request failed: EPIPE",
    });
  });

  it("a way that reads its own replies (the SDK's) settles through the requester, once", async () => {
    let settle: ((reply: Reply) => void) | undefined;
    const requester = new Requester<string>({
      send: (_request, _cancel, s) => void (settle = s),
      abandon() {},
    });
    const asked = requester.request("a", open());
    settle?.({ kind: "result", result: { decision: "allow" } });
    settle?.({ kind: "result", result: { decision: "deny" } });
    await expect(asked).resolves.toEqual({ kind: "result", result: { decision: "allow" } });
  });
});
