import { Writable } from "node:stream";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { runGate } from "../../src/hooks/gate.js";
import { HookTransportError, type HookTransport } from "../../src/hooks/transport.js";
import { waitUntil } from "../helpers/wait.js";
import { cb, gateCall } from "./gate-call.js";

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split("\n"))
        if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { log: pino({ level: "info" }, stream), lines };
}

describe("gate logging", () => {
  it("logs one warn line per failed callback and one info line per deny, with session, callback, tool and duration", async () => {
    const { log, lines } = capture();
    const transport: HookTransport = {
      run: (req) => {
        if (req.hookCallbackId === "broken")
          return Promise.reject(
            new HookTransportError("JSON-RPC error -32601: Method not found", -32601),
          );
        if (req.hookCallbackId === "odd")
          return Promise.resolve({ kind: "result", result: { decision: "perhaps" } });
        if (req.hookCallbackId === "fine") return Promise.resolve({ kind: "result", result: {} });
        // Deny only once the other three are classified, so every failure gets logged.
        return waitUntil(
          "two warnings logged",
          () => lines.filter((l) => l.level === 40).length === 2,
        ).then(() => ({ kind: "result", result: { decision: "deny", reason: "no" } }) as const);
      },
      event() {},
    };
    const verdict = await runGate(
      gateCall(
        ["broken", "odd", "fine", "deny"].map((id) => cb(id, 1000)),
        { command: "ls" },
      ),
      new AbortController().signal,
      { transport, log: log.child({ sessionId: "s1" }) },
    );
    expect(verdict.kind).toBe("denied");
    await waitUntil("an info line logged", () => lines.some((l) => l.level === 30));
    const warns = lines.filter((l) => l.level === 40);
    const infos = lines.filter((l) => l.level === 30);
    expect(warns.map((w) => [w.hookCallbackId, w.outcome])).toEqual([
      ["broken", "transport_error"],
      ["odd", "unknown_decision"],
    ]);
    for (const w of warns)
      expect(w).toMatchObject({ sessionId: "s1", tool: "Bash", durationMs: expect.any(Number) });
    expect(infos).toHaveLength(1);
    expect(infos[0]).toMatchObject({
      sessionId: "s1",
      hookCallbackId: "deny",
      tool: "Bash",
      reason: "no",
      durationMs: expect.any(Number),
    });
  });
});
