// The one hook program every scenario uses: it logs its input, then acts as told.
// argv: <log file> <base64 JSON action>; action: { tag?, out?, err?, code?, env?, sleep?,
// onlyIf?, probe? } (`onlyIf`: input fields that must hold for the action to apply; it logs
// either way; `probe`: environment variable names whose presence is logged, or `NAME=field`
// to log whether the variable equals that input field). `$CWD` in `out` is the input's cwd,
// for output that names workspace files by absolute path (SessionStart's `watchPaths`).
// `logAfter`: ms to wait before logging, so a hook that is never awaited and started just
// before this one (a Notification before Stop) has logged first.
import { Buffer } from "node:buffer";
import process from "node:process";
import { setTimeout } from "node:timers";
import { appendFileSync } from "node:fs";

const [logFile, encoded] = process.argv.slice(2);
const action = JSON.parse(Buffer.from(encoded ?? "", "base64").toString("utf8") || "{}");
// Read as a stream: a synchronous read of a pipe can fail with EAGAIN under load.
let text = "";
for await (const chunk of process.stdin) text += chunk;
let input = {};
try {
  input = JSON.parse(text || "{}");
} catch {
  // An input that is not JSON is logged as empty.
}
// `NAME=field`: whether the variable holds the input's field (e.g. the session id).
const probed = (n) => {
  const [name, field] = n.split("=");
  return field ? process.env[name] === input[field] : name in process.env;
};
const probe = action.probe && Object.fromEntries(action.probe.map((n) => [n, probed(n)]));
if (action.logAfter) await new Promise((r) => setTimeout(r, action.logAfter));
appendFileSync(logFile, `${JSON.stringify({ tag: action.tag, input, probe })}\n`);
const applies = Object.entries(action.onlyIf ?? {}).every(([k, v]) => input[k] === v);
if (!applies) process.exit(0);
if (action.env && process.env.CLAUDE_ENV_FILE)
  appendFileSync(process.env.CLAUDE_ENV_FILE, action.env);
if (action.sleep) await new Promise((r) => setTimeout(r, action.sleep));
if (action.out !== undefined) {
  const out = typeof action.out === "string" ? action.out : JSON.stringify(action.out);
  process.stdout.write(out.replaceAll("$CWD", input.cwd ?? "$CWD"));
}
if (action.err !== undefined) process.stderr.write(action.err);
process.exitCode = action.code ?? 0;
