import { describe, expect, it } from "vitest";
import { modelAttack } from "./model-attack.js";

// `npm run fuzz:model` runs many more attempts with the same mix; the suite runs a light share.
const SEED = Number(process.env.HOOKGATE_ATTACK_SEED ?? 1919);
const ATTEMPTS = Number(process.env.HOOKGATE_ATTACK_ATTEMPTS ?? 12);
const MAX_PAD = Number(process.env.HOOKGATE_ATTACK_MAX_PAD ?? 1 << 20);

describe("the model as attacker", () => {
  it(
    `seed ${SEED}: padded, nested, operator-laden and hook-looking commands are denied every time`,
    async () => {
      const report = await modelAttack(SEED, ATTEMPTS, MAX_PAD);
      if (process.env.HOOKGATE_ATTACK_REPORT) console.log(JSON.stringify(report, null, 2));
      expect(report.bypasses).toEqual([]);
      expect(report.notDenied).toEqual([]);
      expect(report.denies).toEqual({ command: ATTEMPTS, callback: ATTEMPTS });
    },
    ATTEMPTS * 20_000 + 60_000,
  );
});
