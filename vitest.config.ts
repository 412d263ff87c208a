import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/**
 * Every test file in one pool: `unit` files (in this process: pure units, in-process peers,
 * tools and hooks that start their own children) and `e2e` files (`*.e2e.test.ts`, which
 * start the built `hookgate` in dist/ as a client would) alike. `npm run test:unit` and
 * `npm run test:e2e` pick one kind by file name.
 *
 * Each worker runs its files one after another sharing one module graph (`isolate: false`):
 * src/ holds no module state but caches (test/architecture.test.ts), and loading the graph
 * afresh for every file cost more than running the tests; a worker of a second vitest project
 * would load it again, which is why the two kinds are not two projects (docs/performance.md,
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

export default defineConfig({
  test: {
    globalSetup: ["test/global-setup.ts"],
    include: ["test/**/*.test.ts"],
    isolate: false,
    maxWorkers: workers,
    server: {
      deps: {
        // The built package (what "hookgate", "hookgate/client" and "hookgate/testing" resolve
        // to from a test or a docs snippet) is plain ES modules: Node imports it as a user's
        // program would. Inlined, vitest transformed each of its files and read its source
        // maps in the main process (about 2 s of CPU for the docs snippets alone).
        external: [/\/dist\/.*\.js$/],
      },
    },
    // A hang guard only: a busy machine running files side by side can triple the time a
    // process-heavy test takes (a notification flood in mcp/hostile once took > 20 s).
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
