// Pending gates and permission requests, shown as alert dialogs until answered or withdrawn.
//
// A dialog can open at a moment the model chose, so it never takes a key meant for something
// else: it leaves the focus in a text field the user is typing in, otherwise it lands on the
// safe control (the gate's Reason field, the permission's Reject); Allow needs a click or a
// deliberate Tab and Enter; Escape answers the safe way.
import { $, el, post, pretty } from "./dom.js";

const timers = new Map();

/** A control whose keys are text: a dialog never moves the focus out of it. */
function typingIn(node) {
  if (!node || node === document.body) return false;
  if (node.isContentEditable || node.tagName === "TEXTAREA" || node.tagName === "SELECT") {
    return true;
  }
  const keysAreClicks = ["button", "submit", "reset", "checkbox", "radio", "file", "image"];
  return node.tagName === "INPUT" && !keysAreClicks.includes(node.type);
}

function offerFocus(target) {
  if (target && !typingIn(document.activeElement)) target.focus();
}

/** Escape anywhere in the dialog answers the safe way. */
function onEscape(dialog, answer) {
  dialog.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    answer();
  });
}

export function showGate(gate) {
  const titleId = `gate-${gate.id}-title`;
  const left = el("span", {}, "");
  const reasonId = `gate-${gate.id}-reason`;
  const reason = el("input", { id: reasonId, type: "text", autocomplete: "off" });
  const answer = (decision) => () =>
    void post({ type: "answerGate", id: gate.id, decision, reason: reason.value });
  // Enter in Reason submits the form: the first submit button, Deny.
  const form = el(
    "form",
    {},
    el("label", { for: reasonId }, "Reason"),
    reason,
    el("p", {}, "Time left: ", left, " (denied when the time runs out)"),
    el("button", { type: "submit" }, "Deny"),
    el("button", { type: "button", onclick: answer("allow") }, "Allow"),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    answer("deny")();
  });
  const dialog = el(
    "div",
    { role: "alertdialog", "aria-labelledby": titleId, id: `gate-${gate.id}`, class: "dialog" },
    el("h3", { id: titleId }, `Gate: ${gate.toolName}`),
    el("pre", {}, pretty(gate.toolInput)),
    form,
  );
  onEscape(dialog, answer("deny"));
  const tick = () => {
    const seconds = Math.max(0, Math.ceil((gate.deadline - Date.now()) / 1000));
    left.textContent = `${seconds} s`;
  };
  tick();
  timers.set(gate.id, setInterval(tick, 500));
  $("pending").append(dialog);
  offerFocus(reason);
}

export function closeGate(id) {
  clearInterval(timers.get(id));
  timers.delete(id);
  document.getElementById(`gate-${id}`)?.remove();
}

/** The option a dialog offers first and Escape picks: a rejection, never an allow. */
function safeOption(options) {
  return (
    options.find((o) => o.kind === "reject_once") ?? options.find((o) => o.kind === "reject_always")
  );
}

export function showPermission({ id, request }) {
  const titleId = `permission-${id}-title`;
  const title = request.toolCall?.title ?? request.toolCall?.toolCallId ?? "a tool call";
  const choose = (optionId) => () => void post({ type: "answerPermission", id, optionId });
  const safe = safeOption(request.options);
  let safeButton;
  const buttons = request.options.map((option) => {
    const button = el("button", { type: "button", onclick: choose(option.optionId) }, option.name);
    if (option === safe) safeButton = button;
    return button;
  });
  const dialog = el(
    "div",
    {
      role: "alertdialog",
      "aria-labelledby": titleId,
      id: `permission-${id}`,
      class: "dialog",
      tabindex: "-1",
    },
    el("h3", { id: titleId }, `Permission: ${title}`),
    request.toolCall?.rawInput === undefined
      ? null
      : el("pre", {}, pretty(request.toolCall.rawInput)),
    buttons,
  );
  // With no rejection on offer, Escape withdraws the request (answered `cancelled`).
  onEscape(dialog, choose(safe?.optionId ?? null));
  $("pending").append(dialog);
  offerFocus(safeButton ?? dialog);
}

export function closePermission(id) {
  document.getElementById(`permission-${id}`)?.remove();
}
