import type { ContentBlock, StopReason } from "@agentclientprotocol/sdk";
import type { ModelMessage } from "ai";
import type { SessionHooks } from "../hooks/session-hooks.js";
import type { HookText } from "../hooks/steering.js";
import type { InstructionFile } from "../instructions/load.js";
import type { ClientPort } from "../shared/port.js";
import { appendAll } from "../shared/values.js";
import type { ActorOptions } from "./actor-options.js";
import { announceInstructions, instructionMessages } from "./instructions.js";
import { firstLine, hookPromptChunk } from "./prompt-view.js";
import { emitTurnEnd } from "./turn-end.js";
import type { TurnEnd, TurnEnv } from "./turn-env.js";
import { ViewRecorder, type Chunk } from "./view-recorder.js";

/** What a conversation is kept with: the session's client, hooks, transcript and record. */
export interface ConversationParts extends Pick<
  ActorOptions<unknown>,
  "client" | "transcript" | "restored" | "createdAt"
> {
  readonly hooks: SessionHooks;
  readonly instructions: readonly InstructionFile[];
  /** Saves the session's record (its title and last change among it). */
  readonly save: () => Promise<void> | undefined;
}

/** The conversation's part of a turn's env: what the turn reads of it and adds to it through. */
export type SaidEnv = Pick<
  TurnEnv,
  "history" | "remember" | "replaceHistory" | "instructions" | "admit" | "promptFrom" | "retitle"
>;

/**
 * A session's conversation: the model's history, the session's title and last change, and
 * what the client is shown (recorded when the session keeps a transcript). A turn changes it
 * only through the {@link SaidEnv} that {@link Conversation.open} hands it.
 */
export class Conversation {
  private titleNow: string | undefined;
  private updated: Date;
  /** The model's conversation: only this appends; a turn gets a read-only view. */
  private readonly history: ModelMessage[];
  private readonly recorder: ViewRecorder | undefined;
  /** The client, recording what it is shown when the session keeps a transcript. */
  readonly client: ClientPort;
  private instructionsAnnounced = false;

  constructor(private readonly parts: ConversationParts) {
    const { restored } = parts;
    this.updated = restored?.updatedAt ?? parts.createdAt;
    // A copy: the stored conversation it came from is not this session's to change.
    this.history = [...(restored?.history ?? [])];
    this.titleNow = restored?.title;
    this.recorder = parts.transcript && new ViewRecorder(parts.client, parts.transcript);
    this.client = this.recorder ?? parts.client;
  }

  get title(): string | undefined {
    return this.titleNow;
  }

  get updatedAt(): Date {
    return this.updated;
  }

  /** Whether the conversation has begun (a session with nothing said is not persisted). */
  get started(): boolean {
    return this.history.length > 0;
  }

  /**
   * Opens a turn on `prompt`; `from` is the hook that wrote it (SessionStart's
   * `initialUserMessage`). The prompt is held for the transcript until the turn admits it.
   */
  open(prompt: readonly ContentBlock[], from?: HookText): SaidEnv {
    // A prompt a hook wrote is shown to the client (which did not send it) as that hook's.
    const written = from && hookPromptChunk(from);
    if (written) this.recorder?.hookPrompt(written);
    else this.recorder?.user(prompt);
    // The instructions open the conversation: sent with its first prompt, kept in its history.
    const opening = this.history.length === 0;
    if (opening && !this.instructionsAnnounced) {
      this.instructionsAnnounced = true;
      announceInstructions(this.parts.hooks, this.parts.instructions);
    }
    return {
      history: this.history,
      remember: (messages) => appendAll(this.history, messages),
      replaceHistory: (messages) => {
        this.history.length = 0;
        appendAll(this.history, messages);
      },
      instructions: opening ? instructionMessages(this.parts.instructions) : [],
      admit: () => this.admit(prompt, written),
      promptFrom: from && { event: "SessionStart", hookCallbackIds: [from.hookCallbackId] },
      retitle: (title) => this.retitle(title),
    };
  }

  /** A hook's `sessionTitle`: the session's title now, told to the client. */
  async retitle(title: string): Promise<void> {
    this.titleNow = title;
    await this.parts.save();
    await this.client.update({ sessionUpdate: "session_info_update", title });
  }

  /**
   * A prompt that passed its hooks is kept: it titles the session, goes to the transcript, and
   * the record is saved now, so a crash in this turn still leaves the session listed.
   */
  private async admit(prompt: readonly ContentBlock[], written?: Chunk): Promise<void> {
    this.titleNow ??= firstLine(prompt);
    this.recorder?.admit();
    if (written) await this.client.update(written);
    this.updated = new Date();
    await this.parts.save();
  }

  /**
   * Ends a turn: Stop goes out once the transcript holds the whole turn, and only then may
   * the next prompt start or the session end, so no event overtakes this Stop.
   */
  async finish(done: Promise<TurnEnd>): Promise<StopReason> {
    let end: TurnEnd = { stopReason: "cancelled", stopHookActive: false };
    try {
      end = await done;
      if (end.failed) throw end.failed;
      return end.stopReason;
    } finally {
      await this.recorder?.flush();
      await this.parts.transcript?.flush();
      this.updated = new Date();
      await this.parts.save();
      emitTurnEnd(this.parts.hooks, end, this.history);
    }
  }
}
