import { execFile } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { loadedSources } from "../helpers/loaded-sources.js";
import { RawAgent } from "../helpers/raw-stdio.js";
import { BUILT_CLI } from "../helpers/stdio.js";
import { workspace } from "./setup.js";

const RECORDER = pathToFileURL(join(import.meta.dirname, "../helpers/fixtures/record-modules.mjs"));

// Modules a connection does not need until it opens a session, or runs a model step. The
// binary is a bundle: a loaded file stands for the sources its source map lists.
const NOT_BEFORE_A_SESSION = [
  /\/src\/agent\/agent\.ts$/,
  /\/src\/session\/turn\.ts$/,
  /\/src\/tools\/index\.ts$/,
  /\/src\/hooks\/session-hooks\.ts$/,
];
const NOT_BEFORE_USE = [
  /node_modules\/@ai-sdk\/(openai|anthropic|openai-compatible)\//,
  /node_modules\/ai\/dist\/index\.mjs$/,
  /node_modules\/@ai-sdk\/provider-utils\//,
  /node_modules\/tinyglobby\//,
  /node_modules\/@modelcontextprotocol\/client\//,
  /node_modules\/ajv\//,
  // What a client parses of the hook extension, which the agent only sends.
  /\/src\/wire\/hook-input\.ts$/,
  /\/src\/wire\/hook-run-result\.ts$/,
];

// What only serving needs: the agent's command-line entry, its logger, zod and the ACP SDK.
const NOT_TO_PRINT_HELP = [
  /\/src\/cli\/serve-agent\.ts$/,
  /node_modules\/pino\//,
  /node_modules\/zod\//,
  /node_modules\/@agentclientprotocol\/sdk\//,
];

describe("cold start", () => {
  it("prints --help without loading the agent, its logger, zod or the ACP SDK", async () => {
    const log = join(workspace(), "modules.txt");
    const { stdout } = await promisify(execFile)(process.execPath, [BUILT_CLI, "--help"], {
      env: {
        ...process.env,
        NODE_OPTIONS: `--import=${RECORDER.href}`,
        HOOKGATE_TEST_MODULE_LOG: log,
      },
      timeout: 15_000,
    });
    expect(stdout).toMatch(/^hookgate \S+: /);
    const loaded = loadedSources(log);
    expect(loaded.some((url) => url.endsWith("/src/cli/main.ts"))).toBe(true);
    for (const pattern of NOT_TO_PRINT_HELP) {
      expect(loaded.filter((url) => pattern.test(url))).toEqual([]);
    }
  });

  let agent: RawAgent | undefined;
  afterEach(async () => {
    await agent?.close();
    agent = undefined;
  });

  it("answers initialize before loading the session machinery, and loads no model provider, MCP client, ajv or client-side hook schema for a session without them", async () => {
    const dir = workspace();
    const log = join(dir, "modules.txt");
    agent = new RawAgent(["--log-level", "warn", "--model", "openai:gpt-4o-mini"], {
      NODE_OPTIONS: `--import=${RECORDER.href}`,
      HOOKGATE_TEST_MODULE_LOG: log,
      OPENAI_API_KEY: "sk-test-not-used",
    });
    const init = await agent.request(1, "initialize", { protocolVersion: 1 });
    expect(init).toHaveProperty("result");
    const atInitialize = loadedSources(log);
    for (const pattern of [...NOT_BEFORE_A_SESSION, ...NOT_BEFORE_USE]) {
      expect(atInitialize.filter((url) => pattern.test(url))).toEqual([]);
    }

    const created = await agent.request(2, "session/new", { cwd: dir, mcpServers: [] });
    expect(created).toHaveProperty("result.sessionId");
    const atSession = loadedSources(log);
    expect(atSession.some((url) => NOT_BEFORE_A_SESSION[0]?.test(url))).toBe(true);
    for (const pattern of NOT_BEFORE_USE) {
      expect(atSession.filter((url) => pattern.test(url))).toEqual([]);
    }
  });
});
