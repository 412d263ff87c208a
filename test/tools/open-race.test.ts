import { spawn, type ChildProcess } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { processAlive } from "../../src/process/process-group.js";
import { editTool } from "../../src/tools/edit.js";
import { readTool } from "../../src/tools/read.js";
import { writeTool } from "../../src/tools/write.js";
import { waitUntil } from "../helpers/wait.js";
import { runTool, tempDir, toolContext } from "./helpers.js";

/**
 * Attempts per tool; each one races a symlink flipping between inside and outside. With the
 * check of what was opened removed, 7 to 30 of 100 attempts leaked (reads and writes alike),
 * so 100 cannot all miss the race; the flipper spins for as long as they run.
 */
const ATTEMPTS = 100;

/** A busy machine may take a while over them; the figure that matters is the leak count. */
const RACE_TEST_MS = 120_000;

/**
 * Points `link` alternately at `a` and `b`, in fast bursts, by atomic rename, until
 * killed (or after 120 s, so it can never outlive a crashed test run).
 */
const FLIPPER = `
const fs = require("node:fs");
const [link, a, b] = process.argv.slice(1);
const tmp = link + ".flip";
const rest = new Int32Array(new SharedArrayBuffer(4));
const stopAt = Date.now() + 120000;
for (let i = 0; Date.now() < stopAt; i++) {
  try { fs.unlinkSync(tmp); } catch {}
  fs.symlinkSync(i % 2 ? a : b, tmp);
  fs.renameSync(tmp, link);
  // Bursts of flips with short rests (on either target: 15 is odd), so some calls see a
  // link that holds still.
  if (i % 15 === 0) Atomics.wait(rest, 0, 0, 1);
}
`;

let cwd: string;
let outside: string;
let flipper: ChildProcess | undefined;

/** Starts the flipper and resolves once the link exists. */
async function flip(link: string, a: string, b: string): Promise<void> {
  const child = spawn(process.execPath, ["-e", FLIPPER, link, a, b], { stdio: "ignore" });
  flipper = child;
  await waitUntil(
    "the flipper to create the link",
    () =>
      readFile(link).then(
        () => true,
        () => false,
      ),
    { within: 30_000 },
  );
}

beforeEach(async () => {
  cwd = await tempDir();
  outside = await tempDir("hookgate-outside-");
});

afterEach(async () => {
  const pid = flipper?.pid;
  flipper?.kill("SIGKILL");
  flipper = undefined;
  if (pid !== undefined) await waitUntil("the flipper gone", () => !processAlive(pid));
});

describe("a symlink flipped between inside and outside during the call", () => {
  it(
    `never lets Read return the outside file (${ATTEMPTS} attempts)`,
    async () => {
      await writeFile(path.join(cwd, "inside.txt"), "harmless\n");
      await writeFile(path.join(outside, "secret.txt"), "SECRET\n");
      await flip(
        path.join(cwd, "flip"),
        path.join(cwd, "inside.txt"),
        path.join(outside, "secret.txt"),
      );
      let leaks = 0;
      let served = 0;
      for (let i = 0; i < ATTEMPTS; i++) {
        const result = await runTool(readTool, { file_path: "flip" }, toolContext(cwd)).catch(
          () => undefined,
        );
        if (result === undefined) continue;
        served += 1;
        if (result.output.includes("SECRET")) leaks += 1;
      }
      expect(leaks).toBe(0);
      // The race was real: some reads went through to the inside file.
      expect(served).toBeGreaterThan(0);
    },
    RACE_TEST_MS,
  );

  it(
    `never lets Write or Edit change the outside file (${ATTEMPTS} attempts)`,
    async () => {
      const inside = path.join(cwd, "target.txt");
      const target = path.join(outside, "target.txt");
      const untouched = "pwned outside\n";
      await writeFile(inside, "pwned inside\n");
      await writeFile(target, untouched);
      await flip(path.join(cwd, "flip"), inside, target);
      let leaks = 0;
      let written = 0;
      for (let i = 0; i < ATTEMPTS; i++) {
        // Write puts "pwned" in; Edit then finds it, in whichever file it reached.
        const attempt =
          i % 2 === 0
            ? runTool(writeTool, { file_path: "flip", content: `pwned ${i}\n` }, toolContext(cwd))
            : runTool(
                editTool,
                { file_path: "flip", old_string: "pwned", new_string: "edited" },
                toolContext(cwd),
              );
        if (
          await attempt.then(
            () => true,
            () => false,
          )
        )
          written += 1;
        if ((await readFile(target, "utf8")) !== untouched) {
          leaks += 1;
          await writeFile(target, untouched);
        }
      }
      expect(leaks).toBe(0);
      expect(written).toBeGreaterThan(0);
    },
    RACE_TEST_MS,
  );
});
