import { readFileSync, readdirSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { defineConfig } from "vitest/config";

/**
 * One project for every test file, `unit` (in this process: pure units, in-process peers, tools
 * and hooks that start their own children) and `e2e` (`*.e2e.test.ts`, which start the built
 * `hookgate` in dist/ as a client would) alike; `npm run test:unit` and `npm run test:e2e` run
 * one kind (`HOOKGATE_TEST_KIND`).
 *
 * Each worker runs its files one after another sharing one module graph (`isolate: false`):
 * src/ holds no module state but caches (test/architecture.test.ts), and loading the graph
 * afresh for every file cost more than running the tests; a worker of a second project loads
 * it again, which is why the two kinds share one (docs/performance.md, "Test suite time"). A
 * `vi.mock` replaces a module for the whole graph, so a file that mocks gets a fresh one (the
 * `mocked` project); a test that changes process state (an environment variable, a spy, a
 * listener) puts it back itself.
 *
 * Many files spend most of their time waiting on child processes, so the run keeps one more
 * file in flight than there are cores (vitest's default is one fewer: a single file at a time
 * on two cores).
 */
const workers = Math.max(3, availableParallelism() + 1);

const E2E = ".e2e.test.ts";
const kind = process.env.HOOKGATE_TEST_KIND;
const picked = (file: string): boolean =>
  kind === "unit" ? !file.endsWith(E2E) : kind === "e2e" ? file.endsWith(E2E) : true;

const files = readdirSync("test", { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith(".test.ts") && picked(file))
  .map((file) => join("test", file));
const mocking = files.filter((file) => /\bvi\.(do)?[mM]ock\(/.test(readFileSync(file, "utf8")));

export default defineConfig({
  test: {
    globalSetup: ["test/global-setup.ts"],
    maxWorkers: workers,
    // A hang guard only: a busy machine running files side by side can triple the time a
    // process-heavy test takes (a notification flood in mcp/hostile once took > 20 s).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "all",
          include: files.filter((file) => !mocking.includes(file)),
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: "mocked", include: mocking },
      },
    ],
  },
});
