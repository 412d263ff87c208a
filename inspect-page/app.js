// The hookgate inspect page: plain DOM modules, no library. This one wires the controls and
// the live channel (server-sent events) to the parts of the page.
import { closeGate, closePermission, showGate, showPermission } from "./dialogs.js";
import { addText, append, onUpdate } from "./conversation.js";
import { openSession } from "./sessions.js";
import { listSessions } from "./saved-sessions.js";
import { $, el, post } from "./dom.js";
import { logEvent, logFrame } from "./log.js";
import { endTurn, startTurn } from "./turn-axis.js";

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
// Enter sends, as in a one-line field; Shift+Enter starts another line (one turn, several calls).
$("prompt").addEventListener("keydown", (event) => {
  if (event.key !== "Enter" || event.shiftKey || event.isComposing) return;
  event.preventDefault();
  $("prompt-form").requestSubmit();
});
$("list-sessions").addEventListener("click", () => void listSessions());

// ---- rules --------------------------------------------------------------------------------

for (const example of document.querySelectorAll("[data-example]")) {
  example.addEventListener("click", () => {
    $("prompt").value = example.dataset.example;
    $("prompt").focus();
  });
}

$("rule-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const rule = {
    event: $("rule-event").value,
    matcher: $("rule-matcher").value,
    contains: $("rule-contains").value,
  };
  const add = () => void post({ type: "addRule", rule });
  const everyCall = ["", "*"].includes(rule.matcher.trim()) && rule.contains === "";
  if (everyCall) confirmEveryCall(add);
  else add();
});

/** A rule with empty fields stops every tool call: asked once more before it is added. */
function confirmEveryCall(add) {
  const close = () => $("rule-confirm").replaceChildren();
  const cancel = el("button", { type: "button", onclick: close }, "Cancel");
  const ask = el(
    "div",
    { role: "alertdialog", "aria-labelledby": "rule-confirm-title", class: "dialog" },
    el("p", { id: "rule-confirm-title" }, "This rule asks you before every tool call."),
    cancel,
    el("button", { type: "button", onclick: () => (close(), add()) }, "Add it anyway"),
  );
  ask.addEventListener("keydown", (event) => event.key === "Escape" && close());
  $("rule-confirm").replaceChildren(ask);
  cancel.focus();
}

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

/**
 * The current session's hook record, from the server (which keeps it whole within documented
 * bounds, whatever this page saw): each tool call with its hooks, the turns' hooks, the events.
 */
$("export").addEventListener("click", async () => {
  const record = await post({ type: "exportRecord" });
  if (!record) return;
  const blob = new Blob([JSON.stringify(record, null, 2)], { type: "application/json" });
  const link = el("a", {
    href: URL.createObjectURL(blob),
    download: `hookgate-${record.sessionId ?? "no-session"}.json`,
  });
  link.click();
  URL.revokeObjectURL(link.href);
});

// ---- the live channel --------------------------------------------------------------------------

// Signed in by the HttpOnly cookie the one-time link was exchanged for.
const source = new EventSource("/events");
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
on("permissionClosed", ({ id }) => closePermission(id));
on("session", openSession);
on("user", ({ sessionId, text }) => {
  startTurn(sessionId);
  addText("user", text, sessionId);
});
on("turnEnded", ({ sessionId, stopReason }) => {
  const figure = endTurn(sessionId);
  if (figure) append(figure, sessionId);
  append(el("p", { class: "turn-end" }, `turn ended: ${stopReason}`), sessionId);
});
on("failure", ({ message }) => ($("error").textContent = message));
on("trimmed", ({ messages }) =>
  append(
    el(
      "p",
      { class: "turn-end" },
      `${messages} earlier messages are no longer kept; Export hook record still has the session's hooks.`,
    ),
  ),
);
