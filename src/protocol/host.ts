import type { SessionEndReason } from "../wire/event-fields.js";
import type {
  ContentBlock,
  McpServer,
  SessionConfigOption,
  SessionModeState,
  StopReason,
} from "@agentclientprotocol/sdk";
import type { HookTransport } from "../hooks/transport.js";
import type { Logger } from "../shared/log.js";
import type { ClientPort } from "../shared/port.js";
import type { OutcomeReport, SettingsReport } from "../wire/hook-reports.js";
import type { HookRegistration } from "../wire/registration.js";
import type { McpServerReport } from "../wire/mcp.js";

/**
 * What the ACP app needs from the agent behind it. `protocol/` defines it and calls it;
 * the agent implements it (src/agent/agent.ts) and `agent/serve.ts` wires the two together, so this layer
 * knows sessions only through these shapes.
 */
export interface AgentHost {
  /** Whether sessions persist, so `session/load` and `session/resume` can find them. */
  readonly persistent: boolean;
  /**
   * Takes the host for a connection: true the first time, false ever after, so no app serves
   * a second client over it (its sessions and hook callbacks belong to the first).
   */
  claim(): boolean;
  /** Opens a new session (`session/new`); SessionStart follows the caller's response. */
  open(request: OpenRequest): Promise<Opened>;
  /**
   * Brings a persisted session back (`session/load` with `replay`, `session/resume` without):
   * the replay's updates are sent before this resolves; SessionStart follows the response.
   */
  restore(request: RestoreRequest, replay: boolean): Promise<Opened | RestoreRefusal>;
  /** A live session of this connection. */
  get(id: string): SessionHandle | undefined;
  /** Live and persisted sessions, newest first, one page at a time. */
  list(query: ListQuery): Promise<SessionPage | { refused: "bad_cursor"; message: string }>;
  /** Ends a live session; false when this connection has none by that id. */
  close(id: string, reason: SessionEndReason): Promise<boolean>;
  /** Ends every session of the connection (it went away). */
  closeAll(reason: SessionEndReason): void;
}

/** A new session, with what protocol/ already checked and the client's adapters. */
export interface OpenRequest {
  readonly cwd: string;
  /** cwd first, then the additional directories. */
  readonly roots: readonly string[];
  readonly hooks: HookRegistration;
  readonly mcpServers: readonly McpServer[];
  readonly client: (sessionId: string, log: Logger) => ClientPort;
  readonly transport: (log: Logger) => HookTransport;
}

/** A persisted session to bring back, with the registrations of the new request. */
export interface RestoreRequest extends OpenRequest {
  readonly sessionId: string;
}

/** A session that opened, and what its hooks registration came to. */
export interface Opened {
  readonly session: SessionHandle;
  readonly registered: Record<string, number>;
  /** Registrations that are valid but cannot do what they seem to (e.g. `"bash"`). */
  readonly warnings: readonly string[];
  /** The session's MCP servers as connected (`_meta.mcp`), in the client's order. */
  readonly mcp: readonly McpServerReport[];
  /** The settings files the session read for command hooks (`_meta.hooks.settings`). */
  readonly settings: readonly SettingsReport[];
}

/** Why a session could not be brought back. */
export type RestoreRefusal =
  | { readonly refused: "not_found"; readonly message: string }
  | { readonly refused: "cwd_mismatch"; readonly message: string }
  | { readonly refused: "locked"; readonly message: string; readonly pid: number };

/** A live session as the ACP app drives it. */
export interface SessionHandle {
  readonly id: string;
  /** Runs one prompt turn, unless one is running or the session has ended. */
  prompt(prompt: readonly ContentBlock[]): Promise<PromptOutcome>;
  /** Aborts the running turn, if any; its prompt then answers `cancelled`. */
  cancel(): void;
  /** Switches mode; false when `modeId` is not one of `modes().availableModes`. */
  setMode(modeId: string): Promise<boolean>;
  modes(): SessionModeState;
  /** The session's config options (the model, with the models it can switch to). */
  configOptions(): SessionConfigOption[];
  /**
   * Sets a config option: for `model`, switches the model the next step goes to unless a
   * PreModelSwitch hook refuses (`refused`: the line the user reads).
   */
  setConfigOption(configId: string, value: string): Promise<ConfigOutcome>;
}

/** What setting a config option came to; `reports` are the hooks asked (`_meta.hooks`). */
export type ConfigOutcome =
  | { readonly set: true; readonly reports: readonly OutcomeReport[] }
  | { readonly refused: string; readonly reports: readonly OutcomeReport[] }
  | { readonly unknown: "configId" | "value"; readonly known: readonly string[] };

export type PromptOutcome =
  | { readonly stopReason: StopReason }
  /** The model could not run the turn: the line the user was shown, which says why. */
  | { readonly modelFailed: string }
  | { readonly refused: "busy" }
  | { readonly refused: "closed" };

export interface ListQuery {
  readonly cwd?: string | null | undefined;
  readonly cursor?: string | null | undefined;
}

/** A session as `session/list` shows it. */
export interface SessionSummary {
  readonly id: string;
  readonly cwd: string;
  readonly additionalDirectories: readonly string[];
  readonly title: string | null;
  /** ISO 8601. */
  readonly updatedAt: string;
  /** ISO 8601. */
  readonly createdAt: string;
  /** Counted since hookgate kept counts (older records have none). */
  readonly toolCalls?: number;
  readonly deniedCalls?: number;
}

export interface SessionPage {
  readonly sessions: readonly SessionSummary[];
  readonly nextCursor?: string | undefined;
}
