import { CommandLineError, fail, parseCommandLine } from "./command-line.js";
import { LOG_LEVELS } from "../shared/log-levels.js";
import { VERSION } from "../shared/version.js";

const HELP = `hookgate ${VERSION}: an ACP agent whose every tool call passes through client-registered hooks

Usage:
  hookgate [options]          serve ACP over stdio (this is what an IDE starts)
  hookgate demo               run the demo: an IDE-like client, a gate that denies rm -rf
  hookgate test [FILES...]    run policy tests (JSON/YAML cases; see hookgate test --help)
  hookgate inspect            a local web page to watch every hook decide and be the gate
                              (see hookgate inspect --help, docs/inspect.md)

Options:
  --model <spec>              scripted (default, offline) or provider:model-id, where provider
                              is openai-compatible, openai or anthropic
  --base-url <url>            the API's base URL (required for openai-compatible,
                              e.g. http://localhost:11434/v1 for Ollama)
  --config <file>             JSON config file with the same settings; flags override it
  --max-retries <n>           retries of a request that failed with 429, 5xx or a network
                              error (default 2)
  --context-window <tokens>   the model's context window, for usage_update (default: known
                              models only)
  --max-output-tokens <n>     cap on the tokens the model writes per step
  --log-level <level>         ${LOG_LEVELS.join("|")}
                              (default info; env HOOKGATE_LOG_LEVEL)
  --log-format <format>       pretty or json (default: pretty when stderr is a terminal,
                              json otherwise)
  --max-rounds <n>            model/tool rounds per turn before max_turn_requests (default 50)
  --max-stop-blocks <n>       consecutive Stop-hook blocks a turn honours before it ends
                              anyway (default 8; 0: Stop hooks cannot keep a turn going)
  --permission-mode <mode>    the mode new sessions start in: default, acceptEdits,
                              bypassPermissions, plan or dontAsk (default: the settings'
                              permissions.defaultMode, else default)
  --max-hook-value-bytes <n>  cap on tool_input/tool_response JSON in observer hook inputs
                              (default 16384)
  --data-dir <dir>            where sessions persist (transcripts, records, locks; see
                              docs/sessions.md) (default $XDG_STATE_HOME/hookgate, else
                              ~/.local/state/hookgate)
  --cleanup-period-days <n>   delete persisted sessions untouched for longer, at startup
                              (default 30; 0: keep none, the agent's own deleted at exit)
  --max-frame-bytes <n>       longest incoming frame accepted; longer ones are discarded
                              (default 16 MiB)
  --setting-sources <list>    run command hooks from these settings files: user, project,
                              local, comma-separated (default none: a repository's hooks
                              never run unasked)
  --instruction-sources <s>   give the model the CLAUDE.md files and custom commands of
                              these places: user, project, local, comma-separated, or none
                              (default all three: text for the model, never code)
  --settings <file>           run command hooks from this settings file too (repeatable; a
                              file named hooks.json is read as Codex's format)
  --managed-settings <file>   the administrator's managed settings, above every other file
                              (default /etc/claude-code/managed-settings.json, as Claude Code)
  -h, --help                  show this help
  -v, --version               print the version

API keys come from the environment: OPENAI_API_KEY, ANTHROPIC_API_KEY, HOOKGATE_API_KEY
(openai-compatible servers that need one), or the variable named by apiKeyEnv in the config;
or from the config's apiKeyHelper, a command that prints the key (then it is in no environment).
`;

/** Runs the `hookgate` command line: serves ACP over stdio or runs one of its subcommands. */
export async function main(argv: string[]): Promise<void> {
  if (argv[0] === "test") {
    // The test runner has flags of its own, so it parses its arguments itself.
    const { runPolicyTests } = await import("../policy-test/main.js");
    const write = (stream: NodeJS.WriteStream) => (text: string) => void stream.write(text);
    process.exitCode = await runPolicyTests(argv.slice(1), {
      out: write(process.stdout),
      err: write(process.stderr),
    });
    return;
  }
  // Its own flags, and the agent's after "--": parsed by the subcommand.
  if (argv[0] === "inspect") {
    const { runInspect } = await import("../inspect/cli.js");
    process.exit(await runInspect(argv.slice(1)));
  }
  let commandLine;
  try {
    commandLine = parseCommandLine(argv);
  } catch (error) {
    if (error instanceof CommandLineError) fail(error.message);
    throw error;
  }
  const { command, values } = commandLine;
  if (command === "help") {
    process.stdout.write(HELP);
    return;
  }
  if (command === "version") {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  if (command === "demo") {
    const { runDemo } = await import("../examples/demo.js");
    process.exitCode = await runDemo();
    return;
  }

  // The agent (config, logger, model, ACP) loads only to serve: --help, --version and the
  // subcommands print or start without it.
  const { serveAgent } = await import("./serve-agent.js");
  await serveAgent(values);
}
