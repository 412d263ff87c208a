import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSync } from "esbuild";
import type { TestProject } from "vitest/node";
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
 * behind and never writes to the real home. A run started inside another (it inherits
 * HOOKGATE_TEST_RUN) keeps the outer run's directory, so paths do not nest (Chromium's socket
 * path has a length limit).
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
  process.env.HOOKGATE_TEST_RUN = run;
  process.env.TMPDIR = run;
  process.env.XDG_STATE_HOME = stateHome;
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
  return () => rmSync(run, { recursive: true, force: true });
}
