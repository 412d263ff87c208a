// `npm run fuzz [-- SEED [FRAMES]]`: drives the built agent with FRAMES (default 10,000) seeded
// hostile frames among valid requests and prints the report; exits non-zero on any failure.
// The same run, with fewer frames, is part of `npm test` (test/fuzz).
import { spawnSync } from "node:child_process";
import console from "node:console";
import process from "node:process";

const [seedArg, framesArg] = process.argv.slice(2);
const seed = seedArg ?? String(Math.floor(Math.random() * 2 ** 31));
const frames = framesArg ?? "10000";
if (!/^\d+$/.test(seed) || !/^\d+$/.test(frames)) {
  console.error("usage: npm run fuzz -- [SEED] [FRAMES]");
  process.exit(2);
}
console.log(`fuzz: seed ${seed}, ${frames} frames`);
const run = spawnSync("npx", ["vitest", "run", "test/fuzz"], {
  stdio: "inherit",
  env: {
    ...process.env,
    HOOKGATE_FUZZ_SEED: seed,
    HOOKGATE_FUZZ_FRAMES: frames,
    HOOKGATE_FUZZ_CAP_MS: String(30 * 60_000),
    HOOKGATE_FUZZ_REPORT: "1",
  },
});
process.exit(run.status ?? 1);
