import { execFile, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = fileURLToPath(new URL("..", import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  bin: Record<string, string>;
  scripts: Record<string, string>;
  license: string;
  dependencies: Record<string, string>;
  peerDependencies?: Record<string, string>;
};

describe("the published package", () => {
  it("ships an executable bin", () => {
    const bin = readFileSync(join(root, pkg.bin.hookgate ?? ""), "utf8");
    expect(bin.startsWith("#!/usr/bin/env node")).toBe(true);
  });

  it("carries the licence text its package.json names", () => {
    expect(pkg.license).toBe("Apache-2.0");
    const text = readFileSync(join(root, "LICENSE"), "utf8");
    expect(text).toMatch(/^\s+Apache License\s+Version 2\.0, January 2004\s/);
    expect(text).toContain("END OF TERMS AND CONDITIONS");
  });

  it("takes the ACP SDK as a peer dependency, so a client and hookgate/client share one copy", () => {
    // Two copies make TypeScript reject a ClientApp from one in HookRouter.install of the
    // other ("separate declarations of a private property"); npm installs peers itself.
    const sdk = "@agentclientprotocol/sdk";
    expect(pkg.peerDependencies?.[sdk]).toMatch(/^\^2\./);
    expect(pkg.dependencies[sdk]).toBeUndefined();
  });

  it("builds dist/ on install from a clone or a git URL (prepare)", () => {
    expect(pkg.scripts.prepare).toBe("npm run build");
  });
});

describe("a packed tarball installed into another project", () => {
  const project = mkdtempSync(join(tmpdir(), "hookgate-pack-"));
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it("resolves its exports by name, as a consumer would, and runs the bin, ESM only", async () => {
    // `--ignore-scripts`: dist/ was built by `npm test` (scripts/test.mjs); this checks what ships.
    const { stdout } = await run(
      "npm",
      ["pack", "--ignore-scripts", "--json", "--pack-destination", project],
      { cwd: root },
    );
    const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
    expect(packed?.files.map((f) => f.path)).toContain("dist/client/index.js");
    expect(packed?.files.map((f) => f.path)).toContain("LICENSE");
    // hookgate inspect's page ships beside dist/, where the server looks for it.
    expect(packed?.files.map((f) => f.path)).toEqual(
      expect.arrayContaining([
        "inspect-page/index.html",
        "inspect-page/app.js",
        "inspect-page/style.css",
      ]),
    );

    // Unpack as npm would into node_modules/hookgate, and link the dependencies this
    // checkout already has, so the check needs no network.
    const modules = join(project, "node_modules");
    const installed = join(modules, "hookgate");
    mkdirSync(installed, { recursive: true });
    const tarball = join(project, packed?.filename ?? "");
    await run("tar", ["-xzf", tarball, "-C", installed, "--strip-components=1"]);
    for (const name of readdirSync(join(root, "node_modules"))) {
      if (name === "hookgate" || name.startsWith(".")) continue;
      symlinkSync(join(root, "node_modules", name), join(modules, name));
    }

    // One process for both ways in: by import, and by require, which must be refused.
    const script = [
      'const r = await import("hookgate");',
      'const c = await import("hookgate/client");',
      'const t = await import("hookgate/testing");',
      "console.log(typeof r.createAgentApp, r.HOOK_RUN_METHOD);",
      "console.log(typeof c.HookRouter, typeof c.spawnHookgate, typeof t.spawnAgent);",
      'const { createRequire } = await import("node:module");',
      'try { createRequire(process.cwd() + "/")("hookgate/client"); console.log("required"); }',
      "catch (error) { console.log(error.code); }",
    ].join("\n");
    const imported = await run(process.execPath, ["--input-type=module", "-e", script], {
      cwd: project,
    });
    const [exported, client, required] = imported.stdout.trim().split("\n");
    expect([exported, client]).toEqual(["function _hooks/run", "function function function"]);
    expect(required).toMatch(/^(ERR_PACKAGE_PATH_NOT_EXPORTED|ERR_REQUIRE_ESM)$/);

    const version = await run(process.execPath, [join(installed, pkg.bin.hookgate ?? ""), "-v"]);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);

    // hookgate inspect, installed, finds and serves its page.
    const inspector = spawn(
      process.execPath,
      [
        join(installed, pkg.bin.hookgate ?? ""),
        "inspect",
        "--no-open",
        "--",
        "--log-level",
        "error",
      ],
      { cwd: project, stdio: ["pipe", "pipe", "inherit"] },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        inspector.stdout.setEncoding("utf8").on("data", (chunk: string) => {
          const found = /hookgate inspect: (\S+)/.exec(chunk);
          if (found?.[1]) resolve(found[1]);
        });
        inspector.once("exit", (code) => reject(new Error(`inspect exited with ${code}`)));
      });
      // The printed link's one-time code is exchanged for the cookie the page then rides on.
      const entered = await fetch(url, { redirect: "manual" });
      expect(entered.status).toBe(303);
      const cookie = (entered.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "";
      const page = await fetch(new URL("/", url), { headers: { cookie } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("<title>hookgate inspect</title>");
      const script = await fetch(new URL("/conversation.js", url), { headers: { cookie } });
      expect(script.status).toBe(200);
    } finally {
      inspector.kill("SIGTERM");
    }
  }, 60_000);
});
