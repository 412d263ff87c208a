// One view per session: its conversation and cards, and a button in "Sessions in this page"
// that shows it (title, start time, calls and denies), so sessions never pile into one scroll.
import { $, el } from "./dom.js";

/** sessionId -> { node, cards, lastText, title, started, button }. */
const views = new Map();
let shown;
let counter = 0;

/** A fresh id for an element, unique in the page (tool call ids repeat across sessions). */
export const uniqueId = (prefix) => `${prefix}-${++counter}`;

function label(view) {
  const calls = view.cards.size;
  const denied = [...view.cards.values()].filter((card) => card.denied).length;
  const time = new Date(view.started).toLocaleTimeString([], { hour12: false });
  return `${view.title} · ${time} · ${calls} ${calls === 1 ? "call" : "calls"}, ${denied} denied`;
}

/** Redraws a session's button: its title, start time and counts. */
export function relabel(view) {
  view.button.textContent = label(view);
}

function create(sessionId, { loaded = false, at = Date.now() } = {}) {
  const heading = el("h3", { class: "session-mark", id: uniqueId("session") });
  heading.textContent = `${loaded ? "Loaded" : "New"} session ${sessionId}`;
  const node = el("section", { class: "session-view", "aria-labelledby": heading.id }, heading);
  const button = el("button", {
    type: "button",
    "aria-pressed": "false",
    onclick: () => show(sessionId),
  });
  const view = {
    sessionId,
    node,
    cards: new Map(),
    lastText: undefined,
    title: sessionId,
    started: at,
    button,
    item: el("li", {}, button),
  };
  views.set(sessionId, view);
  $("conversation").append(node);
  $("open-sessions").append(view.item);
  relabel(view);
  return view;
}

/** The session's view, made on first use. */
export function viewOf(sessionId) {
  return views.get(sessionId) ?? create(sessionId);
}

/**
 * A session was opened or loaded: it gets its view and is shown. A load draws the session
 * anew from its replay, so a view it had in this page is replaced, not updated.
 */
export function openSession({ sessionId, loaded, at }) {
  const old = views.get(sessionId);
  if (old && loaded) {
    old.node.remove();
    old.item.remove();
    views.delete(sessionId);
  }
  if (!views.has(sessionId)) create(sessionId, { loaded, at });
  show(sessionId);
}

export function show(sessionId) {
  shown = sessionId;
  for (const view of views.values()) {
    const on = view.sessionId === sessionId;
    view.node.hidden = !on;
    view.button.setAttribute("aria-pressed", String(on));
  }
  $("current").textContent = sessionId;
}

/** The view shown now, if any: where a message without a session goes. */
export function shownView() {
  return shown === undefined ? undefined : views.get(shown);
}

/** The first prompt names the session (a title the agent gives wins). */
export function nameSession(sessionId, title, { fromAgent = false } = {}) {
  const view = viewOf(sessionId);
  if (!fromAgent && view.named) return;
  view.title = title.length > 60 ? `${title.slice(0, 59)}…` : title;
  view.named = true;
  relabel(view);
}
