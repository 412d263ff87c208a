// The conversation: messages as they stream, and a card per tool call with its hooks.
import { $, el, pretty } from "./dom.js";

export const cards = new Map();
export const toolNames = new Map();
let lastText = undefined;

export function append(node) {
  $("conversation").append(node);
  lastText = undefined;
}

export function addText(kind, text) {
  if (lastText?.kind !== kind) {
    const label = { agent: "Agent", thought: "Thought", user: "You" }[kind];
    const body = el("span", {}, "");
    append(el("p", { class: kind }, el("strong", {}, `${label}: `), body));
    lastText = { kind, body };
  }
  lastText.body.textContent += text;
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
  let entry = cards.get(toolCallId);
  if (!entry) {
    const heading = el("h3", { id: `card-${toolCallId}-title` }, "");
    const status = el("p", { class: "status" }, "");
    const input = el("pre", {}, "");
    const output = el("pre", {}, "");
    const hooks = el("ol", { class: "hooks", "aria-label": "Hooks" });
    const node = el(
      "article",
      { "aria-labelledby": heading.id, class: "card" },
      heading,
      status,
      input,
      hooks,
      output,
    );
    entry = { node, heading, status, input, output, hooks, sessionId, call: { toolCallId } };
    cards.set(toolCallId, entry);
    append(node);
  }
  return entry;
}

function renderCard(entry) {
  const { call } = entry;
  const name = toolNames.get(call.toolCallId) ?? call.kind ?? "tool";
  entry.heading.textContent = `${name}: ${call.title ?? ""}`;
  entry.status.textContent = `status: ${call.status ?? "pending"}`;
  entry.node.dataset.status = call.status ?? "pending";
  entry.input.textContent = call.rawInput === undefined ? "" : pretty(call.rawInput);
  entry.output.textContent = contentText(call.content);
  const reports = call._meta?.hooks ?? [];
  const gateMs = call._meta?.hooksGateMs ?? Math.max(0, ...reports.map((r) => r.durationMs));
  entry.hooks.replaceChildren(
    ...reports.map((report) => {
      const share = gateMs > 0 ? Math.min(100, (report.durationMs / gateMs) * 100) : 0;
      return el(
        "li",
        { class: `hook ${report.outcome}` },
        el("span", { class: "id" }, report.hookCallbackId),
        el("span", { class: "kind" }, report.kind),
        el("span", { class: "outcome" }, report.outcome),
        answerOf(call.toolCallId, report),
        el("span", { class: "ms" }, `${report.durationMs.toFixed(1)} ms`),
        el(
          "span",
          { class: "track", "aria-hidden": "true" },
          el("span", { class: "bar", "data-share": share.toFixed(1) }),
        ),
      );
    }),
  );
  // Bars are sized from script (the CSP allows no inline style attributes).
  for (const bar of entry.hooks.querySelectorAll(".bar")) {
    bar.style.width = `${bar.dataset.share}%`;
  }
  if (reports.length > 0) {
    entry.hooks.setAttribute("aria-label", `Hooks (gate ${gateMs.toFixed(1)} ms)`);
  }
}

export function onUpdate({ sessionId, update }) {
  switch (update.sessionUpdate) {
    case "agent_message_chunk":
      if (update.content?.type === "text") addText("agent", update.content.text);
      return;
    case "agent_thought_chunk":
      if (update.content?.type === "text") addText("thought", update.content.text);
      return;
    case "user_message_chunk":
      if (update.content?.type === "text") addText("user", update.content.text);
      return;
    case "plan":
      append(
        el(
          "ol",
          { class: "plan", "aria-label": "Plan" },
          update.entries.map((e) => el("li", {}, `${e.status}: ${e.content}`)),
        ),
      );
      return;
    case "tool_call":
    case "tool_call_update": {
      const entry = card(update.toolCallId, sessionId);
      for (const [key, value] of Object.entries(update)) {
        if (value !== undefined && value !== null) entry.call[key] = value;
      }
      renderCard(entry);
      return;
    }
    default:
      return;
  }
}

/** What the page answered at a call's gate, shown on the page callback's row. */
const answers = new Map();

function answerOf(toolCallId, report) {
  const answer = report.kind === "callback" ? answers.get(toolCallId) : undefined;
  if (!answer) return el("span", { class: "answer" }, "");
  return el("span", { class: "answer" }, `${answer.decision}: ${answer.reason}`);
}

export function setAnswer({ toolUseId, decision, reason }) {
  answers.set(toolUseId, { decision, reason });
  const entry = cards.get(toolUseId);
  if (entry) renderCard(entry);
}

/** The gate told us a call's tool name (ACP's tool_call carries none). */
export function setToolName({ toolUseId, toolName }) {
  toolNames.set(toolUseId, toolName);
  const entry = cards.get(toolUseId);
  if (entry) renderCard(entry);
}
