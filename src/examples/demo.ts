import { existsSync } from "node:fs";
import { join } from "node:path";
import type { RequestPermissionRequest, RequestPermissionResponse } from "@agentclientprotocol/sdk";
import type {
  HookContext,
  HookInput,
  HookInputFor,
  HooksConfig,
  PreToolUseResult,
} from "../client/index.js";
import {
  makeWorkspace,
  removeWorkspace,
  spawnAgent,
  toolLine,
  type Timeline,
} from "../client/kit/index.js";
import { formatTimeline, oneLine, styles, type Styles } from "../client/kit/format.js";
import { errorMessage } from "../shared/values.js";

/** The Bash command a PreToolUse input carries, or "" for other tools. */
function command(input: HookInputFor<"PreToolUse">): string {
  const toolInput = input.tool_input;
  if (typeof toolInput !== "object" || toolInput === null || !("command" in toolInput)) return "";
  return typeof toolInput.command === "string" ? toolInput.command : "";
}

/** Gate: asks the user before any `git push`, whatever the session mode. */
function askGitPush(input: HookInputFor<"PreToolUse">): PreToolUseResult {
  return /\bgit\s+push\b/.test(command(input))
    ? { decision: "ask", reason: "pushing needs a human" }
    : {};
}

/** Gate: denies `rm -rf` outright; the call never runs. */
function noRmRf(input: HookInputFor<"PreToolUse">): PreToolUseResult {
  return /\brm\s+-(?:rf|fr)\b/.test(command(input))
    ? { decision: "deny", reason: "rm -rf is not allowed in this workspace" }
    : {};
}

const OBSERVED = [
  "SessionStart",
  "UserPromptSubmit",
  "PermissionRequest",
  "PostToolUse",
  "PostToolUseFailure",
  "Stop",
  "SessionEnd",
] as const;

/** Colour on a terminal; FORCE_COLOR and NO_COLOR (https://no-color.org) override. */
function wantsColor(): boolean {
  const force = process.env.FORCE_COLOR;
  if (force !== undefined && force !== "0" && force !== "false") return true;
  if (process.env.NO_COLOR) return false;
  return process.stdout.isTTY === true;
}

/** The demo's "IDE": a scripted user who allows everything except a push. */
function user(request: RequestPermissionRequest): RequestPermissionResponse {
  const push = JSON.stringify(request.toolCall.rawInput ?? "").includes("git push");
  return { outcome: { outcome: "selected", optionId: push ? "reject_once" : "allow_once" } };
}

/**
 * `hookgate demo` / `npm run demo`: spawns the agent the way an IDE does, registers two
 * gates and an observer, runs a scripted prompt and prints what the client saw. Exit code 0
 * when the denied call was blocked, the allowed one ran and the target directory survived.
 */
export async function runDemo(): Promise<number> {
  const color = wantsColor();
  const s = styles(color);
  const out = (line = "") => process.stdout.write(`${line}\n`);
  const cwd = makeWorkspace({ "important/keep.txt": "precious\n" });
  const target = join(cwd, "important");
  // The observer is async on purpose: observers are never awaited by the agent.
  const uiLog = async (_input: HookInput, _toolUseID: string | undefined, _ctx: HookContext) => {};
  const hooks: HooksConfig = {
    PreToolUse: [{ matcher: "Bash", timeout: 5, hooks: [askGitPush, noRmRf] }],
    ...Object.fromEntries(OBSERVED.map((event) => [event, [{ hooks: [uiLog] }]])),
  };
  const prompt = [
    toolLine("Bash", { command: "ls important" }),
    toolLine("Bash", { command: `rm -rf ${target}` }),
    toolLine("Bash", { command: "git push origin main" }),
  ];

  out(s.bold("hookgate demo: an IDE-like client drives the real agent over stdio"));
  out(s.dim("(scripted model: no network, no API key)"));
  out();
  out(`${s.dim("workspace")}  ${cwd}`);
  out(`${s.dim("         ")}  important/keep.txt is what the rm -rf goes after`);
  out(`${s.dim("mode     ")}  default: the agent asks the user before Bash, Write and Edit`);
  out(
    `${s.dim("gates    ")}  PreToolUse Bash: askGitPush (ask before git push), noRmRf (deny rm -rf)`,
  );
  out(`${s.dim("observer ")}  uiLog on ${OBSERVED.join(", ")}`);
  out(`${s.dim("user     ")}  allows every permission request except a git push`);
  out(`${s.dim("prompt   ")}  ${prompt.join(`\n${" ".repeat(11)}`)}`);
  out();

  try {
    let timeline: Timeline;
    try {
      timeline = await spawnAgent({
        cwd,
        hooks,
        prompt,
        permission: user,
        logLevel: "error",
      });
    } catch (error) {
      out(s.red(`the demo run failed: ${errorMessage(error)}`));
      return 1;
    }

    out(
      s.bold("timeline") +
        s.dim("  (ms since the agent was spawned; what the client saw, in order)"),
    );
    out(formatTimeline(timeline.entries, { color }));
    out();
    return summarize(timeline, target, s, out);
  } finally {
    removeWorkspace(cwd);
  }
}

function summarize(t: Timeline, target: string, s: Styles, out: (line?: string) => void): number {
  const [listed, removed, pushed] = t.toolCalls;
  const survived = existsSync(target);
  const checks: [boolean, string][] = [
    [
      listed?.status === "completed",
      `allowed   ${listed?.title ?? "?"}: ${listed?.status ?? "missing"}, ${oneLine(listed?.text ?? "")}`,
    ],
    [
      removed?.status === "failed" && removed.hooks.some((h) => h.outcome === "denied"),
      `denied    ${removed?.title ?? "?"}: ${oneLine(removed?.text ?? "missing")}`,
    ],
    [
      pushed?.status === "failed" &&
        t.permissions.some(
          (p) =>
            p.request.toolCall.toolCallId === pushed.toolCallId &&
            p.response.outcome.outcome === "selected" &&
            p.response.outcome.optionId === "reject_once",
        ),
      `asked     ${pushed?.title ?? "?"}: ${oneLine(pushed?.text ?? "missing")}`,
    ],
    [survived, `${target} ${survived ? "still exists" : "is gone"}`],
    [
      t.stopReason === "end_turn",
      `the turn ended with ${t.stopReason}; the agent exited with ${t.exitCode}`,
    ],
  ];
  out(s.bold("result"));
  for (const [ok, line] of checks) out(`  ${ok ? s.green("ok  ") : s.red("FAIL")} ${line}`);
  const passed = checks.every(([ok]) => ok);
  if (!passed && t.stderr.trim() !== "") out(s.dim(`\nagent stderr:\n${t.stderr}`));
  return passed ? 0 : 1;
}
