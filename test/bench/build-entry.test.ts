import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";

const CLIENT = new URL("../../bench/client.mjs", import.meta.url).href;
const STARTUP = fileURLToPath(new URL("../../bench/startup.mjs", import.meta.url));

const { buildEntry } = (await import(CLIENT)) as {
  buildEntry: (dir: string, arg: string) => string;
};

describe("another build named by --baseline", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "hookgate-build-entry-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("is found in a dist/ or in a checkout holding one", () => {
    mkdirSync(join(dir, "dist"));
    writeFileSync(join(dir, "dist", "cli.js"), "");
    expect(buildEntry(dir, "--baseline x")).toBe(join(dir, "dist", "cli.js"));
    expect(buildEntry(join(dir, "dist"), "--baseline x")).toBe(join(dir, "dist", "cli.js"));
  });

  it("that has no build fails bench:startup before an agent is spawned, naming what it looked for", async () => {
    const run = promisify(execFile)(process.execPath, [STARTUP, "--baseline", dir], {
      timeout: 30_000,
    });
    const failed = await run.then(
      () => undefined,
      (error: unknown) => error,
    );
    const { stderr } = z.object({ stderr: z.string() }).parse(failed);
    expect(stderr).toContain(`--baseline ${dir}: neither ${join(dir, "cli.js")}`);
    expect(stderr).not.toContain("ACP connection closed");
  });
});
