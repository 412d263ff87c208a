// The hookgate inspect page: plain DOM, no library. Everything the agent sends is shown as
// text (text nodes and textContent), never parsed as HTML.

const token = new URLSearchParams(location.search).get("token") ?? "";
const $ = (id) => document.getElementById(id);

/** An element with attributes and children; strings become text nodes. */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null) continue;
    if (name === "onclick") node.addEventListener("click", value);
    else node.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null) continue;
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

const pretty = (value) => (typeof value === "string" ? value : JSON.stringify(value, null, 2));

async function post(action) {
  $("error").textContent = "";
  const res = await fetch("/api", {
    method: "POST",
    headers: { "content-type": "application/json", "x-hookgate-token": token },
    body: JSON.stringify(action),
  });
  const text = await res.text();
  if (!res.ok) {
    $("error").textContent =
      `${res.status}: ${new DOMParser().parseFromString(text, "text/html").body.textContent ?? ""}`.trim();
    return undefined;
  }
  return JSON.parse(text);
}

// ---- session controls ------------------------------------------------------------------------

$("new-session").addEventListener("click", () => void post({ type: "newSession" }));
$("cancel").addEventListener("click", () => void post({ type: "cancel" }));
$("prompt-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("prompt").value;
  if (text.trim() === "") return;
  $("prompt").value = "";
  void post({ type: "prompt", text });
});
$("list-sessions").addEventListener("click", async () => {
  const result = await post({ type: "listSessions" });
  const list = $("sessions");
  list.replaceChildren();
  for (const session of result?.sessions ?? []) {
    const name = session.title ?? session.sessionId;
    list.append(
      el(
        "li",
        {},
        `${name} `,
        el(
          "button",
          {
            type: "button",
            "aria-label": `Load ${name}`,
            onclick: () => void post({ type: "loadSession", sessionId: session.sessionId }),
          },
          "Load",
        ),
      ),
    );
  }
  if (list.children.length === 0) list.append(el("li", {}, "no sessions"));
});

// ---- rules --------------------------------------------------------------------------------

$("rule-form").addEventListener("submit", (event) => {
  event.preventDefault();
  void post({
    type: "addRule",
    rule: {
      event: $("rule-event").value,
      matcher: $("rule-matcher").value,
      contains: $("rule-contains").value,
    },
  });
});

function showRules(rules) {
  $("rules").replaceChildren(
    ...rules.map((rule) => {
      const text = `${rule.event} ${rule.matcher || "*"}${rule.contains ? ` containing “${rule.contains}”` : ""}`;
      return el(
        "li",
        {},
        `ask me before ${text} `,
        el(
          "button",
          {
            type: "button",
            "aria-label": `Remove rule ${text}`,
            onclick: () => void post({ type: "removeRule", id: rule.id }),
          },
          "Remove",
        ),
      );
    }),
  );
}

// ---- pending gates and permission requests ---------------------------------------------------

const timers = new Map();

function showGate(gate) {
  const titleId = `gate-${gate.id}-title`;
  const left = el("span", {}, "");
  const reasonId = `gate-${gate.id}-reason`;
  const reason = el("input", { id: reasonId, type: "text", autocomplete: "off" });
  const answer = (decision) => () =>
    void post({ type: "answerGate", id: gate.id, decision, reason: reason.value });
  const dialog = el(
    "div",
    { role: "alertdialog", "aria-labelledby": titleId, id: `gate-${gate.id}`, class: "dialog" },
    el("h3", { id: titleId }, `Gate: ${gate.toolName}`),
    el("pre", {}, pretty(gate.toolInput)),
    el("label", { for: reasonId }, "Reason"),
    reason,
    el("p", {}, "Time left: ", left),
    el("button", { type: "button", onclick: answer("allow") }, "Allow"),
    el("button", { type: "button", onclick: answer("deny") }, "Deny"),
  );
  const tick = () => {
    const seconds = Math.max(0, Math.ceil((gate.deadline - Date.now()) / 1000));
    left.textContent = `${seconds} s`;
  };
  tick();
  timers.set(gate.id, setInterval(tick, 500));
  $("pending").append(dialog);
  dialog.querySelector("button")?.focus();
}

function closeGate(id) {
  clearInterval(timers.get(id));
  timers.delete(id);
  document.getElementById(`gate-${id}`)?.remove();
}

function showPermission({ id, request }) {
  const titleId = `permission-${id}-title`;
  const title = request.toolCall?.title ?? request.toolCall?.toolCallId ?? "a tool call";
  const dialog = el(
    "div",
    { role: "alertdialog", "aria-labelledby": titleId, id: `permission-${id}`, class: "dialog" },
    el("h3", { id: titleId }, `Permission: ${title}`),
    request.toolCall?.rawInput === undefined
      ? null
      : el("pre", {}, pretty(request.toolCall.rawInput)),
    request.options.map((option) =>
      el(
        "button",
        {
          type: "button",
          onclick: () => void post({ type: "answerPermission", id, optionId: option.optionId }),
        },
        option.name,
      ),
    ),
  );
  $("pending").append(dialog);
  dialog.querySelector("button")?.focus();
}

// ---- the conversation and tool cards ---------------------------------------------------------

const cards = new Map();
const toolNames = new Map();
let lastText = undefined;
let currentSession = undefined;

function append(node) {
  $("conversation").append(node);
  lastText = undefined;
}

function addText(kind, text) {
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

function onUpdate({ sessionId, update }) {
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

// ---- the events log ----------------------------------------------------------------------------

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
const events = [];

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

function logEvent({ event, input }) {
  events.push({ event, input });
  const detail = [input.tool_name, input.stop_reason, input.source].filter(Boolean).join(" ");
  const item = el(
    "li",
    { "data-event": event, "data-tool": input.tool_name ?? "" },
    detail ? `${event} ${detail}` : event,
  );
  item.hidden = !shown(item);
  $("events").append(item);
}

// ---- traffic and export ------------------------------------------------------------------------

const TRAFFIC_KEPT = 500;

function logFrame({ direction, message }) {
  const list = $("traffic");
  list.append(
    el("li", {}, el("span", {}, `${direction} `), el("pre", {}, JSON.stringify(message))),
  );
  while (list.children.length > TRAFFIC_KEPT) list.firstElementChild.remove();
}

/** The current session's hook record: each tool call with its hooks, and the events. */
$("export").addEventListener("click", () => {
  const sessionId = currentSession;
  const record = {
    sessionId,
    toolCalls: [...cards.values()]
      .filter((entry) => entry.sessionId === sessionId)
      .map(({ call }) => ({
        toolCallId: call.toolCallId,
        toolName: toolNames.get(call.toolCallId),
        title: call.title,
        kind: call.kind,
        status: call.status,
        rawInput: call.rawInput,
        hooks: call._meta?.hooks ?? [],
        hooksGateMs: call._meta?.hooksGateMs,
      })),
    events: events.filter((e) => e.input.session_id === sessionId),
  };
  const blob = new Blob([JSON.stringify(record, null, 2)], { type: "application/json" });
  const link = el("a", {
    href: URL.createObjectURL(blob),
    download: `hookgate-${sessionId ?? "no-session"}.json`,
  });
  link.click();
  URL.revokeObjectURL(link.href);
});

// ---- the live channel --------------------------------------------------------------------------

const source = new EventSource(`/events?token=${encodeURIComponent(token)}`);
const on = (type, handler) =>
  source.addEventListener(type, (message) => handler(JSON.parse(message.data)));
source.addEventListener("open", () => ($("status").textContent = "connected"));
source.addEventListener("error", () => ($("status").textContent = "disconnected"));
on("update", onUpdate);
on("hookEvent", logEvent);
on("frame", logFrame);
on("rules", showRules);
on("gate", showGate);
on("gateClosed", ({ id }) => closeGate(id));
on("permission", showPermission);
on("permissionClosed", ({ id }) => document.getElementById(`permission-${id}`)?.remove());
on("toolName", ({ toolUseId, toolName }) => {
  toolNames.set(toolUseId, toolName);
  const entry = cards.get(toolUseId);
  if (entry) renderCard(entry);
});
on("session", ({ sessionId, loaded }) => {
  currentSession = sessionId;
  $("current").textContent = sessionId;
  append(el("h3", { class: "session-mark" }, `${loaded ? "Loaded" : "New"} session ${sessionId}`));
});
on("user", ({ text }) => addText("user", text));
on("turnEnded", ({ stopReason }) =>
  append(el("p", { class: "turn-end" }, `turn ended: ${stopReason}`)),
);
on("failure", ({ message }) => ($("error").textContent = message));
