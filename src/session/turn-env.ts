import type { StopReason } from "@agentclientprotocol/sdk";
import type { LanguageModel, ModelMessage } from "ai";
import type { StepUsage } from "../model/context-window.js";
import type { Steering } from "../hooks/steering.js";
import type { SlashCommand } from "../slash/slash-config.js";
import type { CustomCommand } from "../instructions/commands.js";
import type { ToolCallEnv } from "./tool-call.js";
import type { HookContextMark } from "./hook-context.js";
import type { Transcript } from "./transcript.js";
import type { ContextMeter } from "./compaction.js";

/** What one prompt turn needs from its session. */
export interface TurnEnv extends ToolCallEnv {
  /** The model the next step goes to (read at each step: a switch applies from the next). */
  readonly model: () => LanguageModel;
  /** Told of each answer the model gave, with its usage. */
  readonly responded?: (usage: StepUsage) => void;
  readonly system: () => string | undefined;
  /** The conversation so far, read-only: the turn adds to it through `remember`. */
  readonly history: readonly ModelMessage[];
  /** Appends messages to the session's conversation (the session alone changes it). */
  readonly remember: (messages: readonly ModelMessage[]) => void;
  /** Replaces the conversation the model reads (a compaction's summary). */
  readonly replaceHistory: (messages: readonly ModelMessage[]) => void;
  /** How full the context was after the last step: past its threshold, the next step compacts. */
  readonly context: ContextMeter;
  readonly maxRounds: number;
  /** Turns a model failure into one line telling the user what to fix. */
  readonly describeError: (error: unknown) => string;
  readonly transcript?: Transcript | undefined;
  /** `_hooks/run` `toolUseId` for this turn's UserPromptSubmit and Stop. */
  readonly turnId: string;
  /** Consecutive Stop blocks the turn honours before it ends anyway. */
  readonly maxStopBlocks: number;
  readonly sessionId: string;
  /** Slash commands that answer a prompt without the model. */
  readonly commands: readonly SlashCommand[];
  /** Custom commands (`.claude/commands/*.md`): a prompt that uses one is expanded. */
  readonly customCommands: readonly CustomCommand[];
  /**
   * The session's instructions (CLAUDE.md...) for the model, on the turn that begins its
   * conversation; kept in its history right before the prompt, after the hooks' context, as
   * Claude Code sends them.
   */
  readonly instructions: readonly ModelMessage[];
  /**
   * The prompt passed UserPromptSubmit: only now may it be kept (shown on replay, titled,
   * the session's record saved). A blocked prompt never gets here.
   */
  readonly admit: () => Promise<void>;
  /** SessionStart's answer, on the session's first turn. */
  readonly start?: Steering | undefined;
  /** The hook that wrote this turn's prompt (SessionStart's `initialUserMessage`), if one did. */
  readonly promptFrom?: HookContextMark | undefined;
  /** A hook's `sessionTitle`: retitles the session and tells the client. */
  readonly retitle: (title: string) => Promise<void>;
}

/**
 * How a turn ended, and whether a Stop hook had kept it going: a stop reason, or `failed`
 * when the model could not run a step (the user has been told why).
 */
export type TurnEnd = (
  | { readonly stopReason: StopReason; readonly failed?: never }
  | { readonly failed: ModelTurnError; readonly stopReason?: never }
) & {
  readonly stopHookActive: boolean;
  /** A built-in command (`/compact`) answered it, no model turn: Stop does not fire. */
  readonly local?: true;
};

/**
 * The model could not run the turn (no API key, a refused or failed request): no stop reason
 * says that, so the prompt answers an error. `message` is the line the user was shown.
 */
export class ModelTurnError extends Error {
  override readonly name = "ModelTurnError";
}

/** Adds messages to the model's history and to the transcript, in order. */
export function remember(env: TurnEnv, messages: readonly ModelMessage[]): Promise<void> {
  env.remember(messages);
  return env.transcript?.record(messages) ?? Promise.resolve();
}

/** What a failed write of the turn to the transcript is logged as. */
export const RECORDING = "recording the turn in the transcript";
