import { spawn } from "node:child_process";
import { fstatSync } from "node:fs";
import { parseArgs } from "node:util";
import { usageError } from "../shared/usage-error.js";
import { errorMessage } from "../shared/values.js";
import { startInspector } from "./server.js";

export const INSPECT_HELP = `Usage: hookgate inspect [options] [-- <hookgate flags>]

A local web page that is the ACP client of a hookgate agent: watch every hook decide, and
answer gates yourself. Prints the page's address (with a one-time code: it works once, within 60 s) and opens a
browser on it.

Options:
  --port <n>           port to listen on (default 0: a free port)
  --host <host>        interface to bind (default 127.0.0.1)
  --gate-timeout <s>   seconds the page has to answer a gate; unanswered, the call is
                       denied (timed_out) (default 60)
  --no-open            print the address, do not open a browser
  -h, --help           show this help

Flags after -- go to the agent (--model, --setting-sources, --data-dir, --config, ...).
`;

/**
 * `hookgate inspect`: runs until SIGINT, SIGTERM, SIGHUP, the close of a stdin pipe or socket
 * the parent holds, or the agent's exit; it says which on stderr.
 */
export async function runInspect(argv: string[]): Promise<number> {
  const split = argv.indexOf("--");
  const own = split === -1 ? argv : argv.slice(0, split);
  const agentArgs = split === -1 ? [] : argv.slice(split + 1);
  let values;
  try {
    ({ values } = parseArgs({
      args: own,
      options: {
        port: { type: "string", default: "0" },
        host: { type: "string", default: "127.0.0.1" },
        "gate-timeout": { type: "string", default: "60" },
        "no-open": { type: "boolean", default: false },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (error) {
    return usage(usageError(error));
  }
  if (values.help) {
    process.stdout.write(INSPECT_HELP);
    return 0;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    return usage("--port must be an integer from 0 to 65535");
  }
  const gateTimeout = Number(values["gate-timeout"]);
  if (!Number.isFinite(gateTimeout) || gateTimeout <= 0 || gateTimeout > 300) {
    return usage("--gate-timeout must be a number of seconds, 0 < s <= 300");
  }

  const warn = (message: string) => process.stderr.write(`${message}\n`);
  let inspector;
  try {
    inspector = await startInspector({
      host: values.host,
      port,
      gateTimeout,
      agentArgs,
      cwd: process.cwd(),
      warn,
    });
  } catch (error) {
    warn(`hookgate inspect: ${errorMessage(error)}`);
    return 1;
  }
  // One link, printed and opened: the browser that opens it first is the one signed in.
  const link = inspector.link();
  process.stdout.write(`hookgate inspect: ${link}\n`);
  if (!values["no-open"]) openBrowser(link);

  const reason = await new Promise<string>((resolve) => {
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
      process.once(signal, () => resolve(signal));
    }
    // A parent that holds our stdin stops us by closing it. A terminal is left alone (reading
    // it from a background job would stop the process), and so are /dev/null and a file: their
    // end says nothing about the parent (a script, `cmd &`, a container started without -i).
    if (stdinIsParentsPipe()) {
      process.stdin.once("end", () =>
        resolve("its stdin was closed (the pipe or socket its parent holds)"),
      );
      process.stdin.resume();
    }
    const exited = () => resolve(AGENT_EXITED);
    inspector.agentExited.then(exited, exited);
  });
  warn(`hookgate inspect: stopping: ${reason}`);
  await inspector.close();
  process.stdin.pause();
  return reason === AGENT_EXITED ? 1 : 0;
}

const AGENT_EXITED = "the agent exited";

/** Whether stdin is a pipe or a socket: then its end means the parent let go of us. */
function stdinIsParentsPipe(): boolean {
  try {
    const stat = fstatSync(0);
    return stat.isFIFO() || stat.isSocket();
  } catch {
    return false;
  }
}

function usage(message: string): number {
  process.stderr.write(`hookgate inspect: ${message}; see hookgate inspect --help\n`);
  return 2;
}

/** Best effort: a missing opener never fails the inspector (the address is printed). */
function openBrowser(url: string): void {
  const command = process.platform === "darwin" ? "open" : "xdg-open";
  try {
    const child = spawn(command, [url], { detached: true, stdio: "ignore" });
    child.on("error", () => {});
    child.unref();
  } catch {
    // No opener on this machine.
  }
}
