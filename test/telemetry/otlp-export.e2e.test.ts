import { methods } from "@agentclientprotocol/sdk";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { startStdio, toolLine, type Session } from "../agent/setup.js";
import { startOtlpReceiver, type OtlpReceiver } from "../helpers/otlp-receiver.js";
import {
  logRecordsOf,
  metricPointsOf,
  resourceAttrsOf,
  spansOf,
  type SpanRecord,
} from "../helpers/otlp-json.js";
import { spansOfProtobuf } from "../helpers/otlp-protobuf.js";

let s: Session | undefined;
let receiver: OtlpReceiver | undefined;
afterEach(async () => {
  await s?.h.close();
  await receiver?.close();
  s = undefined;
  receiver = undefined;
});

const CLIENT_TRACE = "0af7651916cd43dd8448eb211c80319c";
const CLIENT_SPAN = "b7ad6b7169203331";

/** Every OTLP signal on, to `endpoint`, in `protocol`. */
function otelEnv(endpoint: string, protocol = "http/json") {
  return {
    OTEL_TRACES_EXPORTER: "otlp",
    OTEL_METRICS_EXPORTER: "otlp",
    OTEL_LOGS_EXPORTER: "otlp",
    OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    OTEL_SERVICE_NAME: "hookgate-under-test",
  };
}

/**
 * A turn with one allowed and one denied Bash call: `no-rm` denies `rm`, while `slow` never
 * answers on that call, so the deny wins the race and `slow` is cancelled.
 */
async function gatedTurn(env: Record<string, string>): Promise<string> {
  s = await startStdio(
    {
      hooks: {
        "no-rm": (p) =>
          JSON.stringify(p.input).includes("rm ")
            ? { decision: "deny", reason: "no rm in this repository" }
            : {},
        slow: (p, signal) =>
          JSON.stringify(p.input).includes("rm ")
            ? new Promise((resolve) => signal.addEventListener("abort", () => resolve({})))
            : {},
      },
    },
    { env },
  );
  const { sessionId } = await s.newSession({
    hooks: { PreToolUse: [{ matcher: "Bash", hookCallbackIds: ["no-rm", "slow"], timeout: 30 }] },
  });
  const text = [
    toolLine("Bash", { command: "echo allowed" }),
    toolLine("Bash", { command: "rm notes.txt" }),
  ].join("\n");
  const answer = await s.h.agent.request(methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text }],
    _meta: { traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01` },
  });
  expect(answer.stopReason).toBe("end_turn");
  // Closing stdin ends the agent, which flushes what it recorded before it exits.
  await s.h.close();
  s = undefined;
  return sessionId;
}

/**
 * One gated turn exported over http/json, run when a test first asks: its traces, metrics and
 * log records are what three tests read, so they share its process and receiver.
 */
let jsonRun: Promise<{ receiver: OtlpReceiver; sessionId: string }> | undefined;
let jsonReceiver: OtlpReceiver | undefined;
function jsonTurn() {
  jsonRun ??= startOtlpReceiver().then(async (receiver) => {
    jsonReceiver = receiver;
    return { receiver, sessionId: await gatedTurn(otelEnv(receiver.endpoint)) };
  });
  return jsonRun;
}
// The receiver closes whether or not the turn it served went well.
afterAll(() => jsonReceiver?.close());

const childrenOf = (spans: SpanRecord[], parent: SpanRecord) =>
  spans.filter((x) => x.parentSpanId === parent.spanId);

describe("OpenTelemetry export of a gated turn", () => {
  it("a turn with an allowed and a denied Bash call arrives as one trace: turn → tool calls → gate → hooks, the deny naming its handler and reason", async () => {
    const { receiver, sessionId } = await jsonTurn();
    const spans = spansOf(receiver.json("/v1/traces"));

    const turn = spans.find((x) => x.name === "invoke_agent hookgate");
    expect(turn).toBeDefined();
    // The client's traceparent parents the turn: the agent's spans join the IDE's trace.
    expect(turn!.traceId).toBe(CLIENT_TRACE);
    expect(turn!.parentSpanId).toBe(CLIENT_SPAN);
    expect(new Set(spans.map((x) => x.traceId))).toEqual(new Set([CLIENT_TRACE]));
    expect(turn!.attrs).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.conversation.id": sessionId,
      "hookgate.stop_reason": "end_turn",
    });
    // No prompt text unless OTEL_LOG_USER_PROMPTS says so.
    expect(turn!.attrs).not.toHaveProperty("hookgate.prompt");

    const underTurn = childrenOf(spans, turn!);
    expect(underTurn.filter((x) => x.name.startsWith("chat ")).length).toBeGreaterThanOrEqual(1);
    const tools = underTurn.filter((x) => x.name === "execute_tool Bash");
    expect(tools).toHaveLength(2);
    const [allowed, denied] = tools;
    expect(allowed!.attrs).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "Bash",
      "hookgate.tool.status": "completed",
    });
    expect(denied!.attrs).toMatchObject({ "hookgate.tool.status": "failed" });
    expect(denied!.attrs["gen_ai.tool.call.id"]).toEqual(expect.any(String));

    // The allowed call: gate passed (both hooks proceeded), then the user allowed it.
    const allowedSteps = childrenOf(spans, allowed!).map((x) => x.name);
    expect(allowedSteps).toEqual(["hookgate.gate PreToolUse", "hookgate.permission"]);
    const permission = childrenOf(spans, allowed!).find((x) => x.name === "hookgate.permission");
    expect(permission!.attrs).toMatchObject({ decision: "accept", source: "user_temporary" });

    // The denied call: the gate names the deciding hook and its reason; no permission step.
    const deniedSteps = childrenOf(spans, denied!);
    expect(deniedSteps.map((x) => x.name)).toEqual(["hookgate.gate PreToolUse"]);
    const gate = deniedSteps[0]!;
    expect(gate.attrs).toMatchObject({
      "hookgate.gate.verdict": "denied",
      "hookgate.hook.id": "no-rm",
      "hookgate.hook.reason": "no rm in this repository",
    });
    const hooks = childrenOf(spans, gate);
    const byId = Object.fromEntries(hooks.map((h) => [h.attrs["hookgate.hook.id"], h.attrs]));
    expect(byId["no-rm"]).toMatchObject({
      "hookgate.hook.event": "PreToolUse",
      "hookgate.hook.kind": "callback",
      "hookgate.hook.source": "client",
      "hookgate.hook.matcher": "Bash",
      "hookgate.hook.outcome": "denied",
      "hookgate.hook.decision": "deny",
      "hookgate.hook.reason": "no rm in this repository",
    });
    // The first deny won the race: its sibling ends with its label.
    expect(byId.slow).toMatchObject({ "hookgate.hook.outcome": "cancelled" });

    expect(resourceAttrsOf(receiver.json("/v1/traces"))[0]).toMatchObject({
      "service.name": "hookgate-under-test",
    });
  });

  it("the same turn's metrics count hook outcomes, tool decisions, sessions and turns, and time the gate and each handler", async () => {
    const { receiver } = await jsonTurn();
    const points = metricPointsOf(receiver.json("/v1/metrics"));
    const sum = (name: string, match: Record<string, unknown> = {}) =>
      points
        .filter((p) => p.name === name)
        .filter((p) => Object.entries(match).every(([k, v]) => p.attrs[k] === v))
        .reduce((n, p) => n + p.value, 0);

    expect(sum("hookgate.session.count", { "hookgate.session.opened": "new" })).toBe(1);
    expect(sum("hookgate.turn.count", { "hookgate.stop_reason": "end_turn" })).toBe(1);
    const outcome = { "hookgate.hook.event": "PreToolUse", "hookgate.hook.kind": "callback" };
    expect(
      sum("hookgate.hook.outcome.count", { ...outcome, "hookgate.hook.outcome": "denied" }),
    ).toBe(1);
    expect(
      sum("hookgate.hook.outcome.count", { ...outcome, "hookgate.hook.outcome": "cancelled" }),
    ).toBe(1);
    expect(
      sum("hookgate.hook.outcome.count", { ...outcome, "hookgate.hook.outcome": "proceeded" }),
    ).toBe(2);
    expect(
      sum("hookgate.tool.decision.count", { decision: "accept", source: "user_temporary" }),
    ).toBe(1);
    expect(sum("hookgate.tool.decision.count", { decision: "reject", source: "hook" })).toBe(1);
    expect(sum("hookgate.gate.duration")).toBe(2);
    expect(sum("hookgate.hook.duration")).toBe(4);
    // Bounded cardinality: these attributes only, never an id, an input or a reason.
    const keys = new Set(points.flatMap((p) => Object.keys(p.attrs)));
    expect([...keys].sort()).toEqual([
      "decision",
      "hookgate.gate.verdict",
      "hookgate.hook.event",
      "hookgate.hook.kind",
      "hookgate.hook.outcome",
      "hookgate.hook.source",
      "hookgate.session.opened",
      "hookgate.stop_reason",
      "source",
      "tool_name",
    ]);
  });

  it("the same turn's events carry Claude Code's tool_decision names, one hook_outcome per handler, and no tool input unless asked", async () => {
    const { receiver, sessionId } = await jsonTurn();
    const records = logRecordsOf(receiver.json("/v1/logs"));
    const decisions = records.filter((r) => r.attrs["event.name"] === "tool_decision");
    expect(decisions.map((r) => r.attrs)).toEqual([
      expect.objectContaining({
        "session.id": sessionId,
        tool_name: "Bash",
        decision: "accept",
        source: "user_temporary",
        tool_use_id: expect.any(String),
      }),
      expect.objectContaining({ tool_name: "Bash", decision: "reject", source: "hook" }),
    ]);
    for (const d of decisions) expect(d.attrs).not.toHaveProperty("tool_parameters");
    const outcomes = records.filter((r) => r.attrs["event.name"] === "hook_outcome");
    expect(outcomes).toHaveLength(4);
    expect(outcomes.map((r) => r.attrs)).toContainEqual(
      expect.objectContaining({
        hook_event_name: "PreToolUse",
        hook_callback_id: "no-rm",
        outcome: "denied",
        reason: "no rm in this repository",
        tool_name: "Bash",
      }),
    );
    const prompt = records.find((r) => r.attrs["event.name"] === "user_prompt");
    expect(prompt?.attrs).toMatchObject({ prompt_length: expect.any(Number) });
    expect(prompt?.attrs).not.toHaveProperty("prompt");
  });

  it("over http/protobuf (the default protocol) the same tree arrives: turn → denied tool call → gate → the denying hook", async () => {
    receiver = await startOtlpReceiver();
    await gatedTurn({ ...otelEnv(receiver.endpoint, "http/protobuf") });
    const bodies = receiver.requests.filter((r) => r.path === "/v1/traces");
    expect(bodies.map((r) => r.contentType)).toContain("application/x-protobuf");
    const spans = spansOfProtobuf(bodies.map((r) => r.body));
    const turn = spans.find((x) => x.name === "invoke_agent hookgate");
    expect(turn?.parentSpanId).toBe(CLIENT_SPAN);
    const denied = childrenOf(spans, turn!).find(
      (x) => x.name === "execute_tool Bash" && x.attrs["hookgate.tool.status"] === "failed",
    );
    const gate = childrenOf(spans, denied!).find((x) => x.name === "hookgate.gate PreToolUse");
    expect(gate?.attrs).toMatchObject({
      "hookgate.gate.verdict": "denied",
      "hookgate.hook.id": "no-rm",
    });
    const hooks = childrenOf(spans, gate!).map((h) => [
      h.attrs["hookgate.hook.id"],
      h.attrs["hookgate.hook.outcome"],
      h.attrs["hookgate.hook.reason"],
    ]);
    expect(hooks).toEqual(
      expect.arrayContaining([
        ["no-rm", "denied", "no rm in this repository"],
        ["slow", "cancelled", undefined],
      ]),
    );
  });
});
