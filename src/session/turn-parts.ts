import { homedir } from "node:os";
import type { SessionHooks } from "../hooks/session-hooks.js";
import type { Steering } from "../hooks/steering.js";
import type { ClientPort } from "../shared/port.js";
import type { ActorOptions } from "./actor-options.js";
import type { ContextMeter } from "./compaction.js";
import type { SaidEnv } from "./conversation.js";
import type { ModelSelection } from "./model-selection.js";
import type { ModeId } from "./modes.js";
import type { PermissionMemory } from "./permission.js";
import { applyPermissionUpdates } from "./permission-updates.js";
import type { RuleBook } from "./rule-book.js";
import { offeredCustomCommands } from "./session-notices.js";
import type { TurnEnv } from "./turn-env.js";

/** The session's own parts a turn works with, each read when the turn needs it. */
export interface SessionParts {
  readonly settings: Pick<
    ActorOptions<unknown>,
    | "id"
    | "cwd"
    | "roots"
    | "log"
    | "groups"
    | "childEnv"
    | "shellPrelude"
    | "catalog"
    | "maxRounds"
    | "maxStopBlocks"
    | "transcript"
    | "commands"
    | "customCommands"
    | "hookConfigFiles"
    | "updatePermissions"
  >;
  /** The client, recording what it is shown when the session keeps a transcript. */
  readonly client: ClientPort;
  readonly hooks: SessionHooks;
  readonly permissions: PermissionMemory;
  readonly rules: RuleBook;
  readonly context: ContextMeter;
  readonly models: ModelSelection;
  readonly mode: () => ModeId;
  /** The system prompt now: the model's own, or the session's. */
  readonly system: () => string | undefined;
}

/** What one turn brings: its cancellation, SessionStart's answer, its id and its conversation. */
export interface TurnStart {
  readonly signal: AbortSignal;
  readonly start: Steering | undefined;
  /** `_hooks/run` `toolUseId` for this turn's UserPromptSubmit and Stop. */
  readonly turnId: string;
  readonly said: SaidEnv;
}

/** The env a turn runs in, made of its session's parts. */
export function turnEnv(session: SessionParts, turn: TurnStart): TurnEnv {
  const { settings, client, rules, models } = session;
  return {
    ...turn.said,
    client,
    hooks: session.hooks,
    start: turn.start,
    permissions: session.permissions,
    mode: session.mode,
    toolContext: {
      cwd: settings.cwd,
      roots: settings.roots,
      signal: turn.signal,
      client,
      log: settings.log,
      processGroups: settings.groups,
      childEnv: settings.childEnv,
      readable: (files) => rules.readable(files),
      ...(settings.shellPrelude && { shellPrelude: settings.shellPrelude }),
    },
    log: settings.log,
    // Read at each step: a switch made during the turn applies from the next step.
    model: () => models.now.model,
    catalog: settings.catalog,
    system: session.system,
    context: session.context,
    maxRounds: settings.maxRounds,
    describeError: (error) => models.now.describeError(error),
    responded: (usage) => models.responded(usage),
    transcript: settings.transcript,
    turnId: turn.turnId,
    maxStopBlocks: settings.maxStopBlocks,
    sessionId: settings.id,
    commands: settings.commands,
    customCommands: offeredCustomCommands(settings.commands, settings.customCommands),
    hookConfigFiles: settings.hookConfigFiles,
    rules,
    updatePermissions:
      settings.updatePermissions ??
      ((updates) =>
        applyPermissionUpdates(updates, {
          rules,
          cwd: settings.cwd,
          home: homedir(),
          log: settings.log,
        })),
  };
}
