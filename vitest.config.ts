import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/**
 * Two projects. `unit`: everything that runs in this process (pure units, in-process peers,
 * tools and hooks that start their own children); it needs no build. `e2e`: the tests named
 * `*.e2e.test.ts`, which start the built `hookgate` (dist/) as a client would.
 *
 * Many files spend most of their time waiting on child processes, so the run keeps one more
 * file in flight than there are cores (vitest's default is one fewer: a single file at a time
 * on two cores).
 */
const workers = Math.max(3, availableParallelism() + 1);

export default defineConfig({
  test: {
    globalSetup: ["test/global-setup.ts"],
    maxWorkers: workers,
    testTimeout: 20_000,
    hookTimeout: 20_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/**/*.test.ts"],
          exclude: ["test/**/*.e2e.test.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["test/**/*.e2e.test.ts"],
          // A hang guard only: a busy machine running files side by side can triple the time
          // a process-heavy test takes (the 20k-notification flood in mcp/hostile took > 20 s).
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
