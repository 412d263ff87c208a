import type { Timeline } from "../client/kit/spawn-agent.js";
import type { ToolCallRecord } from "../client/kit/timeline.js";
import { parseToolLines } from "../model/scripted-reply.js";
import type { OutcomeReport } from "../wire/hook-reports.js";
import { promptText, type CallDecision, type CallExpectation, type PolicyCase } from "./spec.js";
import { appendAll } from "../shared/values.js";

const DENIED = "Hook denied: ";

/** What happened to one tool call, as the client saw it. */
interface CallFacts {
  readonly tool: string;
  readonly decisions: ReadonlySet<CallDecision>;
  /** The hook that blocked the call, or the hooks that let it through. */
  readonly hooks: readonly string[];
  /** The deny reason, or the tool call's text when it was not denied. */
  readonly reason: string;
}

/** Every expectation of a case that the run did not meet, one sentence each. */
export function checkExpectations(
  test: PolicyCase,
  run: Timeline,
  exists: (path: string) => boolean,
): string[] {
  const { expect } = test;
  const failures: string[] = [];
  if (expect.calls) appendAll(failures, checkCalls(expect.calls, test, run));
  for (const path of expect.exists ?? []) {
    if (!exists(path)) failures.push(`${path} should exist, but does not`);
  }
  for (const path of expect.absent ?? []) {
    if (exists(path)) failures.push(`${path} should not exist, but does`);
  }
  const seen = run.modelContext.join("\n");
  for (const pattern of expect.context ?? []) {
    if (!new RegExp(pattern).test(seen)) failures.push(`the model never saw /${pattern}/`);
  }
  if (expect.agentText !== undefined && !new RegExp(expect.agentText).test(run.agentText)) {
    failures.push(
      `the agent's reply does not match /${expect.agentText}/: ${quote(run.agentText)}`,
    );
  }
  if (expect.stopReason !== undefined && run.stopReason !== expect.stopReason) {
    failures.push(`the turn ended with ${run.stopReason}, not ${expect.stopReason}`);
  }
  return failures;
}

function checkCalls(expected: readonly CallExpectation[], test: PolicyCase, run: Timeline) {
  const tools = parseToolLines(promptText(test.prompt)).calls.map((c) => c.toolName);
  const facts = run.toolCalls.map((call, i) => factsOf(call, tools[i] ?? "?", run));
  const failures: string[] = [];
  if (facts.length !== expected.length) {
    failures.push(`expected ${expected.length} tool call(s), the model made ${facts.length}`);
  }
  expected.forEach((want, i) => {
    const got = facts[i];
    if (got === undefined) return;
    const where = `call ${i + 1} (${got.tool})`;
    if (want.tool !== undefined && want.tool !== got.tool) {
      failures.push(`${where}: expected a ${want.tool} call`);
    }
    const decisions = typeof want.decision === "string" ? [want.decision] : (want.decision ?? []);
    for (const decision of decisions) {
      if (!got.decisions.has(decision)) {
        failures.push(`${where}: expected ${decision}, but it was ${describe(got)}`);
      }
    }
    if (want.hook !== undefined && !got.hooks.some((id) => id.endsWith(want.hook ?? ""))) {
      const by = got.hooks.length === 0 ? "no hook" : got.hooks.join(", ");
      failures.push(`${where}: expected hook ${want.hook} to decide, but it was ${by}`);
    }
    if (want.reason !== undefined && !new RegExp(want.reason).test(got.reason)) {
      failures.push(`${where}: the reason ${quote(got.reason)} does not match /${want.reason}/`);
    }
  });
  return failures;
}

function factsOf(call: ToolCallRecord, tool: string, run: Timeline): CallFacts {
  const denied = call.status === "failed" && call.text.startsWith(DENIED);
  const decisions = new Set<CallDecision>([denied ? "denied" : "allowed"]);
  if (run.permissions.some((p) => p.request.toolCall.toolCallId === call.toolCallId)) {
    decisions.add("asked");
  }
  if (!denied && JSON.stringify(call.requestedInput) !== JSON.stringify(call.rawInput)) {
    decisions.add("rewritten");
  }
  return {
    tool,
    decisions,
    hooks: denied ? blockers(call.hooks) : passed(call.hooks),
    reason: denied ? call.text.slice(DENIED.length) : call.text,
  };
}

/** The hook whose deny stood: a `denied` label, else a failure that its group turned into a deny. */
function blockers(reports: readonly OutcomeReport[]): string[] {
  const denied = reports.filter((r) => r.outcome === "denied");
  const failed = reports.filter((r) => r.outcome !== "proceeded" && r.outcome !== "cancelled");
  return (denied.length > 0 ? denied : failed).map((r) => r.hookCallbackId);
}

function passed(reports: readonly OutcomeReport[]): string[] {
  return reports.filter((r) => r.outcome === "proceeded").map((r) => r.hookCallbackId);
}

function describe(facts: CallFacts): string {
  const list = [...facts.decisions].join(" and ");
  return facts.decisions.has("denied") ? `${list}: ${quote(facts.reason)}` : list;
}

function quote(text: string): string {
  const line = text.trim().split("\n")[0] ?? "";
  return JSON.stringify(line.length > 120 ? `${line.slice(0, 119)}…` : line);
}
