import pino from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { noSteering } from "../../src/hooks/steering.js";
import {
  answerElicitation,
  ELICITATION_DEADLINE_MS,
  type ElicitationEnv,
} from "../../src/session/elicitation.js";
import { silentLogger } from "../../src/shared/log.js";
import type { ElicitationForm, FormAnswer } from "../../src/shared/port.js";
import { FakeClient } from "../tools/fake-client.js";

const ASK = {
  server: "deploy",
  request: {
    mode: "form" as const,
    message: "Which target?",
    requestedSchema: { type: "object" as const, properties: { target: { type: "string" } } },
  },
  toolCallId: "call-1",
  signal: new AbortController().signal,
};

/** Hooks that answer nothing and record what observers were told. */
function quietHooks() {
  const notified: { event: string; fields: unknown }[] = [];
  const hooks: ElicitationEnv["hooks"] = {
    emit: (event, fields) => void notified.push({ event, fields: fields() }),
    run: (event) => Promise.resolve(noSteering(event)),
  };
  return { hooks, notices: () => notified.filter((n) => n.event === "Notification") };
}

/** A client with a form that answers once `answer` is called. */
class FormClient extends FakeClient {
  asked: unknown[] = [];
  answer: (a: FormAnswer) => void = () => {};
  override createElicitation(params: ElicitationForm): Promise<FormAnswer> {
    this.asked.push(params);
    return new Promise((resolve) => (this.answer = resolve));
  }
}

describe("a form left open on the client", () => {
  it("fires Notification elicitation_dialog while it waits, then elicitation_response", async () => {
    const { hooks, notices } = quietHooks();
    const client = new FormClient({ elicitation: true });
    const answered = answerElicitation(ASK, {
      hooks,
      client,
      log: silentLogger(),
      noticeDelayMs: 0,
    });
    await expect.poll(() => notices().length).toBe(1);
    expect(notices()[0]?.fields).toEqual({
      message: "hookgate needs your input",
      notification_type: "elicitation_dialog",
    });
    expect(client.asked).toEqual([
      {
        message: "Which target?",
        requestedSchema: ASK.request.requestedSchema,
        toolCallId: "call-1",
      },
    ]);
    client.answer({ action: "accept", content: { target: "prod" } });
    expect(await answered).toEqual({ action: "accept", content: { target: "prod" } });
    expect(notices().map((n) => n.fields)).toEqual([
      expect.objectContaining({ notification_type: "elicitation_dialog" }),
      {
        message: 'Elicitation response for server "deploy": accept',
        notification_type: "elicitation_response",
      },
    ]);
  });

  it("a form answered before the delay fires no elicitation_dialog", async () => {
    const { hooks, notices } = quietHooks();
    const client = new FormClient({ elicitation: true });
    const answered = answerElicitation(ASK, { hooks, client, log: silentLogger() });
    await expect.poll(() => client.asked.length).toBe(1);
    client.answer({ action: "decline" });
    expect(await answered).toEqual({ action: "decline" });
    expect(
      notices().map((n) => (n.fields as { notification_type: string }).notification_type),
    ).toEqual(["elicitation_response"]);
  });
});

describe("a client that never answers the form", () => {
  afterEach(() => void vi.useRealTimers());

  it("is cancelled, and logged, once the deadline passes; the client's form is withdrawn", async () => {
    vi.useFakeTimers();
    const { hooks, notices } = quietHooks();
    const lines: string[] = [];
    const log = pino({ level: "warn" }, { write: (line: string) => void lines.push(line) });
    const signals: AbortSignal[] = [];
    const client = new (class extends FakeClient {
      override createElicitation(_p: ElicitationForm, signal?: AbortSignal): Promise<FormAnswer> {
        if (signal) signals.push(signal);
        return new Promise(() => {});
      }
    })({ elicitation: true });
    const answered = answerElicitation(ASK, { hooks, client, log });
    await vi.advanceTimersByTimeAsync(0);
    expect(signals).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(ELICITATION_DEADLINE_MS);
    expect(await answered).toEqual({ action: "cancel" });
    expect(signals[0]?.aborted).toBe(true);
    expect(lines.join("")).toContain("outlived its deadline");
    expect(notices().at(-1)?.fields).toMatchObject({ notification_type: "elicitation_response" });
  });
});

describe("the hooks an elicitation asks", () => {
  const report = {
    event: "Elicitation" as const,
    hookCallbackId: "answer-for-me",
    kind: "command" as const,
    outcome: "proceeded" as const,
    durationMs: 3,
  };
  const answering: ElicitationEnv["hooks"] = {
    emit: () => undefined,
    run: (event) =>
      Promise.resolve({
        ...noSteering(event),
        reports: [{ ...report, event }],
        ...(event === "Elicitation" && {
          elicitation: { action: "decline" as const, hookCallbackId: "answer-for-me" },
        }),
      }),
  };

  it("are reported on the tool call the question belongs to", async () => {
    const attached: unknown[] = [];
    const client = new FakeClient();
    const answer = await answerElicitation(
      { ...ASK, attachReports: (r) => Promise.resolve(void attached.push(...r)) },
      { hooks: answering, client, log: silentLogger() },
    );
    expect(answer).toEqual({ action: "decline" });
    expect(attached).toEqual([report]);
  });

  it("are logged when no single call owns the question, never dropped without a word", async () => {
    const lines: string[] = [];
    const log = pino({ level: "info" }, { write: (line: string) => void lines.push(line) });
    await answerElicitation(ASK, { hooks: answering, client: new FakeClient(), log });
    expect(lines.some((l) => l.includes("answer-for-me"))).toBe(true);
  });
});
