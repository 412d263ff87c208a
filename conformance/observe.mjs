// Turns one run (hook log, model requests, workspace, how the turn ended) into facets that
// can be compared between Claude Code and hookgate.
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { isAgentHookRequest } from "./fake-anthropic.mjs";

/**
 * Stop reasons as an ACP client would see them: CC's `tool_deferred` ends the turn, a turn a
 * hook stopped after a tool call keeps the model's last reason (`tool_use`), and a prompt a
 * hook blocked ends CC's run without a result line (`exit 0`). ACP has only `end_turn` for
 * these.
 */
const AS_ACP = {
  end_turn: "end_turn",
  tool_deferred: "end_turn",
  tool_use: "end_turn",
  stop_sequence: "end_turn",
  "exit 0": "end_turn",
};

/**
 * The facets of one run. `run`: { hookLog, requests, cwd, end, prompt }; `scenario` says
 * which optional facets to take (`markers`, `fields`, `values`, `results`).
 */
export function observe(scenario, run) {
  const logged = readLog(run.hookLog);
  // The main loop's requests; an agent hook's subagent (offered StructuredOutput) is not it.
  const agent = run.requests.filter(isAgentHookRequest);
  const main = run.requests.filter(
    (r) => !agent.includes(r) && (r.tools ?? []).some((t) => t.name === "Bash"),
  );
  const last = main.at(-1);
  const facets = {
    hooks: hookRuns(logged),
    files: listFiles(run.cwd).join(" "),
    requests: String(main.length),
    end: AS_ACP[run.end] ?? run.end,
    results: toolResults(last, scenario.results, run.cwd).join(" | "),
  };
  // A prompt hook's question to the model: its system prompt must be Claude Code's own (from
  // its first words: Claude Code puts its billing header and SDK identity before them).
  const asked = run.requests.filter(
    (r) => !main.includes(r) && /\/answer /.test(JSON.stringify(r.messages)),
  );
  if (asked.length > 0) facets["hook system"] = asked.map((r) => systemText(r.system)).join(" | ");
  // An agent hook's subagent: how many steps it took, what its calls gave, its system prompt.
  if (agent.length > 0) {
    facets["agent requests"] = String(agent.length);
    facets["agent results"] = toolResults(agent.at(-1), false).join(" | ");
    if (scenario.agentSystem) facets["agent system"] = systemText(agent[0].system);
  }
  // Which model each main request went to: a switch applies to the next request.
  if (scenario.switchModel) facets.models = main.map((r) => r.model).join(" ");
  const requests = logged.filter((l) => l.request);
  if (requests.length > 0) facets.http = requests.map((l) => JSON.stringify(l.request)).join(" ");
  const calls = logged.filter((l) => l.mcpArgs);
  if (calls.length > 0) facets["mcp args"] = calls.map((l) => JSON.stringify(l.mcpArgs)).join(" ");
  const probes = logged.filter((l) => l.probe);
  if (probes.length > 0) facets["hook env"] = probes.map((l) => JSON.stringify(l.probe)).join(" ");
  for (const marker of scenario.markers ?? []) {
    facets[`where ${marker}`] = where(last, marker, run.prompt);
  }
  // The wording around each marker the model was given, too.
  for (const marker of scenario.markers ?? []) {
    const line = lineWith(last, marker, dirname(run.cwd));
    if (line !== "absent") facets[`line ${marker}`] = line;
  }
  // `ordered`: the order the markers reached the model in (absent ones left out).
  if (scenario.ordered) facets.order = markerOrder(last, scenario.markers ?? []);
  if (scenario.fields) {
    for (const { input } of logged) {
      const event = input.hook_event_name;
      if (scenario.fields !== true && !scenario.fields.includes(event)) continue;
      facets[`fields ${event}`] = Object.keys(input).sort().join(",");
    }
  }
  for (const path of scenario.values ?? []) {
    const [event, field] = path.split(".");
    const seen = logged.filter(({ input }) => input.hook_event_name === event);
    // The run's temporary directory is written `<root>`, so both sides' paths compare.
    facets[`value ${path}`] = seen
      .map(({ input }) => JSON.stringify(dig(input, field)))
      .join(" ")
      .replaceAll(dirname(run.cwd), "<root>");
  }
  return facets;
}

/**
 * The hooks that ran, in order of events; the hooks of one event run concurrently, so within
 * a run of the same event they are sorted.
 */
function hookRuns(logged) {
  const runs = [];
  for (const { tag, input } of logged) {
    const name = `${input.hook_event_name}${tag ? `#${tag}` : ""}`;
    const last = runs.at(-1);
    if (last && last.event === input.hook_event_name) last.names.push(name);
    else runs.push({ event: input.hook_event_name, names: [name] });
  }
  return runs.flatMap((r) => r.names.sort()).join(" ");
}

function readLog(path) {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

function dig(value, path) {
  return path.split("/").reduce((v, k) => (v && typeof v === "object" ? v[k] : undefined), value);
}

/** Non-hidden files the tools left in the workspace, with a short head of each. */
function listFiles(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => !e.name.startsWith("."))
    .map((e) =>
      e.isFile()
        ? `${e.name}=${JSON.stringify(readFileSync(join(dir, e.name), "utf8").trim().slice(0, 40))}`
        : `${e.name}/`,
    )
    .sort();
}

export function textOf(content) {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((b) => (b.type === "text" ? b.text : b.type === "tool_result" ? textOf(b.content) : ""))
    .join("\n");
}

function blocks(message) {
  return typeof message.content === "string"
    ? [{ type: "text", text: message.content }]
    : (message.content ?? []);
}

/**
 * Every tool_result the model was sent, in order: error or ok, with the text when `mode` is
 * `text`; `listing` takes the whole text with paths made relative to the run's directory and
 * its lines sorted (search results list files in an order of their own), so what a search
 * returns is compared, not just that it returned.
 */
function toolResults(request, mode, cwd) {
  if (!request) return [];
  return request.messages.flatMap((m) =>
    blocks(m)
      .filter((b) => b.type === "tool_result")
      .map((b) => {
        const state = b.is_error ? "error" : "ok";
        if (mode !== "text" && mode !== "listing") return state;
        // CC appends its own reminders (tokens left) to results; they are not the tool's output.
        const text = textOf(b.content)
          .replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, "")
          .trim();
        if (mode === "text") return `${state}: ${JSON.stringify(text.slice(0, 120))}`;
        // Claude Code's Grep and Glob name files relative to the cwd, hookgate's absolute.
        const lines = text.split(`${cwd}/`).join("").split(cwd).join("$CWD").split("\n").sort();
        return `${state}: ${JSON.stringify(lines.join("\n"))}`;
      }),
  );
}

/**
 * Where a marker text reached the model in its last request, with the tag wrapping it
 * there, if any (`<system-reminder>`, `<hook-context>`, ...).
 */
function where(request, marker, prompt) {
  if (!request) return "no request";
  const places = [];
  const system = typeof request.system === "string" ? request.system : textOf(request.system ?? []);
  if (system.includes(marker)) places.push("system prompt");
  for (const message of request.messages) {
    const list = blocks(message);
    const promptAt = list.findIndex((b) => b.type === "text" && b.text.includes(prompt));
    const hasResult = list.some((b) => b.type === "tool_result");
    list.forEach((b, i) => {
      if (b.type === "tool_result" && textOf(b.content).includes(marker)) {
        places.push(`inside tool_result${wrapper(textOf(b.content), marker)}`);
      }
      if (b.type !== "text" || !b.text.includes(marker)) return;
      const tag = wrapper(b.text, marker);
      if (message.role === "assistant") places.push("assistant");
      else if (hasResult) places.push(`text block after tool_result${tag}`);
      else if (promptAt === i) {
        const before = b.text.indexOf(marker) < b.text.indexOf(prompt);
        places.push(`${before ? "before" : "after"} prompt, same block${tag}`);
      } else if (promptAt >= 0) {
        places.push(`${i < promptAt ? "block before prompt" : "block after prompt"}${tag}`);
      } else places.push(`user message of its own${tag}`);
    });
  }
  return places.length ? [...new Set(places)].join(" + ") : "absent";
}

/** ` in <tag>` for the innermost `<tag …>…</tag>` around the marker, else "". */
function wrapper(text, marker) {
  const at = text.indexOf(marker);
  let found = "";
  for (const m of text.matchAll(/<([a-z][a-z-]*)\b[^>]*>/g)) {
    if (m.index > at) break;
    const close = text.indexOf(`</${m[1]}>`, m.index);
    if (close > at) found = ` in <${m[1]}>`;
  }
  return found;
}

/**
 * The text line of the last request that holds `marker` (hook text's wording), with the
 * run's temporary directory written `<root>` so both sides' lines compare.
 */
function lineWith(request, marker, root) {
  if (!request) return "no request";
  const texts = request.messages.flatMap((m) => blocks(m).map((b) => textOf([b])));
  const line = texts.flatMap((t) => t.split("\n")).find((l) => l.includes(marker));
  return line === undefined ? "absent" : line.replaceAll(root, "<root>");
}

/** The markers found in the request's messages, in the order they appear there. */
function markerOrder(request, markers) {
  if (!request) return "no request";
  const text = request.messages.flatMap((m) => blocks(m).map((b) => textOf([b]))).join("\n");
  return markers
    .filter((m) => text.includes(m))
    .sort((a, b) => text.indexOf(a) - text.indexOf(b))
    .join(" < ");
}

/** A request's system prompt as text, whether a string or a list of text blocks. */
function systemText(system) {
  const text =
    typeof system === "string" ? system : (system ?? []).map((b) => b.text ?? "").join("\n");
  const start = text.indexOf("You are evaluating");
  return start === -1 ? text : text.slice(start);
}
