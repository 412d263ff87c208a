import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Every hookgate a test starts without `--data-dir` (e.g. a bare `spawnSync` of the CLI) would
 * persist under `$XDG_STATE_HOME`: point that at a temporary directory for the whole run, so no
 * test ever writes to the real home.
 */
export default function setup(): () => void {
  const stateHome = mkdtempSync(join(tmpdir(), "hookgate-test-state-"));
  process.env.XDG_STATE_HOME = stateHome;
  return () => rmSync(stateHome, { recursive: true, force: true });
}
