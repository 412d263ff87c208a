// Hook rows drawn as a waterfall: every bar at its start and length on one time axis (shared by
// a call's gate, permission step and PostToolUse hooks), with tick labels, so 3 ms and 50 ms
// look different.
import { el } from "./dom.js";

/** Round tick steps (1, 2, 5 × 10^k ms), the one that gives nearest four ticks over the span. */
export function ticks(spanMs) {
  if (!(spanMs > 0)) return [0];
  const power = 10 ** Math.floor(Math.log10(spanMs / 4));
  const off = (s) => Math.abs(spanMs / s - 4);
  const step = [1, 2, 5, 10].map((m) => m * power).reduce((a, b) => (off(b) < off(a) ? b : a));
  const at = [];
  for (let ms = 0; ms <= spanMs + step / 1000; ms += step) at.push(ms);
  return at;
}

const label = (ms) => `${Number(ms.toPrecision(3))} ms`;
const share = (ms, spanMs) => (spanMs > 0 ? Math.min(100, Math.max(0, (ms / spanMs) * 100)) : 0);

/** The axis: a tick label at each round time, placed over the bars' column. */
export function axis(spanMs) {
  return el(
    "span",
    { class: "axis", "aria-label": `time axis, 0 to ${label(spanMs)}` },
    ticks(spanMs).map((ms) =>
      el("span", { class: "tick", "data-at": share(ms, spanMs).toFixed(1) }, label(ms)),
    ),
  );
}

/** A bar at its start and length on the axis (the row's text says the same in ms). */
export function track(startMs, lengthMs, spanMs) {
  return el(
    "span",
    { class: "track", "aria-hidden": "true" },
    el("span", {
      class: "bar",
      "data-offset": share(startMs, spanMs).toFixed(1),
      // Never past the axis's end.
      "data-share": Math.min(share(lengthMs, spanMs), 100 - share(startMs, spanMs)).toFixed(1),
    }),
  );
}

/**
 * One row per hook: `startMs` on the axis and the report's duration. The id is a button that
 * selects the hook (its details), cut with an ellipsis and whole on hover and focus.
 */
export function hookRow({ report, startMs }, spanMs, select) {
  const startText = `starts at ${startMs.toFixed(1)} ms`;
  return el(
    "li",
    { class: `hook ${report.outcome}` },
    el(
      "button",
      {
        type: "button",
        class: "id",
        title: report.hookCallbackId,
        "aria-controls": "detail",
        onclick: select,
      },
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
    el("span", { class: "ms", title: startText }, `${report.durationMs.toFixed(1)} ms`),
    track(startMs, report.durationMs, spanMs),
    report.warning === undefined ? null : el("span", { class: "warning" }, `⚠ ${report.warning}`),
  );
}

/** A step of the call that is not a hook (the gate as a whole, the permission request). */
export function stepRow(name, outcome, startMs, lengthMs, spanMs) {
  return el(
    "li",
    { class: `hook step ${outcome}` },
    el("span", { class: "id" }, name),
    el("span", {}, ""),
    el("span", {}, ""),
    el("span", { class: "outcome" }, outcome),
    el("span", {}, ""),
    el("span", { class: "ms" }, `${lengthMs.toFixed(1)} ms`),
    track(startMs, lengthMs, spanMs),
  );
}

/** Bars and ticks are placed from script: the CSP allows no inline style attributes. */
export function place(root) {
  for (const bar of root.querySelectorAll(".bar")) {
    bar.style.marginLeft = `${bar.dataset.offset}%`;
    bar.style.width = `${bar.dataset.share}%`;
  }
  for (const tick of root.querySelectorAll(".tick")) tick.style.left = `${tick.dataset.at}%`;
}
