// A turn's one time axis: its UserPromptSubmit hooks, each tool call's whole span (gate,
// permission, tool run, PostToolUse) and its Stop hooks, each a bar at its start and length, so
// a reader sees where the turn's time went. A step starts when the inspector saw its first
// `_hooks/run` request; its length is what the agent reported (a call's span from call-axis.js).
import { el } from "./dom.js";
import { axis, place, track } from "./waterfall.js";

/** Session -> the steps of its turn under way, by key (a call's update redraws its step). */
const turns = new Map();

/** A new turn: steps noted before it (a loaded session's replay) belong to no turn. */
export function startTurn(sessionId) {
  turns.set(sessionId, new Map());
}

/** `step`: { name, outcome, startAt (the inspector's clock, ms), lengthMs }. */
export function noteStep(sessionId, key, step) {
  if (!turns.has(sessionId)) turns.set(sessionId, new Map());
  turns.get(sessionId).set(key, step);
}

const ms = (value) => `${value.toFixed(1)} ms`;

function row({ name, outcome, lengthMs }, startMs, spanMs) {
  return el(
    "li",
    { class: `hook step ${outcome}` },
    el("span", { class: "id", title: name }, name),
    el("span", {}, ""),
    el("span", { class: "start" }, `at ${ms(startMs)}`),
    el("span", { class: "outcome" }, outcome),
    el("span", {}, ""),
    el("span", { class: "ms" }, ms(lengthMs)),
    track(startMs, lengthMs, spanMs),
  );
}

/** The ended turn's axis as a labelled figure (null for a turn with no timed step). */
export function endTurn(sessionId) {
  const steps = [...(turns.get(sessionId)?.values() ?? [])].sort((a, b) => a.startAt - b.startAt);
  turns.delete(sessionId);
  if (steps.length === 0) return null;
  const origin = steps[0].startAt;
  const spanMs = Math.max(...steps.map((s) => s.startAt - origin + s.lengthMs));
  const names = ["step", "", "starts", "outcome", "", "time"];
  const heads = el("div", { class: "hook head" }, [
    ...names.map((name) => el("span", {}, name)),
    axis(spanMs),
  ]);
  const list = el(
    "ol",
    { class: "hooks", "aria-label": `Turn steps (${ms(spanMs)})` },
    steps.map((step) => row(step, step.startAt - origin, spanMs)),
  );
  const figure = el(
    "figure",
    { class: "turn-axis" },
    el("figcaption", {}, `Turn on one time axis: ${ms(spanMs)}`),
    heads,
    list,
  );
  place(figure);
  return figure;
}
