// The Events log (every _hooks/event, filterable) and the Traffic log (raw frames).
import { $, el } from "./dom.js";
import { indexFrame } from "./frames.js";

const EVENTS = [
  "PreToolUse",
  "SessionStart",
  "UserPromptSubmit",
  "PostToolUse",
  "PostToolUseFailure",
  "PermissionRequest",
  "Notification",
  "Stop",
  "PreCompact",
  "SessionEnd",
];
$("events-event").append(...EVENTS.map((name) => el("option", { value: name }, name)));

/** Entries per outcome, for the counts above the log. */
const counts = new Map();

function shown(item) {
  const event = $("events-event").value;
  const tool = $("events-tool").value.trim();
  return (
    (event === "" || item.dataset.event === event) && (tool === "" || item.dataset.tool === tool)
  );
}

function filterEvents() {
  for (const item of $("events").children) item.hidden = !shown(item);
}
$("events-event").addEventListener("change", filterEvents);
$("events-tool").addEventListener("input", filterEvents);

function showCounts() {
  $("events-counts").textContent = [...counts].map(([outcome, n]) => `${outcome} ${n}`).join(" · ");
}

/** One entry: when, which session, what happened, and what was decided (or observed). */
function addEntry({ at, sessionId, event, tool, detail, outcome }) {
  const time = new Date(at ?? Date.now()).toLocaleTimeString([], { hour12: false });
  const what = [event, tool, detail].filter(Boolean).join(" ");
  const item = el(
    "li",
    { "data-event": event, "data-tool": tool ?? "", "data-outcome": outcome },
    el("time", {}, time),
    el("span", { class: "session", title: sessionId ?? "" }, (sessionId ?? "").slice(0, 8)),
    el("span", { class: "what" }, what),
    el("span", { class: `outcome ${outcome}` }, outcome),
  );
  item.hidden = !shown(item);
  $("events").append(item);
  counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
  showCounts();
}

/** An observer's event: notified, or for a failed tool `failed`. */
export function logEvent({ event, input, at }) {
  addEntry({
    at,
    sessionId: input.session_id,
    event,
    tool: input.tool_name,
    detail: [input.stop_reason, input.source].filter(Boolean).join(" "),
    outcome: event === "PostToolUseFailure" ? "failed" : "observed",
  });
}

/** A tool call's PreToolUse gate, once its hooks reported: the decision that came of it. */
export function logGate({ at, sessionId, toolName, reports }) {
  const outcomes = reports.map((r) => r.outcome);
  const decided = outcomes.includes("denied")
    ? "denied"
    : (outcomes.find((o) => o !== "proceeded" && o !== "cancelled") ?? "proceeded");
  addEntry({ at, sessionId, event: "PreToolUse", tool: toolName, outcome: decided });
}

const TRAFFIC_KEPT = 500;

let frames = 0;

/** A frame's row; the detail pane links a hook to the rows of its request and reply. */
export function logFrame(frame) {
  const list = $("traffic");
  const id = `frame-${++frames}`;
  indexFrame(frame, id);
  list.append(
    el(
      "li",
      { id, tabindex: "-1" },
      el("span", {}, `${frame.direction} `),
      el("pre", {}, JSON.stringify(frame.message)),
    ),
  );
  while (list.children.length > TRAFFIC_KEPT) list.firstElementChild.remove();
}
