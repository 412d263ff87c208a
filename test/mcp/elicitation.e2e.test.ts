import {
  methods,
  type CreateElicitationRequest,
  type CreateElicitationResponse,
  type McpServer,
} from "@agentclientprotocol/sdk";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { HookEventParams } from "../../src/wire/hook-input.js";
import { initialize } from "../helpers/harness.js";
import { connectStdio } from "../helpers/stdio.js";
import { waitUntil } from "../helpers/wait.js";
import {
  finishedCalls,
  settleAll,
  startInProcess,
  testClient,
  textOf,
  throwNewViolations,
  toolLine,
  workspace,
  type ClientScript,
  type HookHandler,
  type Session,
} from "../agent/setup.js";
import { ELICIT_BUNDLE } from "./fixture-bundle.js";
import { bundledFixture } from "./helpers.js";

const SERVER: McpServer = {
  name: "elicit",
  command: process.execPath,
  args: [bundledFixture(ELICIT_BUNDLE)],
  env: [],
};
const ASK = toolLine("mcp__elicit__ask", {});

/** Answers a hook run with Claude Code's Elicitation(Result) output. */
const answer = (event: string, out: Record<string, unknown>) => () => ({
  hookSpecificOutput: { hookEventName: event, ...out },
});

type FormAnswer = (req: CreateElicitationRequest) => CreateElicitationResponse;

let session: Session | undefined;
/** Sessions the current test opened on the shared agent, closed (ending their servers) after it. */
const opened: string[] = [];
afterEach(async () => {
  const own = session;
  session = undefined;
  const s = await shared;
  await settleAll([
    own?.h.close(),
    ...opened
      .splice(0)
      .map((sessionId) => s?.h.agent.request(methods.agent.session.close, { sessionId })),
  ]);
  if (s) throwNewViolations(s.h);
});
afterAll(async () => (await shared)?.h.close());

/**
 * The built agent with a client that may declare form elicitation and answer it; every frame
 * the agent sends is checked against the ACP schema when the harness closes.
 */
async function connect(script: ClientScript, form?: FormAnswer): Promise<Session> {
  const { app, seen } = testClient(script);
  const client = form
    ? app.onRequest(methods.client.elicitation.create, ({ params }) => form(params))
    : app;
  const h = connectStdio(client, { args: ["--log-level", "warn"] });
  await initialize(h, {
    fs: { readTextFile: false, writeTextFile: false },
    terminal: false,
    ...(form && { elicitation: { form: {} } }),
  });
  return { h, seen, cwd: workspace(), newSession: () => never(), prompt: () => never() };
}

/**
 * One agent for every test whose client declares form elicitation (a start per test cost more
 * than most tests): its client answers with the hooks and the form answer `start` last set.
 */
let shared: Promise<Session> | undefined;
const current: { hooks: Record<string, HookHandler>; form: FormAnswer } = {
  hooks: {},
  form: () => never(),
};

/**
 * An agent whose client answers `_hooks/run` as `script` says and, with `form`, declares form
 * elicitation and answers it so (the shared process; without, an agent in this process); what it was asked starts empty. What the client saw holds
 * other tests' sessions too: read it by the test's session id.
 */
async function start(
  script: ClientScript,
  form?: FormAnswer,
): Promise<{ s: Session; asked: CreateElicitationRequest[] }> {
  if (!form) {
    // Without elicitation declared the session cancels it: an agent in this process says so.
    session = await startInProcess(script);
    return { s: session, asked: [] };
  }
  const asked: CreateElicitationRequest[] = [];
  for (const id of Object.keys(current.hooks)) delete current.hooks[id];
  Object.assign(current.hooks, script.hooks);
  current.form = (req) => {
    asked.push(req);
    return form(req);
  };
  shared ??= connect({ hooks: current.hooks }, (req) => current.form(req));
  return { s: await shared, asked };
}

function never(): never {
  throw new Error("not used here");
}

/**
 * Opens a session with the elicit server and `hooks`, runs `ask`; the tool's text and the
 * session's id (`onDone` sees the call's last update).
 */
async function runAsk(
  s: Session,
  hooks: Record<string, unknown>,
  onDone?: (done: ReturnType<typeof finishedCalls>[number]) => void,
): Promise<{ text: string; sessionId: string }> {
  const { sessionId } = await s.h.agent.request(methods.agent.session.new, {
    cwd: s.cwd,
    mcpServers: [SERVER],
    _meta: { hooks },
  });
  if (s !== session) opened.push(sessionId);
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
  return { text: textOf(done), sessionId };
}

/** The inputs of `sessionId`'s `event` events the client saw. */
const inputsOf = (events: HookEventParams[], sessionId: string, event: string) =>
  events
    .filter((e) => e.sessionId === sessionId && e.input.hook_event_name === event)
    .map((e) => e.input);

describe("an MCP server's elicitation", () => {
  it("is answered by an Elicitation hook's accept, and the tool gets its content", async () => {
    const { s, asked } = await start(
      { hooks: { ask: answer("Elicitation", { action: "accept", content: { target: "prod" } }) } },
      () => ({ action: "decline" }),
    );
    let meta: unknown;
    const { text, sessionId } = await runAsk(
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
    const runs = s.seen.hookRuns.filter((r) => r.params.sessionId === sessionId);
    expect(runs[0]?.params.input).toMatchObject({
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
      const { text } = await runAsk(s, {
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
    const { text, sessionId } = await runAsk(s, {
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
    await waitUntil(
      "the Notification event",
      () => inputsOf(s.seen.events, sessionId, "Notification").length > 0,
    );
    expect(inputsOf(s.seen.events, sessionId, "ElicitationResult")).toEqual([
      expect.objectContaining({ action: "accept", content: { target: "from-client" } }),
    ]);
    expect(inputsOf(s.seen.events, sessionId, "Notification")).toEqual([
      expect.objectContaining({
        notification_type: "elicitation_response",
        message: 'Elicitation response for server "elicit": accept',
      }),
    ]);
  });

  it("is cancelled when the client did not declare elicitation (nobody can be asked)", async () => {
    const { s } = await start({});
    expect((await runAsk(s, {})).text).toBe("cancel null");
  });

  it("takes an ElicitationResult hook's new answer over the client's", async () => {
    const { s } = await start(
      { hooks: { after: answer("ElicitationResult", { action: "decline" }) } },
      () => ({ action: "accept", content: { target: "client" } }),
    );
    const { text } = await runAsk(s, {
      ElicitationResult: [{ hookCallbackIds: ["after"], blocking: true }],
    });
    expect(text).toBe("decline null");
  });
});
