import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/**
 * Two kinds of test. `unit`: everything that runs in this process (pure units, in-process
 * peers, tools and hooks that start their own children); it needs no build. `e2e`: the tests
 * named `*.e2e.test.ts`, which start the built `hookgate` (dist/) as a client would.
 *
 * Each kind runs its files one after another in each worker, sharing the module graph
 * (`isolate: false`): src/ holds no module state but caches (test/architecture.test.ts), and
 * loading the graph afresh for every file cost more than running the tests (docs/performance.md,
 * "Test suite time"). A `vi.mock` would replace a module for the whole graph, so no file mocks
 * one (test/architecture.test.ts): a test reaches a dependency through a real seam, or changes
 * process state (an environment variable, a spy, a listener, a builtin's export) and puts it
 * back itself.
 *
 * Many files spend most of their time waiting on child processes, so the run keeps one more
 * file in flight than there are cores (vitest's default is one fewer: a single file at a time
 * on two cores).
 */
const workers = Math.max(3, availableParallelism() + 1);

// A hang guard only: a busy machine running files side by side can triple the time a
// process-heavy test takes (a notification flood in mcp/hostile once took > 20 s).
const e2eTimeouts = { testTimeout: 60_000, hookTimeout: 60_000 };

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
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["test/**/*.e2e.test.ts"],
          isolate: false,
          ...e2eTimeouts,
        },
      },
    ],
  },
});
