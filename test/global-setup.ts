import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSync } from "esbuild";
import type { TestProject } from "vitest/node";
import { MANAGED_SETTINGS_PATH } from "../src/command-hooks/sources.js";
import { serveChromium } from "./inspect/chromium-server.js";
import {
  ELICIT_BUNDLE,
  ELICIT_SOURCE,
  FIXTURE_BUNDLE,
  FIXTURE_SOURCE,
} from "./mcp/fixture-bundle.js";

/**
 * One temporary directory for the whole run, removed at its end: every temp dir a test, a
 * spawned agent or a hook script makes lands under it (TMPDIR), and every hookgate a test
 * starts without `--data-dir` persists under it (`$XDG_STATE_HOME`), so a run leaves nothing
 * behind. A run started inside another (it inherits HOOKGATE_TEST_RUN) keeps the outer run's
 * directory, so paths do not nest (Chromium's socket path has a length limit).
 *
 * The run's home is an empty directory in it too (HOME, with the XDG config, data and cache
 * directories inside it). An agent reads the user's files from the home
 * (`~/.claude/settings.json`, `~/.codex/hooks.json`, `~/.claude/CLAUDE.md`,
 * `~/.claude/commands/`), whether it runs in a worker (`os.homedir()`) or as a child of one
 * (the environment), so a test that names no `home` of its own would otherwise see, and could
 * write to, the runner's. Set here, before vitest starts its workers, it reaches every worker,
 * every process they start, and any test added later (test/run-environment.test.ts checks it;
 * the teardown fails the run if a test wrote user files into it).
 *
 * Managed settings are the one user-level input the environment cannot move: their path is
 * the system's (`MANAGED_SETTINGS_PATH`). A machine that has the file is told so, since every
 * agent a test starts without `--managed-settings` loads it.
 *
 * The fixture MCP servers are bundled into that directory once, here: started from its source
 * a server loads the SDK's modules one by one, about 0.45 s of CPU against 0.3 s bundled, and
 * the MCP tests start a few dozen servers.
 *
 * The browser files share one Chromium, launched when the first of them asks for it
 * (test/inspect/chromium-server.ts) and closed here at the end.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const chromium = await serveChromium();
  project.provide("chromiumBroker", chromium.url);
  const run = makeRunDirectory();
  if (existsSync(MANAGED_SETTINGS_PATH)) {
    process.stderr.write(
      `note: ${MANAGED_SETTINGS_PATH} exists: every agent a test starts without ` +
        "--managed-settings loads it, so its hooks and rules apply in this run\n",
    );
  }
  return async () => {
    // The run directory goes even when the browser does not close cleanly.
    try {
      await chromium.close();
    } finally {
      run?.();
    }
  };
}

function makeRunDirectory(): (() => void) | undefined {
  if (process.env.HOOKGATE_TEST_RUN !== undefined) return undefined;
  const run = mkdtempSync(join(tmpdir(), "hookgate-run-"));
  const stateHome = join(run, "state");
  mkdirSync(stateHome);
  const home = join(run, "home");
  mkdirSync(home);
  process.env.HOOKGATE_TEST_RUN = run;
  process.env.TMPDIR = run;
  process.env.HOME = home;
  // What `os.homedir()` reads on Windows.
  process.env.USERPROFILE = home;
  process.env.XDG_CONFIG_HOME = join(home, ".config");
  process.env.XDG_DATA_HOME = join(home, ".local", "share");
  process.env.XDG_CACHE_HOME = join(home, ".cache");
  process.env.XDG_STATE_HOME = stateHome;
  // npm run by `npm test` exports the runner's cache and user config; a test's `npm pack`
  // would read the one and write logs into the other.
  process.env.npm_config_cache = join(home, ".npm");
  process.env.npm_config_userconfig = join(home, ".npmrc");
  for (const [source, bundle] of [
    [FIXTURE_SOURCE, FIXTURE_BUNDLE],
    [ELICIT_SOURCE, ELICIT_BUNDLE],
  ] as const) {
    buildSync({
      entryPoints: [source],
      bundle: true,
      platform: "node",
      format: "esm",
      minify: true,
      outfile: join(run, bundle),
      logLevel: "warning",
    });
  }
  return () => {
    // The home is every test's: a test that needs user files makes a home of its own (the
    // agent's `home`, or HOME for a process), else one file's writes would change another's run.
    // Named before the directory goes, so the error says what was written.
    const written = [".claude", ".codex"].flatMap((name) => {
      const dir = join(home, name);
      if (!existsSync(dir)) return [];
      const files = readdirSync(dir, { recursive: true, encoding: "utf8" });
      return files.length > 0 ? files.map((file) => join(name, file)) : [name];
    });
    rmSync(run, { recursive: true, force: true });
    if (written.length > 0) {
      // vitest reports an error thrown here but still exits 0; the exit code is what CI reads.
      process.exitCode = 1;
      throw new Error(
        `a test wrote ${written.join(", ")} into the run's home: give it one of its own`,
      );
    }
  };
}
