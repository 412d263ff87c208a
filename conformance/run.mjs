// `npm run conformance`: every scenario under the real Claude Code CLI and under hookgate,
// against one fake Anthropic server; prints what each did and whether they agree.
// Usage: node conformance/run.mjs [name-filter ...] [--details] [--raw]
import { Buffer } from "node:buffer";
import process from "node:process";
import { setTimeout } from "node:timers";
import { URL } from "node:url";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { spawnAgent } from "../dist/client/kit/index.js";
import { installClaudeCode, runClaudeCode } from "./claude-code.mjs";
import { startFakeAnthropic } from "./fake-anthropic.mjs";
import { startHttpHooks } from "./http-hook.mjs";
import { observe } from "./observe.mjs";
import { SCENARIOS } from "./scenarios.mjs";

const HOOK = new URL("./hook.mjs", import.meta.url).pathname;
const MCP_SERVER = new URL("./mcp-server.mjs", import.meta.url).pathname;
/** The MCP scenarios' one server: its tools are `mcp__conf__secret`, `mcp__conf__broken`, `mcp__conf__ask`, `mcp__conf__policy`. */
const MCP = { name: "conf", command: process.execPath, args: [MCP_SERVER] };
const PROMPT = "Run the conformance scenario.";
const filters = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const details = process.argv.includes("--details");
const rawDump = process.argv.includes("--raw");

/**
 * A settings file whose every handler runs hook.mjs with its action, logging to `log`, with
 * the scenario's `permissions` and other `settings` keys beside its hooks; an action with
 * `http` is an http handler of the shared hook server (its other fields, such as `headers`,
 * `allowedEnvVars` and `onFailure`, go on the handler).
 */
function settingsFor(scenario, log, httpHooks) {
  const hooks = {};
  for (const [event, groups] of Object.entries(scenario.hooks ?? {})) {
    hooks[event] = groups.map(({ matcher, hooks: handlers }) => ({
      ...(matcher !== undefined && { matcher }),
      hooks: handlers.map(
        ({ async, timeout, if: rule, http, prompt, mcpTool, agent, ...action }) =>
          prompt
            ? { type: "prompt", prompt, ...(timeout && { timeout }), ...(rule && { if: rule }) }
            : mcpTool
              ? mcpToolHandler(mcpTool, action, log, { timeout, rule })
              : agent
                ? {
                    type: "agent",
                    prompt: agent,
                    ...(timeout && { timeout }),
                    ...(rule && { if: rule }),
                  }
                : http
                  ? {
                      type: "http",
                      url: http.url ?? httpHooks.urlFor(action),
                      ...http.handler,
                      ...(timeout && { timeout }),
                      ...(rule && { if: rule }),
                    }
                  : {
                      type: "command",
                      command: `node ${HOOK} ${log} ${Buffer.from(JSON.stringify(action)).toString("base64")}`,
                      ...(async && { async }),
                      ...(timeout && { timeout }),
                      ...(rule && { if: rule }),
                    },
      ),
    }));
  }
  return {
    hooks,
    ...(scenario.permissions && { permissions: scenario.permissions }),
    ...scenario.settings,
  };
}

/**
 * An `mcp_tool` handler calling the MCP server's `policy` tool (or `mcpTool.server`/`tool`):
 * its arguments carry the log, the action and the event, then `mcpTool.input` (default: the
 * Bash command), then `mcpTool.handler`'s fields go on the handler.
 */
function mcpToolHandler(mcpTool, action, log, { timeout, rule }) {
  const encoded = Buffer.from(JSON.stringify(action)).toString("base64");
  return {
    type: "mcp_tool",
    server: mcpTool.server ?? MCP.name,
    tool: mcpTool.tool ?? "policy",
    input: {
      log,
      action: encoded,
      event: "${hook_event_name}",
      ...(mcpTool.input ?? { command: "${tool_input.command}" }),
    },
    ...mcpTool.handler,
    ...(timeout && { timeout }),
    ...(rule && { if: rule }),
  };
}

async function runOne(scenario, side, fake, cc, httpHooks) {
  const root = mkdtempSync(join(tmpdir(), `conformance-${side}-`));
  const cwd = join(root, "work");
  const home = join(root, "home");
  mkdirSync(cwd);
  mkdirSync(home);
  // `files` go in the workspace, `homeFiles` in HOME, `parentFiles` in the workspace's parent.
  for (const [dir, files] of [
    [cwd, scenario.files],
    [home, scenario.homeFiles],
    [root, scenario.parentFiles],
  ]) {
    for (const [name, content] of Object.entries(files ?? {})) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), content);
    }
  }
  // `links`: symbolic links in the workspace, name -> target, as a repository can hold them.
  for (const [name, target] of Object.entries(scenario.links ?? {})) {
    symlinkSync(target, join(cwd, name));
  }
  const hookLog = join(root, "hooks.jsonl");
  const settings = join(root, "settings.json");
  // An agent hook's prompt names workspace files as `$CWD/...`, as the turns do.
  const settingsText = JSON.stringify(settingsFor(scenario, hookLog, httpHooks), null, 2);
  writeFileSync(settings, settingsText.replaceAll("$CWD", cwd));
  httpHooks.use(hookLog);
  // Managed settings: the system file for Claude Code (over a private view of /etc), the
  // `--managed-settings` flag for hookgate.
  const managed = scenario.managed && join(root, "managed-settings.json");
  if (managed) {
    writeFileSync(managed, JSON.stringify(settingsFor(scenario.managed, hookLog, httpHooks)));
  }
  const prompt = scenario.prompts?.[0] ?? scenario.prompt ?? PROMPT;
  // `mode: null`: no mode is chosen, so the settings' `defaultMode` decides.
  const mode = scenario.mode === null ? undefined : (scenario.mode ?? "bypassPermissions");
  // Tool inputs name files by absolute path, as Claude Code's file tools require.
  fake.use(JSON.parse(JSON.stringify(scenario.turns).replaceAll("$CWD", cwd)), {
    holdReplies: () => logged(hookLog, scenario.awaitHookLogs ?? 0),
  });
  // `switchModel`: one session, the prompt, a model switch, then a second prompt. Claude Code
  // takes the model id as is; hookgate knows it as `anthropic:<id>`, listed in its config.
  const switched = scenario.switchModel;
  const config = switched && join(root, "hookgate.json");
  if (config) writeFileSync(config, JSON.stringify({ models: [`anthropic:${switched}`] }));
  let end;
  let raw;
  try {
    if (switched && side === "cc") {
      raw = await runClaudeCode({
        bin: cc.bin,
        cwd,
        home,
        baseUrl: fake.url,
        settings,
        prompt,
        mode,
        env: scenario.env,
        steps: [{ model: switched }, PROMPT],
      });
      end = raw.end;
    } else if (side === "cc") {
      const mcp = scenario.mcp && { [MCP.name]: { command: MCP.command, args: MCP.args } };
      // `prompts`: one run each, the later ones continuing the conversation (`-c`).
      for (const [i, next] of (scenario.prompts ?? [prompt]).entries()) {
        raw = await runClaudeCode({
          bin: cc.bin,
          cwd,
          home,
          baseUrl: fake.url,
          settings,
          prompt: next,
          mode,
          mcp,
          env: scenario.env,
          managed,
          extraArgs: i > 0 ? ["-c"] : [],
        });
      }
      end = raw.end;
    } else {
      raw = await spawnAgent({
        cwd,
        prompt,
        then: switched
          ? [{ model: `anthropic:${switched}` }, PROMPT]
          : (scenario.prompts?.slice(1) ?? []),
        mode,
        model: "anthropic:claude-sonnet-4-5",
        args: [
          ...["--base-url", `${fake.url}/v1`, "--settings", settings],
          ...(managed ? ["--managed-settings", managed] : []),
          ...(config ? ["--config", config] : []),
          // Claude Code reads the user, project and local files by default; hookgate on request.
          ...(scenario.settingSources ? ["--setting-sources", scenario.settingSources] : []),
        ],
        env: {
          ...process.env,
          HOME: home,
          ANTHROPIC_API_KEY: "sk-ant-conformance-dummy",
          ...scenario.env,
        },
        permission: "reject",
        ...(scenario.mcp && { mcpServers: [{ ...MCP, env: [] }] }),
        timeoutMs: 90_000,
      });
      end = raw.stopReason;
    }
  } catch (error) {
    end = `error: ${error.message.split("\n")[0]}`;
  }
  const facets = observe(scenario, { hookLog, requests: fake.requests(), cwd, end, prompt });
  if (rawDump) dumpRaw(side, hookLog, fake.requests());
  rmSync(root, { recursive: true, force: true });
  return { facets, raw };
}

/**
 * Resolves once the hook log holds `count` lines, or after 20 s. Both Claude Code and hookgate
 * end an observe-only hook (InstructionsLoaded) still running when the session ends, and a
 * one-reply turn can end before a hook process under load has logged: a scenario that
 * compares such hooks' inputs sets `awaitHookLogs`, so the model answers only once they have.
 */
async function logged(path, count) {
  const deadline = Date.now() + 20_000;
  const lines = () =>
    existsSync(path) ? readFileSync(path, "utf8").split("\n").filter(Boolean).length : 0;
  while (count > 0 && lines() < count && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** `--raw`: every hook input and the last model request's messages, on stderr. */
function dumpRaw(side, hookLog, requests) {
  const log = existsSync(hookLog) ? readFileSync(hookLog, "utf8").trim() : "";
  const messages = requests.at(-1)?.messages ?? [];
  process.stderr.write(`  --- ${side} hook inputs\n${log}\n  --- ${side} last request messages\n`);
  process.stderr.write(`${JSON.stringify(messages, null, 1)}\n`);
}

function differing(a, b) {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return keys.filter((k) => a[k] !== b[k]);
}

function cell(facets, keys) {
  return keys.map((k) => `${k}: ${facets[k] ?? "—"}`).join("; ");
}

const cc = installClaudeCode();
const fake = await startFakeAnthropic();
const httpHooks = await startHttpHooks();
const rows = [];
const chosen = SCENARIOS.filter(
  (s) => filters.length === 0 || filters.some((f) => s.name.includes(f)),
);
for (const scenario of chosen) {
  const ccRun = await runOne(scenario, "cc", fake, cc, httpHooks);
  const hgRun = await runOne(scenario, "hookgate", fake, cc, httpHooks);
  const diff = differing(ccRun.facets, hgRun.facets);
  const shown = diff.length > 0 ? diff : (scenario.show ?? ["hooks"]);
  const row = {
    scenario,
    agree: diff.length === 0,
    onPurpose: diff.length > 0 && onPurpose(scenario, diff),
    cc: cell(ccRun.facets, shown),
    hg: cell(hgRun.facets, shown),
  };
  rows.push(row);
  row.silent = silentOnBothSides(scenario, ccRun.facets, hgRun.facets);
  const verdict = row.agree ? "agree" : row.onPurpose ? "deviation" : "DISAGREE";
  const note = row.silent ? " (no hook ran on either side)" : "";
  process.stderr.write(`${verdict.padEnd(9)} ${scenario.name}${note}\n`);
  if (details) {
    process.stderr.write(
      `  cc:       ${JSON.stringify(ccRun.facets)}\n  hookgate: ${JSON.stringify(hgRun.facets)}\n`,
    );
  }
}
await fake.close();
await httpHooks.close();

const agreed = rows.filter((r) => r.agree).length;
const documented = rows.filter((r) => r.onPurpose).length;
const silent = rows.filter((r) => r.agree && r.silent).length;
const out = [
  `Claude Code ${cc.version} vs hookgate: ${agreed} of ${rows.length} scenarios agree, ` +
    `${documented} differ on purpose (documented), ${rows.length - agreed - documented} disagree` +
    (silent > 0 ? `; in ${silent} of the agreeing ones no hook ran on either side` : ""),
  "",
  "| scenario | Claude Code | hookgate | agree |",
  "|---|---|---|---|",
  ...rows.map((r) => `| ${r.scenario.name} | ${esc(r.cc)} | ${esc(r.hg)} | ${agreement(r)} |`),
];
process.stdout.write(`${out.join("\n")}\n`);
process.exitCode = agreed + documented === rows.length ? 0 : 1;

function agreement(row) {
  if (row.agree && row.silent) return "yes (no hook ran on either side)";
  if (row.agree) return row.scenario.deviation ? "yes (deviation not seen)" : "yes";
  return row.onPurpose ? `no, on purpose: ${row.scenario.deviation}` : "**no**";
}

/**
 * True when the scenario registers hooks that log and neither side logged one: an agreement that says
 * nothing of the hooks (both lost their logs, or both skipped them), so the table says so.
 */
function silentOnBothSides(scenario, cc, hg) {
  // Only the hook program logs: prompt, agent, http and mcp_tool handlers do not.
  const logging = Object.values(scenario.hooks ?? {}).some((groups) =>
    groups.some(({ hooks }) => hooks.some((h) => !h.prompt && !h.agent && !h.http && !h.mcpTool)),
  );
  return logging && cc.hooks === "" && hg.hooks === "";
}

/**
 * A difference is on purpose when the scenario documents a deviation and every facet that
 * differs is one it names in `deviates` (a facet name, or its first word: `line` for every
 * `line …` facet); without `deviates`, any facet.
 */
function onPurpose(scenario, diff) {
  if (!scenario.deviation) return false;
  const named = scenario.deviates;
  if (!named) return true;
  return diff.every((k) => named.some((d) => k === d || k.startsWith(`${d} `)));
}

function esc(text) {
  return text.replaceAll("|", "\\|").replaceAll("\n", " ");
}
