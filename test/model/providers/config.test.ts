import { mkdtempSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, flagLayer, loadConfigFile, mergeSettings } from "../../../src/cli/config.js";
import { ModelConfigError, parseModelSpec, resolveModel } from "../../../src/model/index.js";

function configFile(content: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), "hookgate-config-")), "hookgate.json");
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

const errorOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("expected a ConfigError");
};

describe("the config file", () => {
  it("reads every setting", () => {
    const layer = {
      model: "openai-compatible:qwen3:8b",
      baseUrl: "http://localhost:11434/v1",
      apiKeyEnv: "OLLAMA_KEY",
      maxRetries: 4,
      maxOutputTokens: 4096,
      contextWindow: 32768,
      providerOptions: { "openai-compatible": { reasoningEffort: "low" } },
      maxRounds: 20,
      maxStopBlocks: 3,
      permissionMode: "bypassPermissions",
      maxHookValueBytes: 4096,
      logLevel: "debug",
    };
    expect(loadConfigFile(configFile(layer))).toEqual(layer);
  });

  it("names the file and the field of a bad value", () => {
    const path = configFile({ model: "openai:gpt-4o", maxRetries: -1 });
    expect(errorOf(() => loadConfigFile(path))).toMatch(new RegExp(`^${path}: maxRetries: .*>=0`));
  });

  it("names an unknown field (a typo is not silently ignored)", () => {
    const path = configFile({ modle: "openai:gpt-4o" });
    expect(errorOf(() => loadConfigFile(path))).toBe(`${path}: (top level): unknown field modle`);
  });

  it("refuses an API key in the file and says where keys go", () => {
    const path = configFile({ model: "openai:gpt-4o", apiKey: "sk-should-not-be-here" });
    const message = errorOf(() => loadConfigFile(path));
    expect(message).toBe(
      `${path}: apiKey: API keys are not read from files; set the environment variable (apiKeyEnv names which one)`,
    );
    expect(message).not.toContain("sk-should-not-be-here");
  });

  it("rejects a base URL that is not http(s) and a log level it does not know", () => {
    const path = configFile({ baseUrl: "localhost:11434", logLevel: "loud" });
    const message = errorOf(() => loadConfigFile(path));
    expect(message).toContain(`${path}: baseUrl: `);
    expect(message).toContain("logLevel: ");
  });

  it("reports invalid JSON and a missing file with the path", () => {
    const bad = configFile("{ model: openai }");
    expect(errorOf(() => loadConfigFile(bad))).toMatch(new RegExp(`^${bad}: not valid JSON`));
    expect(errorOf(() => loadConfigFile("/nonexistent/hookgate.json"))).toMatch(
      /^cannot read config \/nonexistent\/hookgate\.json: ENOENT/,
    );
  });
});

describe("flags and precedence", () => {
  it("flag errors name the flag", () => {
    expect(errorOf(() => flagLayer({ maxRetries: "lots" }))).toMatch(/^--max-retries: /);
    expect(errorOf(() => flagLayer({ maxRetries: "-3" }))).toMatch(/^--max-retries: /);
    expect(errorOf(() => flagLayer({ contextWindow: "" }))).toMatch(/^--context-window: /);
    expect(errorOf(() => flagLayer({ baseUrl: "nope" }))).toMatch(/^--base-url: /);
    expect(errorOf(() => flagLayer({ permissionMode: "yolo" }))).toMatch(/^--permission-mode: /);
    expect(errorOf(() => flagLayer({ logFormat: "xml" }))).toMatch(/^--log-format: /);
  });

  // What follows "hookgate: " on stderr (cli-usage.e2e runs the binary on a mistake).
  it("a count that is not an integer is named with the text given", () => {
    expect(errorOf(() => flagLayer({ maxRetries: "abc" }))).toBe(
      '--max-retries: must be an integer, got "abc"',
    );
    expect(errorOf(() => flagLayer({ maxRounds: "2.5" }))).toBe(
      '--max-rounds: must be an integer, got "2.5"',
    );
  });

  it("flags override the file, HOOKGATE_LOG_LEVEL sits between them, defaults fill the rest", () => {
    const file = {
      model: "openai:gpt-4o",
      baseUrl: "http://file.example/v1",
      maxRetries: 5,
      logLevel: "error" as const,
    };
    const flags = flagLayer({ model: "anthropic:claude-sonnet-4-5", maxRetries: "1" });
    expect(mergeSettings(file, flags, { HOOKGATE_LOG_LEVEL: "debug" })).toEqual({
      model: "anthropic:claude-sonnet-4-5",
      baseUrl: "http://file.example/v1",
      apiKeyEnv: undefined,
      maxRetries: 1,
      maxOutputTokens: undefined,
      contextWindow: undefined,
      providerOptions: undefined,
      maxRounds: 50,
      maxStopBlocks: 8,
      // No flag and no config: each session takes its settings files' defaultMode, else default.
      permissionMode: undefined,
      maxHookValueBytes: 16384,
      logLevel: "debug",
      logFormat: undefined,
      cleanupPeriodDays: 30,
      dataDir: join(homedir(), ".local", "state", "hookgate"),
      maxFrameBytes: 16 * 1024 * 1024,
      settingSources: [],
      instructionSources: ["user", "project", "local"],
      settingsFiles: [],
      commands: [],
      // No models to switch to beyond the one configured (and the scripted model).
      models: [],
      telemetry: {},
    });
    // The models a client may switch to share the base URL and key settings: one provider only.
    expect(() =>
      mergeSettings(
        { model: "openai-compatible:llama3", baseUrl: "http://x/v1", models: ["anthropic:m"] },
        {},
        {},
      ),
    ).toThrow(
      /models\[0\]: "anthropic:m" is not of the provider openai-compatible, and baseUrl apply/,
    );
    expect(
      mergeSettings(
        {
          model: "openai-compatible:a",
          baseUrl: "http://x/v1",
          models: ["openai-compatible:b", "scripted"],
        },
        {},
        {},
      ).models,
    ).toEqual(["openai-compatible:b", "scripted"]);
    expect(mergeSettings({ model: "openai:a", models: ["anthropic:b"] }, {}, {}).models).toEqual([
      "anthropic:b",
    ]);
    expect(mergeSettings({ dataDir: "rel/dir" }, {}, {}).dataDir).toBe(resolve("rel/dir"));
    expect(mergeSettings({}, {}, { XDG_STATE_HOME: "/state" }).dataDir).toBe("/state/hookgate");
    // The XDG spec ignores a relative XDG_STATE_HOME.
    expect(mergeSettings({}, {}, { XDG_STATE_HOME: "state" }).dataDir).toBe(
      join(homedir(), ".local", "state", "hookgate"),
    );
    expect(mergeSettings(file, {}, {}).logLevel).toBe("error");
    expect(
      mergeSettings(file, flagLayer({ logLevel: "warn" }), { HOOKGATE_LOG_LEVEL: "debug" })
        .logLevel,
    ).toBe("warn");
    expect(mergeSettings({}, {}, {}).model).toBe("scripted");
    expect(() => mergeSettings({}, {}, { HOOKGATE_LOG_LEVEL: "loud" })).toThrow(
      /HOOKGATE_LOG_LEVEL must be one of/,
    );
  });
});

describe("model specs", () => {
  it("splits at the first colon, so model ids keep their own", () => {
    expect(parseModelSpec("openai-compatible:qwen3:8b")).toEqual({
      provider: "openai-compatible",
      modelId: "qwen3:8b",
    });
    expect(parseModelSpec("openai-compatible:openai/gpt-4o:free")).toEqual({
      provider: "openai-compatible",
      modelId: "openai/gpt-4o:free",
    });
    expect(parseModelSpec("scripted")).toEqual({ provider: "scripted" });
  });

  it("rejects unknown providers and empty model ids", () => {
    expect(() => parseModelSpec("gemini:pro")).toThrow(ModelConfigError);
    expect(() => parseModelSpec("openai:")).toThrow(
      'model "openai:" names no model id: write openai:<model-id>, e.g. openai:gpt-4o-mini',
    );
    expect(() => parseModelSpec("gpt-4o")).toThrow(ModelConfigError);
  });

  // providers/cli.e2e runs the binary on a bad setting: exit 2, "hookgate: " and the message.
  it("a model the settings cannot reach is refused in one line, as the binary prints it", () => {
    const refusal = (model: string) => {
      try {
        resolveModel({ model }, { env: {} });
      } catch (error) {
        expect(error).toBeInstanceOf(ModelConfigError);
        return (error as Error).message;
      }
      throw new Error(`expected ${model} to be refused`);
    };
    expect(refusal("anthropic:")).toBe(
      'model "anthropic:" names no model id: write anthropic:<model-id>, e.g. anthropic:claude-sonnet-4-5',
    );
    expect(refusal("gemini:pro")).toBe(
      'unknown model "gemini:pro": use "scripted" or provider:model-id with provider one of openai-compatible, openai, anthropic',
    );
  });

  it("openai-compatible without a base URL says how to give one", () => {
    expect(() => resolveModel({ model: "openai-compatible:llama3" }, { env: {} })).toThrow(
      "openai-compatible needs --base-url (or baseUrl in the config), e.g. http://localhost:11434/v1 for Ollama",
    );
  });

  it("refuses a base URL with a password in it, without repeating the password", () => {
    const resolve = () =>
      resolveModel(
        { model: "openai:gpt-4o", baseUrl: "https://me:hunter22@proxy.example/v1" },
        { env: {} },
      );
    expect(resolve).toThrow(ModelConfigError);
    expect(resolve).toThrow(/must not contain a user:password part/);
    expect(resolve).not.toThrow(/hunter22/);
  });
});

describe("settings sources", () => {
  it("--setting-sources takes a comma list, --settings adds to the config file's files", () => {
    const flags = flagLayer({ settingSources: "user, project", settings: ["b.json"] });
    const merged = mergeSettings({ settings: ["a.json"], settingSources: ["local"] }, flags, {});
    expect(merged.settingSources).toEqual(["user", "project"]);
    expect(merged.settingsFiles).toEqual([resolve("a.json"), resolve("b.json")]);
  });

  it("an unknown source is refused, naming the flag", () => {
    expect(() => flagLayer({ settingSources: "user,team" })).toThrow(/--setting-sources/);
  });

  it("--instruction-sources chooses whose instructions sessions read; none reads none", () => {
    const merged = mergeSettings({}, flagLayer({ instructionSources: "user,local" }), {});
    expect(merged.instructionSources).toEqual(["user", "local"]);
    expect(mergeSettings({ instructionSources: ["project"] }, {}, {}).instructionSources).toEqual([
      "project",
    ]);
    expect(flagLayer({ instructionSources: "none" }).instructionSources).toEqual([]);
    expect(() => flagLayer({ instructionSources: "team" })).toThrow(/--instruction-sources/);
  });
});
