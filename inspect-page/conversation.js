// The conversation: messages as they stream, and a card per tool call with its hooks, each in
// its session's view (cards are keyed by session and tool call id: ids repeat across sessions).
import { el, pretty } from "./dom.js";
import { logGate } from "./log.js";
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
    const input = el("pre", {}, "");
    const output = el("pre", {}, "");
    const hooks = el("ol", { class: "hooks", "aria-label": "Hooks" });
    const columns = el(
      "div",
      { class: "hook head", hidden: "" },
      ["hook", "kind", "matcher", "outcome", "reason", "time", ""].map((name) =>
        el("span", {}, name),
      ),
    );
    const after = el("ol", { class: "hooks", "aria-label": "PostToolUse hooks", hidden: "" });
    const node = el(
      "article",
      { "aria-labelledby": heading.id, class: "card" },
      heading,
      status,
      input,
      columns,
      hooks,
      output,
      after,
    );
    const call = { toolCallId };
    entry = { node, heading, status, input, output, columns, hooks, after, view, call };
    view.cards.set(toolCallId, entry);
    append(node, sessionId);
  }
  return entry;
}

/** Reports of these events belong to their tool call's card; others to the turn. */
const TOOL_EVENTS = new Set(["PostToolUse", "PostToolUseFailure"]);
const ownReport = (report) => report.event === undefined || TOOL_EVENTS.has(report.event);

/**
 * One row per hook, drawn as a waterfall against `scaleMs`: hooks asked at once start
 * together; hooks asked one after another (`sequential`) each start where the last ended.
 */
function hookRows(reports, scaleMs, sequential) {
  let start = 0;
  return reports.map((report) => {
    const offset = sequential ? start : 0;
    start += report.durationMs;
    const share = (ms) => (scaleMs > 0 ? Math.min(100, (ms / scaleMs) * 100) : 0);
    return el(
      "li",
      { class: `hook ${report.outcome}` },
      // Never wrapped mid-token: cut with an ellipsis, the whole id on hover and on focus.
      el(
        "span",
        { class: "id", title: report.hookCallbackId, tabindex: "0" },
        report.hookCallbackId,
      ),
      el("span", { class: "kind" }, report.kind),
      el(
        "span",
        { class: "matcher" },
        report.matcher === undefined ? "" : `matcher ${report.matcher}`,
      ),
      el("span", { class: "outcome" }, report.outcome),
      el("span", { class: "reason" }, report.reason ?? ""),
      el("span", { class: "ms" }, `${report.durationMs.toFixed(1)} ms`),
      el(
        "span",
        { class: "track", "aria-hidden": "true" },
        el("span", {
          class: "bar",
          "data-offset": share(offset).toFixed(1),
          "data-share": share(report.durationMs).toFixed(1),
        }),
      ),
      report.warning === undefined ? null : el("span", { class: "warning" }, `⚠ ${report.warning}`),
    );
  });
}

/** Bars are placed from script: the CSP allows no inline style attributes. */
function placeBars(list) {
  for (const bar of list.querySelectorAll(".bar")) {
    bar.style.marginLeft = `${bar.dataset.offset}%`;
    bar.style.width = `${bar.dataset.share}%`;
  }
}

const total = (reports) => reports.reduce((sum, r) => sum + r.durationMs, 0);
const longest = (reports) => Math.max(0, ...reports.map((r) => r.durationMs));

function renderCard(entry) {
  const { call } = entry;
  const name = entry.toolName ?? call.kind ?? "tool";
  entry.heading.textContent = `${name}: ${call.title ?? ""}`;
  entry.status.textContent = `status: ${call.status ?? "pending"}`;
  entry.node.dataset.status = call.status ?? "pending";
  entry.input.textContent = call.rawInput === undefined ? "" : pretty(call.rawInput);
  entry.output.textContent = contentText(call.content);
  const reports = (call._meta?.hooks ?? []).filter(ownReport);
  const gate = reports.filter((r) => r.event === undefined);
  const gateMs = call._meta?.hooksGateMs ?? longest(gate);
  entry.denied = gate.some((r) => r.outcome === "denied");
  relabel(entry.view);
  entry.hooks.replaceChildren(...hookRows(gate, gateMs, false));
  entry.columns.hidden = gate.length === 0;
  placeBars(entry.hooks);
  if (gate.length > 0) {
    entry.hooks.setAttribute("aria-label", `Hooks (gate ${gateMs.toFixed(1)} ms)`);
  }
  // PostToolUse hooks are asked one after another, each seeing the output the last one left.
  const after = reports.filter((r) => r.event !== undefined);
  entry.after.replaceChildren(...hookRows(after, total(after), true));
  placeBars(entry.after);
  entry.after.hidden = after.length === 0;
  const event = after[0]?.event ?? "PostToolUse";
  entry.after.setAttribute("aria-label", `${event} hooks (${total(after).toFixed(1)} ms)`);
}

/**
 * Hooks of the turn's other events (UserPromptSubmit, SessionStart, Stop...) ride on whichever
 * update comes next: each event's rows go in the conversation where they arrived.
 */
function turnHooks(reports, sessionId) {
  const byEvent = new Map();
  for (const report of reports) {
    const event = report.event ?? "Hooks";
    byEvent.set(event, [...(byEvent.get(event) ?? []), report]);
  }
  for (const [event, list] of byEvent) {
    const ms = longest(list);
    const rows = el("ol", { class: "hooks", "aria-label": `${event} hooks (${ms.toFixed(1)} ms)` });
    rows.append(...hookRows(list, ms, false));
    placeBars(rows);
    append(el("section", { class: "turn-hooks" }, el("h3", {}, `${event} hooks`), rows), sessionId);
  }
}

export function onUpdate({ sessionId, update, at }) {
  const isCall =
    update.sessionUpdate === "tool_call" || update.sessionUpdate === "tool_call_update";
  const reports = update._meta?.hooks ?? [];
  const others = isCall ? reports.filter((r) => !ownReport(r)) : reports;
  if (others.length > 0) turnHooks(others, sessionId);
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
