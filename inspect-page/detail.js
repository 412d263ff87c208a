// The detail pane: what a selected hook row or tool call holds, in full. A hook: its outcome
// label and what it means, its timing, and the exact `_hooks/run` request and reply (linked to
// their Traffic rows), or a command hook's input, exit code, stdout and stderr. A tool call: its input, output and the hook text the model was given.
import { $, el, pretty } from "./dom.js";
import { eventFrames, hookFrames } from "./frames.js";
import { meaning } from "./outcomes.js";

const clock = (at) =>
  `${new Date(at).toLocaleTimeString([], { hour12: false })}.${String(at % 1000).padStart(3, "0")}`;

/** Rows of a description list; empty values are left out. */
const facts = (pairs) =>
  el(
    "dl",
    {},
    pairs
      .filter(([, value]) => value !== undefined && value !== "")
      .flatMap(([term, value]) => [el("dt", {}, term), el("dd", {}, value)]),
  );

/** A link to a frame's row in Traffic: opens the panel and moves the focus to the row. */
function trafficLink(seen, name) {
  if (!document.getElementById(seen.rowId)) return el("span", {}, `${name}: no longer in Traffic`);
  const link = el("a", { href: `#${seen.rowId}` }, `${name} in Traffic`);
  link.addEventListener("click", (event) => {
    event.preventDefault();
    $("traffic").closest("details").open = true;
    const row = document.getElementById(seen.rowId);
    row.scrollIntoView({ block: "center" });
    row.focus();
  });
  return link;
}

/** The `_hooks/run` exchange of a hook the page was asked: request, reply, links, timing. */
function exchange(pair) {
  const reply = pair.reply;
  return [
    el("h4", {}, "Request (_hooks/run, from the agent)"),
    el("pre", {}, pretty(pair.request.message)),
    el("h4", {}, "Reply (from this page)"),
    el("pre", {}, reply ? pretty(reply.message) : "no reply: the agent stopped waiting first"),
    el(
      "p",
      {},
      trafficLink(pair.request, "Request"),
      reply ? " · " : "",
      reply ? trafficLink(reply, "Reply") : "",
    ),
    el(
      "p",
      {},
      `Asked at ${clock(pair.request.at)}`,
      reply ? `, answered ${reply.at - pair.request.at} ms later (as the inspector saw it).` : ".",
    ),
  ];
}

/** How the command's process ended, as its report says (an older agent sends none). */
function commandOutput(output) {
  if (!output) return el("p", {}, "The agent's report has no output for this command.");
  const stream = (name, text) => [
    el("h4", {}, name),
    el("pre", { "aria-label": name }, text === "" ? "(empty)" : text),
  ];
  return [
    el(
      "p",
      {},
      output.exitCode === undefined
        ? "It did not exit (timed out, cancelled or failed to start)."
        : `Exit code ${output.exitCode}.`,
      output.truncated ? " Output cut: the report keeps the first 4 KiB of each stream." : "",
    ),
    ...stream("stdout", output.stdout),
    ...stream("stderr", output.stderr),
  ];
}

/**
 * A command hook ran inside the agent: its input is the event's, as the page was sent it; its
 * exit code, stdout and stderr come with its report.
 */
function commandRun(sessionId, toolUseId, event, output) {
  const sent = eventFrames(sessionId, toolUseId, event)[0];
  return [
    el("h4", {}, "Input (on the command's stdin)"),
    el("pre", {}, sent ? pretty(sent.request.message.params.input) : "not seen by this page"),
    ...[commandOutput(output)].flat(),
  ];
}

function show(title, ...body) {
  const heading = el("h3", { id: "detail-title" }, title);
  $("detail").replaceChildren(heading, ...body.flat());
}

/** A hook row was selected. `startMs` is its start on the call's (or turn's) axis. */
export function showHook({ report, sessionId, toolUseId, startMs, gateMs }) {
  const event = report.event ?? "PreToolUse";
  const timing = [
    `took ${report.durationMs.toFixed(1)} ms`,
    `started at ${startMs.toFixed(1)} ms on the axis`,
    gateMs === undefined ? "" : `the gate took ${gateMs.toFixed(1)} ms`,
  ];
  const pair =
    report.kind === "callback"
      ? hookFrames(sessionId, toolUseId, report.hookCallbackId, event)
      : undefined;
  show(
    `Hook ${report.hookCallbackId}`,
    facts([
      ["Event", report.event === undefined ? "PreToolUse (the gate)" : report.event],
      ["Kind", report.kind],
      ["Matcher", report.matcher ?? "every tool"],
      [
        "Outcome",
        el("span", {}, el("strong", {}, report.outcome), ` — ${meaning(report.outcome)}`),
      ],
      ["Reason", report.reason],
      ["Ignored fields", report.warning],
      ["Timing", timing.filter(Boolean).join("; ")],
    ]),
    report.kind === "command"
      ? commandRun(sessionId, toolUseId, event, report.output)
      : pair
        ? exchange(pair)
        : el(
            "p",
            {},
            "This page has no _hooks/run frames for this hook (it ran before the page opened).",
          ),
  );
}

/** What hooks told the model about the call: a deny's tool error, `additionalContext`. */
function modelText(entry, gate) {
  const lines = [];
  const output = entry.outputText ?? "";
  if (output.startsWith("Hook denied: ")) {
    const by =
      gate.find((r) => r.outcome === "denied") ?? gate.find((r) => r.outcome !== "proceeded");
    const tool = entry.toolName ?? "tool";
    lines.push(`Hook ${by?.hookCallbackId ?? "?"} denied this ${tool} call: ${output.slice(13)}`);
  }
  for (const event of ["PreToolUse", "PostToolUse", "PostToolUseFailure"]) {
    for (const pair of eventFrames(entry.sessionId, entry.toolCallId, event)) {
      const context = pair.reply?.message.result?.additionalContext;
      if (typeof context === "string" && context !== "") {
        lines.push(`${event}:${entry.toolName ?? "tool"} hook additional context: ${context}`);
      }
    }
  }
  return lines.length > 0 ? lines.join("\n") : "none: no hook gave the model text for this call";
}

/** A tool call was selected. */
export function showCall(entry, gate) {
  const { call } = entry;
  show(
    `Call ${entry.toolName ?? call.kind ?? "tool"}: ${call.title ?? ""}`,
    facts([
      ["Status", call.status ?? "pending"],
      ["Tool call id", call.toolCallId],
      [
        "Gate",
        call._meta?.hooksGateMs === undefined ? "" : `${call._meta.hooksGateMs.toFixed(1)} ms`,
      ],
    ]),
    el("h4", {}, "Input"),
    el("pre", {}, call.rawInput === undefined ? "none" : pretty(call.rawInput)),
    el("h4", {}, "Output"),
    el("pre", {}, entry.outputText || "none yet"),
    el("h4", {}, "Hook text the model was given"),
    el("pre", {}, modelText(entry, gate)),
  );
}
