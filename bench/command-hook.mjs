// `node bench/command-hook.mjs [--calls N]`: what one command hook costs on the gate.
// The same turn of N Read calls runs through one `exit 0` command hook from a settings
// file, and through one client callback that answers at once, for comparison; the figure
// is `_meta.hooksGateMs` (gate start to decision, measured inside the agent).
import console from "node:console";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  CLI,
  connectAgent,
  initialize,
  openSession,
  preToolUse,
  prompt,
  toolLines,
} from "./client.mjs";
import { UpdateCollector } from "./scenarios.mjs";
import { percentilesUs } from "./stats.mjs";

const { values } = parseArgs({ options: { calls: { type: "string", default: "200" } } });
const calls = Number(values.calls);
if (!Number.isInteger(calls) || calls < 1)
  throw new Error(`--calls: ${values.calls} is not a positive integer`);

const dir = mkdtempSync(join(tmpdir(), "hookgate-bench-cmd-"));
const file = join(dir, "file.txt");
writeFileSync(file, "x\n");
const settings = join(dir, "settings.json");
writeFileSync(
  settings,
  JSON.stringify({
    hooks: { PreToolUse: [{ matcher: "Read", hooks: [{ type: "command", command: "exit 0" }] }] },
  }),
);

const collector = new UpdateCollector();
const conn = connectAgent(CLI, {
  args: ["--log-level", "warn", "--settings", settings],
  onUpdate: collector.onUpdate,
});
try {
  await initialize(conn.agent);
  const figure = async (hooks, kind) => {
    const sessionId = await openSession(conn.agent, dir, hooks);
    await prompt(conn.agent, sessionId, toolLines(calls, "Read", { file_path: file }));
    const finals = collector.take(sessionId);
    const gated = finals.filter((f) =>
      f.hooks.some((h) => h.kind === kind && h.outcome === "proceeded"),
    );
    if (gated.length !== calls)
      throw new Error(`${kind}: ${gated.length} of ${calls} calls went through the hook`);
    return percentilesUs(gated.map((f) => f.gateMs));
  };
  // The command hook is in every session (it comes from --settings); the callback figure
  // therefore has both, and the command-only figure is the first.
  const command = await figure({}, "command");
  const both = await figure({ PreToolUse: preToolUse(["cb-0"]) }, "callback");
  console.log(
    JSON.stringify(
      {
        calls,
        cpus: availableParallelism(),
        loadavg1: loadavg()[0],
        command_hook_gate: command,
        command_plus_callback_gate: both,
      },
      null,
      2,
    ),
  );
} finally {
  await conn.close();
  rmSync(dir, { recursive: true, force: true });
}
