// The conversation: messages as they stream, and a card per tool call with its hooks, each in
// its session's view (cards are keyed by session and tool call id: ids repeat across sessions).
import { el, pretty } from "./dom.js";
import { callAxis } from "./call-axis.js";
import { showCall, showHook } from "./detail.js";
import { latestEventFrames } from "./frames.js";
import { logGate } from "./log.js";
import { noteStep } from "./turn-axis.js";
import { axis, hookRow, place, stepRow } from "./waterfall.js";
import { nameSession, relabel, shownView, uniqueId, viewOf } from "./sessions.js";

/** Appends to the session's view (or, for a message of no session, the one shown). */
export function append(node, sessionId) {
  const view = sessionId === undefined ? shownView() : viewOf(sessionId);
  if (!view) return;
  view.node.append(node);
  view.lastText = undefined;
}

export function addText(kind, text, sessionId) {
  const view = viewOf(sessionId);
  if (view.lastText?.kind !== kind) {
    const label = { agent: "Agent", thought: "Thought", user: "You" }[kind];
    const body = el("span", {}, "");
    append(el("p", { class: kind }, el("strong", {}, `${label}: `), body), sessionId);
    view.lastText = { kind, body };
  }
  view.lastText.body.textContent += text;
  if (kind === "user") nameSession(sessionId, view.lastText.body.textContent);
}

function contentText(content) {
  return (content ?? [])
    .map((block) =>
      block.type === "content" && block.content?.type === "text" ? block.content.text : "",
    )
    .filter((text) => text !== "")
    .join("\n");
}

function card(toolCallId, sessionId) {
  const view = viewOf(sessionId);
  let entry = view.cards.get(toolCallId);
  if (!entry) {
    const heading = el("h3", { id: uniqueId("card") }, "");
    const status = el("p", { class: "status" }, "");
    const details = el(
      "button",
      { type: "button", class: "call-details", "aria-controls": "detail" },
      "Call details",
    );
    const input = el("pre", {}, "");
    const output = el("pre", {}, "");
    const hooks = el("ol", { class: "hooks", "aria-label": "Hooks" });
    const columns = el("div", { class: "hook head", hidden: "" });
    const after = el("ol", { class: "hooks", "aria-label": "PostToolUse hooks", hidden: "" });
    const node = el(
      "article",
      { "aria-labelledby": heading.id, class: "card" },
      heading,
      status,
      details,
      input,
      columns,
      hooks,
      output,
      after,
    );
    const call = { toolCallId };
    entry = { node, heading, status, input, output, columns, hooks, after, view, call };
    Object.assign(entry, { sessionId, toolCallId, gate: [] });
    details.addEventListener("click", () => select(details, () => showCall(entry, entry.gate)));
    view.cards.set(toolCallId, entry);
    append(node, sessionId);
  }
  return entry;
}

/**
 * Reports of these events belong to their tool call's card; others to the turn (the wire's
 * CALL_REPORT_EVENTS, src/wire/meta.ts: the page is served as is and imports nothing of it).
 */
const CALL_EVENTS = new Set([
  "PostToolUse",
  "PostToolUseFailure",
  "PermissionRequest",
  "Elicitation",
  "ElicitationResult",
]);
const TOOL_EVENTS = new Set(["PostToolUse", "PostToolUseFailure"]);
const ownReport = (report) => report.event === undefined || CALL_EVENTS.has(report.event);

/** The column headers over a list of hook rows, the last one the time axis. */
function columnHeads(spanMs) {
  const names = ["hook", "kind", "matcher", "outcome", "reason", "time"];
  return [...names.map((name) => el("span", {}, name)), axis(spanMs)];
}

/** Marks the selected control (one in the page) and fills the detail pane. */
function select(button, fill) {
  for (const other of document.querySelectorAll("[aria-controls=detail][aria-current]")) {
    other.removeAttribute("aria-current");
  }
  button.setAttribute("aria-current", "true");
  fill();
}

/** Hook rows whose id selects the hook: `context` says where it ran (session, call, gate). */
function rowsOf(items, spanMs, context) {
  return items.map((item) => {
    const row = hookRow(item, spanMs, (event) =>
      select(event.currentTarget, () => showHook({ ...context, ...item })),
    );
    // A click anywhere on the row selects it too; the keyboard uses the id's button.
    const button = row.querySelector("button");
    row.addEventListener("click", (event) => event.target !== button && button.click());
    return row;
  });
}

const longest = (reports) => Math.max(0, ...reports.map((r) => r.durationMs));

function renderCard(entry) {
  const { call } = entry;
  const name = entry.toolName ?? call.kind ?? "tool";
  entry.heading.textContent = `${name}: ${call.title ?? ""}`;
  entry.status.textContent = `status: ${call.status ?? "pending"}`;
  entry.node.dataset.status = call.status ?? "pending";
  entry.input.textContent = call.rawInput === undefined ? "" : pretty(call.rawInput);
  entry.outputText = contentText(call.content);
  entry.output.textContent = entry.outputText;
  const reports = (call._meta?.hooks ?? []).filter(ownReport);
  const gate = reports.filter((r) => r.event === undefined);
  const after = reports.filter((r) => r.event !== undefined);
  const gateMs = call._meta?.hooksGateMs ?? longest(gate);
  entry.gate = gate;
  entry.denied = gate.some((r) => r.outcome === "denied");
  relabel(entry.view);
  // One axis for the whole call: the gate's hooks, its total, the permission step, then the
  // PostToolUse hooks (asked one after another, each seeing the output the last one left).
  const { sessionId, toolCallId } = entry;
  const line = callAxis({ sessionId, toolCallId, gate, gateMs, after, afterAt: entry.afterAt });
  const context = { sessionId, toolUseId: toolCallId, gateMs };
  const steps = [];
  if (gate.length > 0) {
    const denied = entry.denied || entry.outputText.startsWith("Hook denied: ");
    const decided = denied ? "denied" : "proceeded";
    steps.push(stepRow("gate (total)", decided, 0, gateMs, line.spanMs));
  }
  const { permission } = line;
  if (permission) {
    steps.push(
      stepRow(
        "permission",
        permission.outcome,
        permission.startMs,
        permission.lengthMs,
        line.spanMs,
      ),
    );
  }
  const { run } = line;
  if (run)
    steps.push(stepRow("tool ran", call.status ?? "", run.startMs, run.lengthMs, line.spanMs));
  entry.hooks.replaceChildren(...rowsOf(line.gate, line.spanMs, context), ...steps);
  entry.columns.replaceChildren(...columnHeads(line.spanMs));
  entry.columns.hidden = gate.length === 0 && after.length === 0;
  if (gate.length > 0) {
    entry.hooks.setAttribute("aria-label", `Hooks (gate ${gateMs.toFixed(1)} ms)`);
  }
  entry.after.replaceChildren(...rowsOf(line.after, line.spanMs, context));
  entry.after.hidden = after.length === 0;
  const event = after[0]?.event ?? "PostToolUse";
  const afterMs = after.reduce((sum, r) => sum + r.durationMs, 0);
  entry.after.setAttribute("aria-label", `${event} hooks (${afterMs.toFixed(1)} ms)`);
  place(entry.node);
  // The whole call is one step on its turn's axis.
  if (line.startAt !== undefined) {
    const step = { name: entry.heading.textContent, outcome: entry.node.dataset.status };
    noteStep(sessionId, `call ${toolCallId}`, {
      ...step,
      startAt: line.startAt,
      lengthMs: line.spanMs,
    });
  }
}

/**
 * Hooks of the turn's other events (UserPromptSubmit, SessionStart, Stop...) ride on whichever
 * update comes next: each event's rows go in the conversation where they arrived.
 */
function turnHooks(reports, sessionId, at) {
  const byEvent = new Map();
  for (const report of reports) {
    const event = report.event ?? "Hooks";
    byEvent.set(event, [...(byEvent.get(event) ?? []), report]);
  }
  for (const [event, list] of byEvent) {
    const ms = longest(list);
    // A step of the turn's axis, from when the event's hooks were asked (they run at once).
    if (event !== "SessionStart") {
      const startAt = latestEventFrames(sessionId, event)?.request.at ?? at - ms;
      const outcome = list.some((r) => r.outcome === "denied") ? "denied" : "proceeded";
      noteStep(sessionId, `${event} ${startAt}`, {
        name: `${event} hooks`,
        outcome,
        startAt,
        lengthMs: ms,
      });
    }
    const rows = el("ol", { class: "hooks", "aria-label": `${event} hooks (${ms.toFixed(1)} ms)` });
    const items = list.map((report) => ({ report, startMs: 0 }));
    rows.append(...rowsOf(items, ms, { sessionId }));
    const heads = el("div", { class: "hook head" }, columnHeads(ms));
    const section = el(
      "section",
      { class: "turn-hooks" },
      el("h3", {}, `${event} hooks`),
      heads,
      rows,
    );
    place(section);
    append(section, sessionId);
  }
}

export function onUpdate({ sessionId, update, at }) {
  const isCall =
    update.sessionUpdate === "tool_call" || update.sessionUpdate === "tool_call_update";
  const reports = update._meta?.hooks ?? [];
  const others = isCall ? reports.filter((r) => !ownReport(r)) : reports;
  if (others.length > 0) turnHooks(others, sessionId, at);
  switch (update.sessionUpdate) {
    case "agent_message_chunk":
      if (update.content?.type === "text") addText("agent", update.content.text, sessionId);
      return;
    case "agent_thought_chunk":
      if (update.content?.type === "text") addText("thought", update.content.text, sessionId);
      return;
    case "user_message_chunk":
      if (update.content?.type === "text") addText("user", update.content.text, sessionId);
      return;
    case "plan":
      append(
        el(
          "ol",
          { class: "plan", "aria-label": "Plan" },
          update.entries.map((e) => el("li", {}, `${e.status}: ${e.content}`)),
        ),
        sessionId,
      );
      return;
    case "session_info_update":
      if (typeof update.title === "string")
        nameSession(sessionId, update.title, { fromAgent: true });
      return;
    case "tool_call":
    case "tool_call_update": {
      const entry = card(update.toolCallId, sessionId);
      // When the PostToolUse reports first arrived: those hooks had just ended (call-axis.js).
      const late = (update._meta?.hooks ?? []).some((r) => TOOL_EVENTS.has(r.event));
      if (late && entry.afterAt === undefined) entry.afterAt = at;
      for (const [key, value] of Object.entries(update)) {
        if (value !== undefined && value !== null) entry.call[key] = value;
      }
      // ACP's tool call has no name: the agent gives it in `_meta.claudeCode.toolName`.
      const toolName = update._meta?.claudeCode?.toolName;
      if (typeof toolName === "string") entry.toolName = toolName;
      renderCard(entry);
      // The gate's decision goes to the Events log once, when its reports first arrive.
      const gate = (update._meta?.hooks ?? []).filter((r) => r.event === undefined);
      if (gate.length > 0 && !entry.gateLogged) {
        entry.gateLogged = true;
        logGate({ at, sessionId, toolName: entry.toolName ?? entry.call.kind, reports: gate });
      }
      return;
    }
    default:
      return;
  }
}
