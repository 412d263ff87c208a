import { rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { workspace } from "../agent/setup.js";
import { fuzz } from "./run.js";

// `npm run fuzz` runs 10,000 frames; the suite runs a light share of them with the same mix.
const SEED = Number(process.env.HOOKGATE_FUZZ_SEED ?? 1414);
const FRAMES = Number(process.env.HOOKGATE_FUZZ_FRAMES ?? 800);
const CAP_MS = Number(process.env.HOOKGATE_FUZZ_CAP_MS ?? 20_000);

let cwd: string | undefined;
afterEach(() => {
  if (cwd) rmSync(cwd, { recursive: true, force: true });
});

describe("fuzzing the real binary", () => {
  it(
    `seed ${SEED}: random hostile frames among valid requests; the agent lives and answers each with the right code`,
    async () => {
      cwd = workspace();
      const report = await fuzz(SEED, FRAMES, CAP_MS, cwd);
      if (process.env.HOOKGATE_FUZZ_REPORT) console.log(JSON.stringify(report, null, 2));
      expect(report.wrong).toEqual([]);
      expect(report.exited).toBe(false);
      expect(report.sessionWorks).toBe(true);
      expect(report.problems).toEqual([]);
      expect(report.nullReplies.seen).toEqual(report.nullReplies.expected);
      expect(report.frames).toBeGreaterThan(0);
    },
    CAP_MS + 120_000,
  );
});
