import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { SettingSource } from "../command-hooks/sources.js";
import type { InstructionSource } from "../instructions/load.js";
import type { SlashCommand } from "../slash/slash-config.js";
import type { Logger } from "../shared/log.js";
import type { SessionActor } from "../session/actor.js";
import type { ModeId } from "../session/modes.js";
import type { ModelChoice } from "../session/model-switch.js";
import type { AgentRuntime } from "./runtime.js";

/** How the agent behaves; the CLI builds this from flags and config. */
export interface AgentOptions {
  readonly log: Logger;
  /** The model behind every session: a provider's model (the AI SDK's `LanguageModelV3`). */
  readonly model: LanguageModelV3;
  /** `model`'s id as a client picks it (`--model`'s spec); default from the model. */
  readonly modelId?: string;
  /**
   * Other models a client may switch a session to (`session/set_config_option`, config
   * `models`); `scripted` is always among them.
   */
  readonly models?: readonly ModelChoice[];
  /** The system prompt for a session, if the model takes one. */
  readonly system?: (session: SessionActor) => string | undefined;
  /** Turns a model failure into one line telling the user what to fix. */
  readonly describeError?: (error: unknown) => string;
  /** Model/tool rounds per turn before `max_turn_requests` (default 50). */
  readonly maxRounds?: number;
  /** Consecutive Stop-hook blocks a turn honours before it ends anyway (default 8). */
  readonly maxStopBlocks?: number;
  /**
   * The mode new sessions start in (default: the settings' `permissions.defaultMode`, else
   * `default`); a loaded session keeps its own.
   */
  readonly permissionMode?: ModeId;
  /** Cap on a `tool_input` / `tool_response` in an observer's HookInput (default 16 KiB). */
  readonly maxHookValueBytes?: number;
  /**
   * Where sessions persist (`<dataDir>/sessions/`: transcript, record, lock); without it
   * sessions live only as long as the connection and keep no transcript.
   */
  readonly dataDir?: string;
  /** Bound on connecting one MCP server (default 10 s). */
  readonly mcpConnectTimeoutMs?: number;
  /** Which settings files' command hooks each session loads (default none). */
  readonly settingSources?: readonly SettingSource[];
  /**
   * Which places' instruction files (CLAUDE.md, AGENTS.md) and custom commands
   * (`.claude/commands/*.md`) each session reads (default all three): text for the model,
   * never code, so apart from `settingSources` (docs/instructions.md).
   */
  readonly instructionSources?: readonly InstructionSource[];
  /** `--settings` files, loaded by every session after the sources. */
  readonly settingsFiles?: readonly string[];
  /** The managed settings file (default the system one, `MANAGED_SETTINGS_PATH`). */
  readonly managedSettings?: string;
  /** Home directory for the `user` source (default `os.homedir()`, which honours HOME). */
  readonly home?: string;
  /** The `--config` file, if any: like settings files, tools never write it unasked. */
  readonly configFile?: string;
  /** Slash commands every session offers (config `commands`). */
  readonly commands?: readonly SlashCommand[];
  /**
   * What the agent's processes, child environment and session locks belong to (see
   * `AgentRuntime`). Agents given one runtime share it; without one, the agent makes its own,
   * so nothing it starts or holds is visible to another agent in the same process.
   */
  readonly runtime?: AgentRuntime;
}
