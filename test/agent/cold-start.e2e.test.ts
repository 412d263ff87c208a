import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { loadedSources } from "../helpers/loaded-sources.js";
import { RawAgent } from "../helpers/raw-stdio.js";
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
];

describe("cold start", () => {
  let agent: RawAgent | undefined;
  afterEach(async () => {
    await agent?.close();
    agent = undefined;
  });

  it("answers initialize before loading the session machinery, and loads no model provider, MCP client or ajv for a session without them", async () => {
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
