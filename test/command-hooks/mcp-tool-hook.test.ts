import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { callMcpToolHook, toolArguments } from "../../src/command-hooks/mcp-tool-hook.js";
import { loadCommandHooks } from "../../src/command-hooks/settings.js";
import type { McpToolHandler } from "../../src/hooks/command.js";
import type { HookMcpServers } from "../../src/hooks/mcp-tool.js";
import type { AnyHookInput } from "../../src/wire/hook-input.js";

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function load(handlers: unknown[], event = "PreToolUse") {
  const dir = mkdtempSync(join(tmpdir(), "mcp-tool-hook-"));
  temps.push(dir);
  const path = join(dir, "policy.json");
  writeFileSync(path, JSON.stringify({ hooks: { [event]: [{ hooks: handlers }] } }));
  return loadCommandHooks({ cwd: dir, home: dir, sources: [], explicit: [path] });
}

const input = {
  session_id: "s1",
  transcript_path: "",
  cwd: "/p",
  hook_event_name: "PreToolUse",
  tool_name: "Bash",
  tool_input: { command: "rm -rf build", timeout: 5 },
  tool_use_id: "t1",
} as unknown as AnyHookInput;

describe("mcp_tool handlers in a settings file", () => {
  it("are registered, not skipped, with Claude Code's fields", () => {
    const loaded = load([
      { type: "mcp_tool", server: "policy", tool: "judge", input: { cmd: "x" }, timeout: 5 },
    ]);
    expect(loaded.reports[0]?.skipped).toBeUndefined();
    expect(loaded.reports[0]?.handlers).toBe(1);
    const [handler] = (loaded.commands.PreToolUse ?? []).flatMap((g) => g.handlers);
    expect(handler).toMatchObject({
      kind: "mcp_tool",
      server: "policy",
      tool: "judge",
      input: { cmd: "x" },
      timeoutMs: 5000,
    });
  });

  it.each([
    [{ type: "mcp_tool", tool: "judge" }, "hooks[0].server"],
    [{ type: "mcp_tool", server: "policy", tool: "" }, "hooks[0].tool: must not be empty"],
    [{ type: "mcp_tool", server: "policy", tool: "judge", input: "rm" }, "hooks[0].input"],
  ])("a bad handler is a schema error naming the field: %j", (handler, path) => {
    expect(load([handler]).reports[0]?.error).toContain(path);
  });

  it("on SessionEnd one is skipped when it loads: the MCP servers are closed by then", () => {
    const loaded = load(
      [
        { type: "mcp_tool", server: "policy", tool: "judge" },
        { type: "command", command: "true" },
      ],
      "SessionEnd",
    );
    expect(loaded.reports[0]).toMatchObject({
      handlers: 1,
      skipped: [
        "SessionEnd[0].hooks[0]: an mcp_tool hook cannot run on SessionEnd: the session's MCP servers are closed by then",
      ],
    });
    expect(loaded.commands.SessionEnd?.flatMap((g) => g.handlers)).toEqual([
      expect.objectContaining({ kind: "command" }),
    ]);
  });

  it("two copies with the same server, tool and input run once", () => {
    const same = { type: "mcp_tool", server: "policy", tool: "judge", input: { a: 1 } };
    const loaded = load([same, same, { ...same, input: { a: 2 } }]);
    const keys = (loaded.commands.PreToolUse ?? []).flatMap((g) =>
      g.handlers.map((h) => (h.kind === "mcp_tool" ? h.dedupKey : undefined)),
    );
    expect(new Set(keys).size).toBe(2);
  });
});

describe("the tool's arguments, as Claude Code builds them", () => {
  it("fills ${path} from the hook input in strings at any depth, leaving other values", () => {
    const args = toolArguments(
      {
        cmd: "${tool_input.command}",
        line: "${tool_name}: ${tool_input.command} (${tool_input.timeout}s)",
        nested: { list: ["${hook_event_name}", 3, true, null] },
        whole: "${tool_input}",
        literal: "$tool_name",
      },
      input,
    );
    expect(args).toEqual({
      cmd: "rm -rf build",
      line: "Bash: rm -rf build (5s)",
      nested: { list: ["PreToolUse", 3, true, null] },
      whole: '{"command":"rm -rf build","timeout":5}',
      literal: "$tool_name",
    });
  });

  it("a missing path is the empty string; a path through a string goes nowhere", () => {
    expect(toolArguments({ a: "[${nope}]", b: "[${tool_name.length}]" }, input)).toEqual({
      a: "[]",
      b: "[]",
    });
  });

  it("no input: no arguments (the hook input itself is never sent)", () => {
    expect(toolArguments(undefined, input)).toEqual({});
  });
});

describe("calling the tool", () => {
  const handler: McpToolHandler = {
    kind: "mcp_tool",
    id: "h",
    event: "PreToolUse",
    timeoutMs: 1000,
    failClosed: false,
    server: "policy",
    tool: "judge",
    input: { cmd: "${tool_input.command}" },
  };
  const servers = (
    answer: (args: Record<string, unknown>, signal: AbortSignal) => Promise<string>,
  ): HookMcpServers => ({
    callForHook: async (_server, _tool, args, signal) => ({
      status: "answered",
      text: await answer(args, signal),
      isError: false,
    }),
  });

  it("sends the filled arguments and returns the answer", async () => {
    const sent: unknown[] = [];
    const exchange = await callMcpToolHook(
      handler,
      input,
      new AbortController().signal,
      servers((args) => (sent.push(args), Promise.resolve("{}"))),
    );
    expect(sent).toEqual([{ cmd: "rm -rf build" }]);
    expect(exchange).toEqual({ status: "answered", text: "{}", isError: false });
  });

  it("an answer past 64 KiB keeps its head and the skeleton of the whole, a deny in it", async () => {
    const padded = `\uFEFF{"pad":"${"x".repeat(100_000)}","decision":"block","reason":"no"}`;
    const exchange = await callMcpToolHook(
      handler,
      input,
      new AbortController().signal,
      servers(() => Promise.resolve(padded)),
    );
    expect(exchange).toMatchObject({
      status: "answered",
      truncated: { skeleton: { decision: "block", reason: "no" } },
    });
    const text = exchange.status === "answered" ? exchange.text : "";
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(64 * 1024);
    expect(text.startsWith('{"pad":"xxx')).toBe(true);
  });

  it("without the session's MCP servers it is not connected, never thrown", async () => {
    const exchange = await callMcpToolHook(handler, input, new AbortController().signal, undefined);
    expect(exchange).toEqual({
      status: "unavailable",
      error: "MCP server 'policy' not connected",
    });
  });

  it("a call that rejects is failed; one the signal ended is aborted", async () => {
    const failing = servers(() => Promise.reject(new Error("server went away")));
    expect(await callMcpToolHook(handler, input, new AbortController().signal, failing)).toEqual({
      status: "failed",
      error: "mcp_tool hook policy/judge: server went away",
    });
    const controller = new AbortController();
    const hanging = servers(
      (_, signal) =>
        new Promise((_resolve, reject) =>
          signal.addEventListener("abort", () => reject(new Error("cancelled"))),
        ),
    );
    const pending = callMcpToolHook(handler, input, controller.signal, hanging);
    controller.abort();
    expect(await pending).toEqual({ status: "aborted" });
  });
});
