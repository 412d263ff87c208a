import type { LanguageModel, ModelMessage } from "ai";
import type { ChildEnvPolicy } from "../process/child-env.js";
import type { ProcessGroups } from "../process/process-group.js";
import type { SlashCommand } from "../slash/slash-config.js";
import type { SessionHooks } from "../hooks/session-hooks.js";
import type { Logger } from "../shared/log.js";
import type { ClientPort } from "../shared/port.js";
import type { CallTally } from "../store/call-tally.js";
import type { CustomCommand } from "../instructions/commands.js";
import type { InstructionFile } from "../instructions/load.js";
import type { PermissionUpdate } from "../wire/hook-reply.js";
import type { ToolCatalog } from "./catalog.js";
import type { ModelChoice } from "./model-switch.js";
import type { ModeId } from "./modes.js";
import type { RuleBook } from "./rule-book.js";
import type { Transcript } from "./transcript.js";

/**
 * What a session is made of. `Session` is the actor its callbacks are handed (`SessionActor`):
 * a parameter, so these options need not import the actor that takes them.
 */
export interface ActorOptions<Session> {
  readonly id: string;
  readonly cwd: string;
  readonly roots: readonly string[];
  readonly client: ClientPort;
  readonly model: LanguageModel;
  /** `model`'s id as a client picks it (`scripted`, `provider:model-id`); default from the model. */
  readonly modelId?: string;
  /** Other models a client may switch the session to (`session/set_config_option`). */
  readonly models?: readonly ModelChoice[];
  /** The session's tools: built-ins and its MCP servers' tools. */
  readonly catalog: ToolCatalog;
  readonly system: (session: Session) => string | undefined;
  readonly maxRounds: number;
  /** Consecutive Stop blocks a turn honours before it ends anyway. */
  readonly maxStopBlocks: number;
  readonly describeError: (error: unknown) => string;
  readonly log: Logger;
  readonly createdAt: Date;
  /** Where the conversation is written for hooks that read `transcript_path`. */
  readonly transcript?: Transcript | undefined;
  /** Slash commands this session offers and answers without the model. */
  readonly commands: readonly SlashCommand[];
  /** Custom commands (`.claude/commands/*.md`) this session offers and expands for the model. */
  readonly customCommands?: readonly CustomCommand[];
  /** Instruction files (CLAUDE.md, AGENTS.md) read when the session opened, in order. */
  readonly instructions?: readonly InstructionFile[];
  /** Builds the session's hooks; called once, with the actor (its mode feeds HookInputs). */
  readonly hooks: (session: Session) => SessionHooks;
  /** The mode a new session starts in (SessionStart's `permission_mode` reports it). */
  readonly mode?: ModeId;
  /** What a loaded session starts from: the model's history, its mode, title and last change. */
  readonly restored?: {
    readonly history: readonly ModelMessage[];
    readonly mode: ModeId;
    readonly title: string | undefined;
    readonly updatedAt?: Date | undefined;
  };
  /** Saves the session's record (title, mode, updatedAt); called after each turn and mode switch. */
  readonly persist?: (session: Session) => Promise<void>;
  /**
   * The session's one set of process groups: Bash jobs, command hooks, slash commands and
   * stdio MCP servers all register here; ended once the session has closed.
   */
  readonly groups: ProcessGroups;
  /** Which of the agent's variables the session's processes never see. */
  readonly childEnv: ChildEnvPolicy;
  /** Releases what the session holds (its MCP servers, its env files) once it has ended. */
  readonly release?: () => Promise<void>;
  /** Files hooks are configured in: a tool's write to one always asks (but in bypass). */
  readonly hookConfigFiles: readonly string[];
  /** The session's permission rules (default none), and where a hook's `updatedPermissions` go. */
  readonly rules?: RuleBook;
  readonly updatePermissions?: (updates: readonly PermissionUpdate[]) => Promise<void>;
  /** Wraps each Bash command (the session's `CLAUDE_ENV_FILE`s); see ToolContext. */
  readonly shellPrelude?: (command: string) => string;
}

/** What a session's record holds, as of one moment: what the store saves. */
export interface SessionSnapshot {
  readonly id: string;
  readonly cwd: string;
  readonly roots: readonly string[];
  readonly title: string | undefined;
  readonly mode: ModeId;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  /** Its tool calls and denied calls, when it keeps a transcript. */
  readonly tally: CallTally | undefined;
}
