// Pending gates and permission requests, shown as alert dialogs until answered or withdrawn.
import { $, el, post, pretty } from "./dom.js";

const timers = new Map();

export function showGate(gate) {
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

export function closeGate(id) {
  clearInterval(timers.get(id));
  timers.delete(id);
  document.getElementById(`gate-${id}`)?.remove();
}

export function showPermission({ id, request }) {
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

export function closePermission(id) {
  document.getElementById(`permission-${id}`)?.remove();
}
