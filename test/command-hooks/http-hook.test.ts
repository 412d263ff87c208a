import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { postHook } from "../../src/command-hooks/http-hook.js";
import {
  loadCommandHooks,
  ManagedSettingsError,
  type SettingsRequest,
} from "../../src/command-hooks/settings.js";
import type { CommandHookRunner } from "../../src/hooks/command.js";
import { runGate } from "../../src/hooks/gate.js";
import { silentLogger } from "../../src/shared/log.js";
import type { HookTransport } from "../../src/hooks/transport.js";
import { gateCall } from "../hooks/gate-call.js";

/** What the policy server saw of one request. */
interface Seen {
  path: string;
  method: string;
  headers: IncomingMessage["headers"];
  body: string;
  /** Resolves when the client went away before an answer (an aborted request). */
  aborted: Promise<void>;
}

type Answer = (res: ServerResponse) => void;

const seen: Seen[] = [];
let answers: Record<string, Answer> = {};
const server = createServer((req, res) => {
  let body = "";
  req.on("data", (c: Buffer) => (body += c.toString("utf8")));
  req.on("end", () => {
    const aborted = new Promise<void>((resolve) => res.on("close", () => resolve()));
    const path = req.url ?? "/";
    seen.push({ path, method: req.method ?? "", headers: req.headers, body, aborted });
    (answers[path] ?? ((r) => r.end()))(res);
  });
});
let base = "";
const temps: string[] = [];

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
afterEach(() => {
  seen.length = 0;
  answers = {};
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const json =
  (value: unknown, status = 200): Answer =>
  (res) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(typeof value === "string" ? value : JSON.stringify(value));
  };
const never: Answer = () => {};
const deny = (reason: string) => ({
  hookSpecificOutput: {
    hookEventName: "PreToolUse",
    permissionDecision: "deny",
    permissionDecisionReason: reason,
  },
});

/** The PreToolUse handlers of one `--settings` file holding `handlers`, as the loader makes them. */
function load(handlers: Record<string, unknown>[], extra: Partial<SettingsRequest> = {}) {
  const dir = mkdtempSync(join(tmpdir(), "http-hook-"));
  temps.push(dir);
  const path = join(dir, "policy.json");
  writeFileSync(
    path,
    JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: handlers }] } }),
  );
  const loaded = loadCommandHooks({ cwd: dir, home: dir, sources: [], explicit: [path], ...extra });
  return { loaded, handlers: (loaded.commands.PreToolUse ?? []).flatMap((g) => g.handlers), path };
}

/** A managed settings file with these keys, for `load`'s `managed`. */
function managedFile(data: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), "http-hook-managed-"));
  temps.push(dir);
  const path = join(dir, "managed-settings.json");
  writeFileSync(path, JSON.stringify(data));
  return path;
}

const runner: CommandHookRunner = {
  run: () => Promise.reject(new Error("no commands here")),
  post: (handler, input, signal) => postHook(handler, JSON.stringify(input), signal),
};

/** Puts `rm -rf /` through the gate with these http handlers. */
function gate(handlers: ReturnType<typeof load>["handlers"]) {
  const transport: HookTransport = {
    run: () => Promise.reject(new Error("no client callbacks here")),
    event() {},
  };
  return runGate({ ...gateCall([]), handlers }, new AbortController().signal, {
    transport,
    commands: runner,
    log: silentLogger(),
  });
}

const outcomes = (v: Awaited<ReturnType<typeof gate>>) => v.reports.map((r) => [r.kind, r.outcome]);

describe("http hooks from a settings file", () => {
  it("POSTs the hook input as JSON, and a 2xx JSON deny blocks the call, reported as kind http under the file's id", async () => {
    answers["/policy"] = json(deny("no rm -rf here"));
    const { handlers, path } = load([{ type: "http", url: `${base}/policy` }]);
    const v = await gate(handlers);
    expect(v).toMatchObject({ kind: "denied", reason: "no rm -rf here" });
    expect(v.reports).toEqual([
      expect.objectContaining({
        hookCallbackId: `explicit:${path}#PreToolUse[0].hooks[0]`,
        kind: "http",
        outcome: "denied",
      }),
    ]);
    const [request] = seen;
    expect(request?.method).toBe("POST");
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(request?.body ?? "")).toMatchObject({
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "rm -rf /" },
    });
  });

  it("an empty 2xx body proceeds; a non-JSON body, a 500 and a redirect are hook_errors that fail open", async () => {
    answers["/empty"] = (res) => res.end();
    answers["/text"] = (res) => res.end("ok");
    answers["/500"] = json(deny("a 500 never decides"), 500);
    answers["/moved"] = (res) => {
      res.writeHead(302, { location: "/policy" });
      res.end();
    };
    answers["/policy"] = json(deny("never reached through a redirect"));
    const { handlers } = load(
      ["/empty", "/text", "/500", "/moved"].map((p) => ({ type: "http", url: `${base}${p}` })),
    );
    const v = await gate(handlers);
    expect(v.kind).toBe("pass");
    expect(outcomes(v)).toEqual([
      ["http", "proceeded"],
      ["http", "hook_error"],
      ["http", "hook_error"],
      ["http", "hook_error"],
    ]);
    expect(v.reports[2]?.reason).toBe(`HTTP 500 from ${base}/500`);
    expect(seen.map((s) => s.path).sort()).toEqual(["/500", "/empty", "/moved", "/text"]);
  });

  it("a failure fails closed when the handler says onFailure block", async () => {
    answers["/500"] = json({}, 503);
    const { handlers } = load([{ type: "http", url: `${base}/500`, onFailure: "block" }]);
    const v = await gate(handlers);
    expect(v).toMatchObject({ kind: "denied" });
    expect(outcomes(v)).toEqual([["http", "hook_error"]]);
  });

  it("a server that refuses the connection is a transport_error", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const { handlers } = load([{ type: "http", url: `http://127.0.0.1:${port}/gone` }]);
    const v = await gate(handlers);
    expect(outcomes(v)).toEqual([["http", "transport_error"]]);
    expect(v.reports[0]?.reason).toContain("ECONNREFUSED");
  });

  it("the timeout bounds the whole exchange: a server that never answers is timed_out and its request is aborted", async () => {
    answers["/slow"] = never;
    const { handlers } = load([{ type: "http", url: `${base}/slow`, timeout: 0.2 }]);
    const v = await gate(handlers);
    expect(outcomes(v)).toEqual([["http", "timed_out"]]);
    await seen[0]?.aborted;
  });

  it("the first deny wins while an http sibling hangs, and the sibling's request is aborted", async () => {
    answers["/hang"] = never;
    answers["/deny"] = json(deny("first deny"));
    const { handlers } = load([
      { type: "http", url: `${base}/hang` },
      { type: "http", url: `${base}/deny` },
    ]);
    const v = await gate(handlers);
    expect(v).toMatchObject({ kind: "denied", reason: "first deny" });
    expect(outcomes(v)).toEqual([
      ["http", "cancelled"],
      ["http", "denied"],
    ]);
    const hung = seen.find((s) => s.path === "/hang");
    expect(hung).toBeDefined();
    await hung?.aborted;
  });

  it("a body past the cap: a deny in it still denies, anything else is a transport_error", async () => {
    const padding = "x".repeat(200_000);
    answers["/big-deny"] = json({ ...deny("padded deny"), echo: padding });
    answers["/big-allow"] = json({
      echo: padding,
      hookSpecificOutput: { hookEventName: "PreToolUse" },
    });
    const denied = await gate(load([{ type: "http", url: `${base}/big-deny` }]).handlers);
    expect(denied).toMatchObject({ kind: "denied", reason: "padded deny" });
    expect(denied.reports[0]).toMatchObject({ outcome: "denied", truncated: true });
    const other = await gate(load([{ type: "http", url: `${base}/big-allow` }]).handlers);
    expect(other.kind).toBe("pass");
    expect(other.reports[0]).toMatchObject({ outcome: "transport_error", truncated: true });
  });

  it("headers fill $VAR and ${VAR} only from allowedEnvVars, never a model key; the rest are left empty with a warning naming header and variable", async () => {
    answers["/h"] = json({});
    const { handlers, loaded } = load(
      [
        {
          type: "http",
          url: `${base}/h`,
          headers: {
            Authorization: "Bearer $POLICY_TOKEN",
            "X-Team": "${TEAM}-$SECRET",
            "X-Key": "$ANTHROPIC_API_KEY",
          },
          allowedEnvVars: ["POLICY_TOKEN", "TEAM", "ANTHROPIC_API_KEY"],
        },
      ],
      {
        headerEnv: {
          values: { POLICY_TOKEN: "t0k", TEAM: "core", SECRET: "s3", ANTHROPIC_API_KEY: "sk" },
          withheld: (name) => name === "ANTHROPIC_API_KEY",
        },
      },
    );
    await gate(handlers);
    expect(seen[0]?.headers).toMatchObject({ authorization: "Bearer t0k", "x-team": "core-" });
    expect(seen[0]?.headers["x-key"]).toBe("");
    expect(loaded.warnings).toEqual([
      expect.stringMatching(/header X-Team: \$SECRET is not in allowedEnvVars/),
      expect.stringMatching(/header X-Key: \$ANTHROPIC_API_KEY is a model key/),
    ]);
  });

  it("httpHookAllowedEnvVars narrows what a handler may read", async () => {
    answers["/h"] = json({});
    const { handlers } = load(
      [
        {
          type: "http",
          url: `${base}/h`,
          headers: { "X-Team": "$TEAM" },
          allowedEnvVars: ["TEAM"],
        },
      ],
      {
        headerEnv: { values: { TEAM: "core" }, withheld: () => false },
        managed: managedFile({ httpHookAllowedEnvVars: [] }),
      },
    );
    await gate(handlers);
    expect(seen[0]?.headers["x-team"]).toBe("");
  });

  it("a URL outside allowedHttpHookUrls is never called: a hook_error with a warning, closed under onFailure block", async () => {
    answers["/policy"] = json({});
    const { handlers, loaded } = load(
      [{ type: "http", url: `${base}/policy`, onFailure: "block" }],
      { managed: managedFile({ allowedHttpHookUrls: ["https://policy.example.com/*"] }) },
    );
    const v = await gate(handlers);
    expect(v).toMatchObject({ kind: "denied" });
    expect(outcomes(v)).toEqual([["http", "hook_error"]]);
    expect(seen).toEqual([]);
    expect(loaded.warnings).toEqual([
      expect.stringContaining("does not match any pattern in allowedHttpHookUrls"),
    ]);
  });

  it("a project file's allowedHttpHookUrls and httpHookAllowedEnvVars never widen managed ones", async () => {
    answers["/policy"] = json({});
    const project = mkdtempSync(join(tmpdir(), "http-hook-project-"));
    temps.push(project);
    mkdirSync(join(project, ".claude"));
    writeFileSync(
      join(project, ".claude", "settings.json"),
      JSON.stringify({ allowedHttpHookUrls: ["*"], httpHookAllowedEnvVars: ["TEAM"] }),
    );
    const { handlers, loaded } = load(
      [
        {
          type: "http",
          url: `${base}/policy`,
          headers: { "X-Team": "$TEAM" },
          allowedEnvVars: ["TEAM"],
        },
      ],
      {
        cwd: project,
        sources: ["project"],
        headerEnv: { values: { TEAM: "core" }, withheld: () => false },
        managed: managedFile({
          allowedHttpHookUrls: ["https://policy.example.com"],
          httpHookAllowedEnvVars: [],
        }),
      },
    );
    expect(loaded.policy.http).toEqual({
      allowedHttpHookUrls: ["https://policy.example.com"],
      httpHookAllowedEnvVars: [],
    });
    const v = await gate(handlers);
    expect(outcomes(v)).toEqual([["http", "hook_error"]]);
    expect(seen).toEqual([]);
  });

  it("without managed lists, every file's lists are a union", () => {
    const project = mkdtempSync(join(tmpdir(), "http-hook-project-"));
    temps.push(project);
    mkdirSync(join(project, ".claude"));
    writeFileSync(
      join(project, ".claude", "settings.json"),
      JSON.stringify({ allowedHttpHookUrls: ["https://a.example.com"] }),
    );
    const { loaded } = load([], {
      cwd: project,
      sources: ["project"],
      managed: managedFile({ httpHookAllowedEnvVars: ["TEAM"] }),
    });
    expect(loaded.policy.http).toEqual({
      allowedHttpHookUrls: ["https://a.example.com"],
      httpHookAllowedEnvVars: ["TEAM"],
    });
  });

  it("a managed file that exists but does not parse or fit the schema throws; a missing one is fine", () => {
    const broken = managedFile({});
    writeFileSync(broken, "{ not json");
    expect(() => load([], { managed: broken })).toThrow(ManagedSettingsError);
    expect(() => load([], { managed: managedFile({ allowManagedHooksOnly: "yes" }) })).toThrow(
      /managed settings file .* cannot be loaded/,
    );
    expect(() =>
      load([], { managed: join(tmpdir(), "hookgate-no-such-managed.json") }),
    ).not.toThrow();
  });

  it("an allowedHttpHookUrls pattern that is not a URL is reported once", () => {
    const { loaded } = load([], {
      managed: managedFile({ allowedHttpHookUrls: ["*.example.com/*"] }),
    });
    expect(loaded.warnings).toEqual([
      "allowedHttpHookUrls pattern *.example.com/* is not a URL: it matches nothing",
    ]);
  });

  it("an http handler counts as registered, not skipped, in the settings report", () => {
    const { loaded } = load([
      { type: "http", url: `${base}/a` },
      { type: "command", command: "true" },
    ]);
    expect(loaded.reports).toEqual([
      expect.objectContaining({ handlers: 2, path: expect.stringContaining("policy.json") }),
    ]);
    expect(loaded.reports[0]?.skipped).toBeUndefined();
  });
});
