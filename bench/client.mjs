// The benchmark's ACP client: spawns an agent over stdio, as an IDE would, and answers
// `_hooks/run` by callback id. Everything here runs in the benchmark process.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import process from "node:process";
import { Readable, Writable } from "node:stream";
import { clearTimeout, setTimeout } from "node:timers";
import { URL, fileURLToPath } from "node:url";
import { client, methods, ndJsonStream } from "@agentclientprotocol/sdk";
import { z } from "zod";

export const HOOK_RUN = "_hooks/run";
export const HOOK_EVENT = "_hooks/event";
/** The floor agent's ping: a plain custom request, answered like a hook that says continue. */
export const PING = "_bench/ping";

export const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
export const FLOOR_AGENT = fileURLToPath(new URL("./agent-floor.mjs", import.meta.url));

/**
 * The agent entry of another build named on the command line (`arg`, for the error): `dir` is
 * its dist/ or a checkout holding a built dist/. Throws before anything is spawned when neither has a
 * cli.js: a node spawned on a missing file exits at once, and the bench would only see the
 * SDK's "ACP connection closed".
 */
export function buildEntry(dir, arg) {
  const candidates = [resolve(dir, "cli.js"), resolve(dir, "dist", "cli.js")];
  const entry = candidates.find((file) => existsSync(file));
  if (entry) return entry;
  throw new Error(
    `${arg}: neither ${candidates.join(" nor ")} exists; name a build's dist/ or a ` +
      "checkout where `npm run build` has run",
  );
}

// The client checks what it is sent, as a real one would; the floor's ping pays the same check.
const runParams = z.looseObject({
  sessionId: z.string(),
  hookCallbackId: z.string(),
  toolUseId: z.string(),
  input: z.looseObject({ hook_event_name: z.string() }),
});
const eventParams = z.looseObject({
  sessionId: z.string(),
  hookCallbackId: z.string(),
  input: z.looseObject({ hook_event_name: z.string() }),
});

/** Clock ticks per second of /proc/<pid>/stat times on Linux. */
const USER_HZ = 100;

const never = () => new Promise(() => {});

/** How the bench's hook callbacks answer: `hang*` never, `deny*` denies, the rest continue. */
function answer(hookCallbackId) {
  if (hookCallbackId.startsWith("hang")) return never();
  if (hookCallbackId.startsWith("deny")) return { decision: "deny", reason: "bench deny" };
  return {};
}

/**
 * Spawns `node [nodeArgs] entry [args]` and connects an ACP client to its stdio.
 * `onUpdate(params)` sees every `session/update`, `onEvent(params, at)` every `_hooks/event`.
 */
export function connectAgent(
  entry,
  { args = [], nodeArgs = [], env, onUpdate = () => {}, onEvent = () => {} } = {},
) {
  // Bench sessions persist nowhere that matters: a state home of their own, removed on close.
  const stateHome = mkdtempSync(join(tmpdir(), "hookgate-bench-state-"));
  const child = spawn(process.execPath, [...nodeArgs, entry, ...args], {
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, XDG_STATE_HOME: stateHome, ...env },
  });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk) => (stderr += chunk));
  child.stdin.on("error", () => {});
  const exited = new Promise((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );

  const app = client({ name: "hookgate-bench" })
    .onNotification(methods.client.session.update, ({ params }) => onUpdate(params))
    .onNotification(HOOK_EVENT, eventParams, ({ params }) => onEvent(params, performance.now()))
    .onRequest(HOOK_RUN, runParams, ({ params }) => answer(params.hookCallbackId))
    .onRequest(PING, runParams, () => ({}));
  const connection = app.connect(
    ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout)),
  );
  return {
    agent: connection.agent,
    pid: child.pid,
    stderr: () => stderr,
    ...processStats(child.pid),
    /** Closes stdin and waits for a clean exit (so a --cpu-prof profile gets written). */
    async close() {
      connection.close();
      child.stdin.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      const how = await exited;
      clearTimeout(timer);
      rmSync(stateHome, { recursive: true, force: true });
      return how;
    },
  };
}

/** Resident set and CPU time of a process (Linux /proc). */
export function processStats(pid) {
  return {
    /** Resident set size, in KiB. */
    rssKib() {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      const match = /^VmRSS:\s+(\d+) kB$/m.exec(status);
      if (!match) throw new Error(`no VmRSS for agent ${pid}`);
      return Number(match[1]);
    },
    /** CPU time used so far, in ms (10 ms ticks). */
    cpuMs() {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      // Fields after the command name, which is in parentheses and may contain spaces.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return (Number(fields[11]) + Number(fields[12])) * (1000 / USER_HZ);
    },
  };
}

/** `initialize` as a client without fs or terminal capabilities. */
export function initialize(agent) {
  return agent.request(methods.agent.initialize, {
    protocolVersion: 1,
    clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
  });
}

/** A new session in `bypassPermissions` mode (no permission prompts) with these hooks. */
export async function openSession(agent, cwd, hooks) {
  const { sessionId } = await agent.request(methods.agent.session.new, {
    cwd,
    mcpServers: [],
    _meta: { hooks },
  });
  await agent.request(methods.agent.session.setMode, { sessionId, modeId: "bypassPermissions" });
  return sessionId;
}

/** One prompt turn; resolves with the stop reason. */
export async function prompt(agent, sessionId, text) {
  const { stopReason } = await agent.request(methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text }],
  });
  return stopReason;
}

/** A prompt of `count` `/tool` lines: one turn of `count` tool calls. */
export function toolLines(count, name, input) {
  return Array.from({ length: count }, () => `/tool ${name} ${JSON.stringify(input)}`).join("\n");
}

/** PreToolUse groups for `ids` (at most 64 ids per group, as the wire allows). */
export function preToolUse(ids, extra = {}) {
  const groups = [];
  for (let i = 0; i < ids.length; i += 64) {
    groups.push({ hookCallbackIds: ids.slice(i, i + 64), ...extra });
  }
  return groups;
}
