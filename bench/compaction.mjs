// `npm run bench:compaction` (or `node bench/compaction.mjs [TURNS] [--window N]`, after a
// build): one session of TURNS scripted turns (default 2,000), each a Bash call, with a small
// context window, so auto compaction runs again and again. Prints JSON: the window, how full
// the context ever got (from `usage_update`), how many compactions ran, and per window of turns
// (first, middle, last 20) the p50 wall time and CPU per turn. Flat means the last window costs
// what the first did.
import console from "node:console";
import process from "node:process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI, connectAgent, initialize } from "./client.mjs";
import { longSession, summarize } from "./long-session.mjs";

const args = process.argv.slice(2);
const turns = Number(args.find((a) => /^\d+$/.test(a)) ?? 2_000);
const windowAt = args.indexOf("--window");
const window = windowAt >= 0 ? Number(args[windowAt + 1]) : 2_000;

let peak = 0;
let compactions = 0;
const cwd = mkdtempSync(join(tmpdir(), "hookgate-bench-compaction-"));
const conn = connectAgent(CLI, {
  args: ["--log-level", "error", "--context-window", String(window)],
  onUpdate: ({ update }) => {
    if (update.sessionUpdate === "usage_update") peak = Math.max(peak, update.used);
    if (
      update.sessionUpdate === "agent_message_chunk" &&
      update.content.type === "text" &&
      update.content.text.includes("Conversation compacted (auto)")
    )
      compactions++;
  },
});
try {
  await initialize(conn.agent);
  const run = await longSession(conn, { cwd }, { turns });
  console.log(
    JSON.stringify(
      {
        turns,
        contextWindow: window,
        peakContextTokens: peak,
        peakShareOfWindow: Math.round((peak / window) * 100) / 100,
        compactions,
        ...summarize(run),
      },
      null,
      2,
    ),
  );
  if (peak >= window) process.exitCode = 1;
} finally {
  await conn.close();
  rmSync(cwd, { recursive: true, force: true });
}
