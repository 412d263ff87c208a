// `hookgate inspect` as a process: what its argv and output give away, and what stops it.
import { chmodSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeWorkspace } from "../../src/client/kit/index.js";
import { waitUntil } from "../helpers/wait.js";
import { childrenOf, inspect, raw, type RawResponse, type Running } from "./browser-kit.js";

/** Signs in as a browser would: exchanges the link's one-time code for the token's cookie. */
async function signIn(link: string): Promise<{ cookie: string; token: string }> {
  const entered = await raw(link);
  expect(entered.status).toBe(303);
  const setCookie = [entered.headers["set-cookie"] ?? []].flat().join("\n");
  expect(setCookie).toMatch(/; HttpOnly; SameSite=Strict; Path=\//);
  const cookie = setCookie.split(";")[0] ?? "";
  return { cookie, token: cookie.slice(cookie.indexOf("=") + 1) };
}

/** Posts an action to the page's `/api` as the page on `origin` does, with extra headers. */
function act(origin: string, action: object, headers: Record<string, string>, query = "") {
  return raw(`${origin}/api${query}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin, ...headers },
    body: JSON.stringify(action),
  });
}

const cmdline = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");

describe("hookgate inspect, the process", () => {
  /**
   * One process for the opener test and the stdin test: the first reads what its opener was
   * given, the second ends it by closing the stdin pipe this process holds.
   */
  let withOpener: Promise<{ run: Running; saved: string }> | undefined;
  const openerRun = () =>
    (withOpener ??= (async () => {
      // A fake xdg-open that saves its own /proc/<pid>/cmdline, as any local user can read it.
      const bin = makeWorkspace({
        "xdg-open": `#!/bin/sh\ntr '\\0' '\\n' < /proc/$$/cmdline > "$OPENER_ARGV.part"\nmv "$OPENER_ARGV.part" "$OPENER_ARGV"\n`,
      });
      chmodSync(join(bin, "xdg-open"), 0o755);
      const saved = join(bin, "argv.txt");
      const run = await inspect(
        {},
        {
          own: [],
          env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, OPENER_ARGV: saved },
        },
      );
      return { run, saved };
    })());
  afterAll(async () => {
    await (await withOpener)?.run.stop();
  });

  it("the browser opener's argv (/proc/<pid>/cmdline) carries a one-time code, never the token: it drives nothing, and is dead once the browser used it", async () => {
    const { run, saved } = await openerRun();
    const argv = await waitUntil("the opener ran", () =>
      existsSync(saved) ? readFileSync(saved, "utf8").split("\n") : undefined,
    );
    const opened = argv.find((arg) => arg.startsWith("http://"));
    // One link, printed and opened.
    expect(opened).toBe(run.url);
    const link = new URL(opened ?? "");
    const { origin } = link;
    const sessions = { type: "listSessions" };

    // Whatever another local user reads there, as a token, is refused.
    for (const value of link.searchParams.values()) {
      const asHeader = await act(origin, sessions, { "x-hookgate-token": value });
      expect(asHeader.status).toBe(401);
      const asQuery = await act(origin, sessions, {}, `?token=${encodeURIComponent(value)}`);
      expect(asQuery.status).toBe(401);
    }

    // The browser exchanges it for the cookie; after that it opens nothing.
    const { cookie, token } = await signIn(link.href);
    expect((await act(origin, sessions, { cookie })).status).toBe(200);
    expect((await raw(link.href)).status).toBe(401);

    // The token is in no argv (the opener's, the inspector's, its agent's) and no output.
    const agents = childrenOf(run.child.pid ?? 0);
    expect(agents.length).toBeGreaterThan(0);
    for (const args of [argv, cmdline(run.child.pid ?? 0), ...agents.map(cmdline)]) {
      expect(args.join(" ")).not.toContain(token);
    }
    expect(run.stdout()).not.toContain(token);
    expect(run.stderr()).not.toContain(token);
  });

  it("the close of the stdin pipe its parent holds stops it, and it says why on stderr", async () => {
    const { run } = await openerRun();
    run.child.stdin?.end();
    expect(await run.exited).toBe(0);
    expect(run.stderr()).toContain("hookgate inspect: stopping: its stdin was closed");
  });

  /**
   * One process started with stdin /dev/null, signed in once: the page-server test reads it
   * while it serves, then the SIGTERM test stops it.
   */
  let quiet: Promise<{ run: Running; cookie: string }> | undefined;
  const quietRun = () =>
    (quiet ??= (async () => {
      const run = await inspect({}, { stdin: "ignore" });
      return { run, cookie: (await signIn(run.url)).cookie };
    })());
  afterAll(async () => {
    await (await quiet)?.run.stop();
  });

  it("without the cookie everything is 401; a foreign Origin or Host is refused; pages carry a strict CSP", async () => {
    const { run, cookie } = await quietRun();
    const { origin, port } = new URL(run.url);
    const none = await raw(`${origin}/`);
    expect(none.status).toBe(401);
    expect(none.body).toContain("link hookgate inspect printed");
    expect(none.body).not.toContain("app.js");
    for (const path of ["/?code=wrong", "/events", "/app.js"]) {
      expect((await raw(`${origin}${path}`)).status).toBe(401);
    }
    expect((await raw(`${origin}/app.js`, { headers: { cookie } })).status).toBe(200);
    const page = await raw(`${origin}/`, { headers: { cookie } });
    expect(page.status).toBe(200);
    const csp = String(page.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");

    const newSession = { type: "newSession" };
    expect((await act(origin, newSession, { cookie, origin: "http://evil.example" })).status).toBe(
      403,
    );
    expect((await act(origin, newSession, { cookie, host: `evil.example:${port}` })).status).toBe(
      403,
    );
    const badRule = { type: "addRule", rule: { event: "PreToolUse", matcher: "(" } };
    const invalid = await act(origin, badRule, { cookie });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toContain("rule.matcher");
  });

  it("started with stdin /dev/null it keeps serving; SIGTERM stops it and it says why on stderr", async () => {
    const { run, cookie } = await quietRun();
    const { origin } = new URL(run.url);
    const opened: RawResponse = await act(origin, { type: "newSession" }, { cookie });
    expect(opened.status).toBe(200);
    expect(JSON.parse(opened.body)).toHaveProperty("sessionId");
    expect(run.child.exitCode).toBe(null);
    await run.stop();
    expect(await run.exited).toBe(0);
    expect(run.stderr()).toContain("hookgate inspect: stopping: SIGTERM");
  });
});
