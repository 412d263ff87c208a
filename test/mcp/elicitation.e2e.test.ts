import { fileURLToPath } from "node:url";
import {
  methods,
  type CreateElicitationRequest,
  type CreateElicitationResponse,
  type McpServer,
} from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import type { HookEventParams } from "../../src/wire/hook-input.js";
import { initialize } from "../helpers/harness.js";
import { connectStdio } from "../helpers/stdio.js";
import { waitUntil } from "../helpers/wait.js";
import {
  finishedCalls,
  testClient,
  textOf,
  toolLine,
  workspace,
  type ClientScript,
  type Session,
} from "../agent/setup.js";

const SERVER: McpServer = {
  name: "elicit",
  command: process.execPath,
  args: [fileURLToPath(new URL("./fixtures/elicit.mjs", import.meta.url))],
  env: [],
};
const ASK = toolLine("mcp__elicit__ask", {});

/** Answers a hook run with Claude Code's Elicitation(Result) output. */
const answer = (event: string, out: Record<string, unknown>) => () => ({
  hookSpecificOutput: { hookEventName: event, ...out },
});

let session: Session | undefined;
afterEach(async () => {
  await session?.h.close();
  session = undefined;
});

/**
 * The built agent with a client that may declare form elicitation and answer it; every frame
 * the agent sends is checked against the ACP schema when the harness closes.
 */
async function start(
  script: ClientScript,
  form?: (req: CreateElicitationRequest) => CreateElicitationResponse,
): Promise<{ s: Session; asked: CreateElicitationRequest[] }> {
  const { app, seen } = testClient(script);
  const asked: CreateElicitationRequest[] = [];
  const client = form
    ? app.onRequest(methods.client.elicitation.create, ({ params }) => {
        asked.push(params);
        return form(params);
      })
    : app;
  const h = connectStdio(client, { args: ["--log-level", "warn"] });
  await initialize(h, {
    fs: { readTextFile: false, writeTextFile: false },
    terminal: false,
    ...(form && { elicitation: { form: {} } }),
  });
  session = { h, seen, cwd: workspace(), newSession: () => never(), prompt: () => never() };
  return { s: session, asked };
}

function never(): never {
  throw new Error("not used here");
}

/**
 * Opens a session with the elicit server and `hooks`, runs `ask`; the tool's text (`onDone`
 * sees the call's last update).
 */
async function runAsk(
  s: Session,
  hooks: Record<string, unknown>,
  onDone?: (done: ReturnType<typeof finishedCalls>[number]) => void,
): Promise<string> {
  const { sessionId } = await s.h.agent.request(methods.agent.session.new, {
    cwd: s.cwd,
    mcpServers: [SERVER],
    _meta: { hooks },
  });
  await s.h.agent.request(methods.agent.session.setMode, {
    sessionId,
    modeId: "bypassPermissions",
  });
  await s.h.agent.request(methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text: ASK }],
  });
  const [done] = finishedCalls(s.h.sessionUpdates(sessionId));
  if (done) onDone?.(done);
  return textOf(done);
}

const inputsOf = (events: HookEventParams[], event: string) =>
  events.filter((e) => e.input.hook_event_name === event).map((e) => e.input);

describe("an MCP server's elicitation", () => {
  it("is answered by an Elicitation hook's accept, and the tool gets its content", async () => {
    const { s, asked } = await start(
      { hooks: { ask: answer("Elicitation", { action: "accept", content: { target: "prod" } }) } },
      () => ({ action: "decline" }),
    );
    let meta: unknown;
    const text = await runAsk(
      s,
      { Elicitation: [{ matcher: "elicit", hookCallbackIds: ["ask"], blocking: true }] },
      (done) => (meta = done._meta),
    );
    expect(text).toBe('accept {"target":"prod"}');
    expect(asked).toEqual([]);
    // What the hook did is on the call it answered for, as a gate's report is.
    expect(meta).toMatchObject({
      hooks: [{ event: "Elicitation", hookCallbackId: "ask", outcome: "proceeded" }],
    });
    expect(s.seen.hookRuns[0]?.params.input).toMatchObject({
      hook_event_name: "Elicitation",
      mcp_server_name: "elicit",
      message: "Which target?",
      mode: "form",
      requested_schema: { type: "object", properties: { target: { type: "string" } } },
    });
  });

  it.each(["decline", "cancel"] as const)(
    "is answered %s by an Elicitation hook",
    async (action) => {
      const { s, asked } = await start(
        { hooks: { ask: answer("Elicitation", { action }) } },
        () => ({ action: "accept", content: { target: "client" } }),
      );
      const text = await runAsk(s, {
        Elicitation: [{ hookCallbackIds: ["ask"], blocking: true }],
      });
      expect(text.split(" ")[0]).toBe(action);
      expect(asked).toEqual([]);
    },
  );

  it("goes to a client that declared form elicitation, and its answer goes back", async () => {
    const { s, asked } = await start({}, () => ({
      action: "accept",
      content: { target: "from-client" },
    }));
    const text = await runAsk(s, {
      ElicitationResult: [{ hookCallbackIds: ["seen"] }],
      Notification: [{ matcher: "elicitation_response", hookCallbackIds: ["seen"] }],
    });
    expect(text).toBe('accept {"target":"from-client"}');
    expect(asked).toEqual([
      expect.objectContaining({
        mode: "form",
        message: "Which target?",
        requestedSchema: expect.objectContaining({ type: "object" }),
        toolCallId: expect.any(String),
      }),
    ]);
    await waitUntil("the Notification event", () =>
      s.seen.events.some((e) => e.input.hook_event_name === "Notification"),
    );
    expect(inputsOf(s.seen.events, "ElicitationResult")).toEqual([
      expect.objectContaining({ action: "accept", content: { target: "from-client" } }),
    ]);
    expect(inputsOf(s.seen.events, "Notification")).toEqual([
      expect.objectContaining({
        notification_type: "elicitation_response",
        message: 'Elicitation response for server "elicit": accept',
      }),
    ]);
  });

  it("is cancelled when the client did not declare elicitation (nobody can be asked)", async () => {
    const { s } = await start({});
    expect(await runAsk(s, {})).toBe("cancel null");
  });

  it("takes an ElicitationResult hook's new answer over the client's", async () => {
    const { s } = await start(
      { hooks: { after: answer("ElicitationResult", { action: "decline" }) } },
      () => ({ action: "accept", content: { target: "client" } }),
    );
    const text = await runAsk(s, {
      ElicitationResult: [{ hookCallbackIds: ["after"], blocking: true }],
    });
    expect(text).toBe("decline null");
  });
});
