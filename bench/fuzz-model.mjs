// `npm run fuzz:model [-- SEED [ATTEMPTS]]`: the model as attacker, at scale. ATTEMPTS
// (default 200) hostile Bash commands, each running `rm -rf victim` behind padding up to
// 1 MiB, nesting, shell operators or hook-looking text, against a command-hook policy and a
// callback policy that must deny every one. Prints the report (denies vs expected,
// bypasses); exits non-zero on any bypass. A light share of it runs in `npm test`.
import { spawnSync } from "node:child_process";
import console from "node:console";
import process from "node:process";

const [seedArg, attemptsArg] = process.argv.slice(2);
const seed = seedArg ?? String(Math.floor(Math.random() * 2 ** 31));
const attempts = attemptsArg ?? "200";
if (!/^\d+$/.test(seed) || !/^\d+$/.test(attempts)) {
  console.error("usage: npm run fuzz:model -- [SEED] [ATTEMPTS]");
  process.exit(2);
}
console.log(`model attack: seed ${seed}, ${attempts} attempts`);
const run = spawnSync("npx", ["vitest", "run", "test/fuzz/model-attack.e2e.test.ts"], {
  stdio: "inherit",
  env: {
    ...process.env,
    HOOKGATE_ATTACK_SEED: seed,
    HOOKGATE_ATTACK_ATTEMPTS: attempts,
    HOOKGATE_ATTACK_REPORT: "1",
  },
});
process.exit(run.status ?? 1);
