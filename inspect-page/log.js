// The Events log (every _hooks/event, filterable) and the Traffic log (raw frames).
import { $, el } from "./dom.js";

const EVENTS = [
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

export function logEvent({ event, input }) {
  const detail = [input.tool_name, input.stop_reason, input.source].filter(Boolean).join(" ");
  const item = el(
    "li",
    { "data-event": event, "data-tool": input.tool_name ?? "" },
    detail ? `${event} ${detail}` : event,
  );
  item.hidden = !shown(item);
  $("events").append(item);
}

const TRAFFIC_KEPT = 500;

export function logFrame({ direction, message }) {
  const list = $("traffic");
  list.append(
    el("li", {}, el("span", {}, `${direction} `), el("pre", {}, JSON.stringify(message))),
  );
  while (list.children.length > TRAFFIC_KEPT) list.firstElementChild.remove();
}
