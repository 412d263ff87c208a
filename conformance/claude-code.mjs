// The real Claude Code CLI, installed on demand into a cache directory outside the
// repository (it is proprietary: nothing of it is committed or depended on).
import { clearTimeout, setTimeout } from "node:timers";
import process from "node:process";
import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const PACKAGE = "@anthropic-ai/claude-code";
const PLATFORM = `${PACKAGE}-${process.platform}-${process.arch}`;

/** The native binary's path and version: `CLAUDE_CODE_BIN` if set, else an npm install. */
export function installClaudeCode() {
  const bin = process.env.CLAUDE_CODE_BIN;
  if (bin) return { bin, version: versionOf(bin) };
  const version =
    process.env.CLAUDE_CODE_VERSION ??
    execFileSync("npm", ["view", PACKAGE, "version"], { encoding: "utf8" }).trim();
  const dir = join(process.env.CONFORMANCE_CACHE ?? tmpdir(), `hookgate-conformance-cc-${version}`);
  const path = join(dir, "node_modules", PLATFORM, "claude");
  if (!existsSync(path)) {
    mkdirSync(dir, { recursive: true });
    process.stderr.write(`installing ${PACKAGE}@${version} into ${dir}\n`);
    execFileSync(
      "npm",
      [
        "install",
        "--prefix",
        dir,
        "--no-save",
        "--no-package-lock",
        "--ignore-scripts",
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        `${PACKAGE}@${version}`,
      ],
      { stdio: ["ignore", "ignore", "inherit"] },
    );
  }
  return { bin: path, version: versionOf(path) };
}

function versionOf(bin) {
  return execFileSync(bin, ["--version"], { encoding: "utf8" }).trim().split(" ")[0];
}

/**
 * Runs one headless prompt; resolves with the stream-json lines and the `result` line's stop
 * reason. The CLI runs in its own process group, ended as a whole on timeout. `managed`: a
 * file the CLI reads as its managed settings, through an overlay of /etc in a private mount
 * namespace (`unshare`, root only), so the machine's own /etc is never written.
 */
export function runClaudeCode({
  bin,
  cwd,
  home,
  baseUrl,
  settings,
  prompt,
  mode,
  mcp,
  env: extraEnv,
  managed,
  extraArgs = [],
  steps,
  timeoutMs = 90_000,
}) {
  // `steps`: the prompt and what follows it go over stdin as stream-json (see `driveSteps`).
  const input = steps ? ["--input-format", "stream-json"] : [prompt];
  const args = [
    ...extraArgs,
    ...(mcp ? ["--mcp-config", JSON.stringify({ mcpServers: mcp }), "--strict-mcp-config"] : []),
    ...["-p", ...input, "--output-format", "stream-json", "--verbose", "--include-hook-events"],
    ...["--settings", settings, "--tools", "Bash,Read,Write,Edit,Glob,Grep"],
    ...["--model", "claude-sonnet-4-5", ...(mode ? ["--permission-mode", mode] : [])],
  ];
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: "sk-ant-conformance-dummy",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    IS_SANDBOX: "1",
    ...extraEnv,
  };
  const [file, argv] = managed ? withManagedSettings(bin, args, managed) : [bin, args];
  return new Promise((resolve) => {
    const child = spawn(file, argv, {
      cwd,
      env,
      detached: true,
      stdio: [steps ? "pipe" : "ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    if (steps) driveSteps(child, [prompt, ...steps]);
    child.stderr.on("data", (d) => (err += d));
    const timer = setTimeout(() => process.kill(-child.pid, "SIGKILL"), timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      const lines = out.split("\n").flatMap((l) => {
        try {
          return [JSON.parse(l)];
        } catch {
          return [];
        }
      });
      const result = lines.findLast((l) => l.type === "result");
      resolve({ lines, end: result?.stop_reason ?? `exit ${code}`, stderr: err, result });
    });
  });
}

/**
 * Feeds a stream-json session: a text is a user message, sent once the previous turn's
 * `result` line came; `{ model }` is the SDK's `set_model` control request, the next step
 * sent once its `control_response` came (success, or the error a refusing hook gives). Stdin
 * closes after the last turn's result, which ends the run.
 */
function driveSteps(child, steps) {
  let buffered = "";
  let waiting = "start";
  let next = 0;
  const send = (frame) => child.stdin.write(`${JSON.stringify(frame)}\n`);
  const advance = () => {
    if (next === steps.length) return child.stdin.end();
    const step = steps[next++];
    if (typeof step === "string") {
      waiting = "result";
      send({ type: "user", message: { role: "user", content: step } });
    } else {
      waiting = "control_response";
      send({
        type: "control_request",
        request_id: `switch-${next}`,
        request: { subtype: "set_model", model: step.model },
      });
    }
  };
  child.stdout.on("data", (d) => {
    buffered += d;
    const lines = buffered.split("\n");
    buffered = lines.pop();
    for (const line of lines) {
      let frame;
      try {
        frame = JSON.parse(line);
      } catch {
        continue;
      }
      if (frame.type === waiting) advance();
    }
  });
  child.stdin.on("error", () => undefined);
  advance();
}

/** `bin args` run with `managed` as /etc/claude-code/managed-settings.json, /etc untouched. */
function withManagedSettings(bin, args, managed) {
  // Beside the managed file, so the run's directory takes it away with it.
  const layer = join(dirname(managed), "etc-layer");
  mkdirSync(join(layer, "upper", "claude-code"), { recursive: true });
  mkdirSync(join(layer, "work"));
  copyFileSync(managed, join(layer, "upper", "claude-code", "managed-settings.json"));
  const script =
    'mount -t overlay overlay -o "lowerdir=/etc,upperdir=$1/upper,workdir=$1/work" /etc && shift && exec "$@"';
  return ["unshare", ["--mount", "sh", "-c", script, "sh", layer, bin, ...args]];
}
