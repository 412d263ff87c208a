// `npm test`: build:emit, typecheck, lint (oxlint, with its type-aware rules) and vitest,
// overlapped. The build is needed only by vitest's e2e files: run one after another, a 2-core
// machine sat half idle through the build and through whichever of typecheck and lint ended last
// (docs/performance.md, "Test suite time"). So typecheck and lint start at once beside the build,
// and vitest starts when the build is done, while they still run. Their output is held and printed
// whole when each ends, so it does not interleave with vitest's. Arguments go to vitest. The exit
// code is 1 if any step failed.
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import process from "node:process";

const running = new Set();

/** Runs `npm run <script>` (or a command) in its own process group. */
function step(name, command, args, { quiet }) {
  const child = spawn(command, args, {
    stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit",
    detached: true,
  });
  running.add(child);
  let output = "";
  if (quiet) {
    child.stdout.setEncoding("utf8").on("data", (chunk) => (output += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk) => (output += chunk));
  }
  const started = performance.now();
  return new Promise((resolve) => {
    child.once("close", (code, signal) => {
      running.delete(child);
      const ok = code === 0;
      const took = ((performance.now() - started) / 1000).toFixed(1);
      if (quiet) process.stdout.write(output);
      process.stdout.write(
        `\n${name}: ${ok ? "passed" : `failed (${signal ?? code})`} in ${took} s\n`,
      );
      resolve(ok);
    });
  });
}

// Ctrl-C (or a CI timeout) ends every step with its children.
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    for (const child of running) {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // Already gone.
      }
    }
    process.exit(1);
  });
}

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const checks = [
  step("typecheck", npm, ["run", "--silent", "typecheck"], { quiet: true }),
  step("lint", npm, ["run", "--silent", "lint"], { quiet: true }),
];
const built = await step("build:emit", npm, ["run", "--silent", "build:emit"], { quiet: true });
const tested = built
  ? await step(
      "vitest",
      process.execPath,
      ["node_modules/vitest/vitest.mjs", "run", ...process.argv.slice(2)],
      {
        quiet: false,
      },
    )
  : false;
const passed = [built, tested, ...(await Promise.all(checks))].every(Boolean);
process.exit(passed ? 0 : 1);
