import type {
  CreateTerminalRequest,
  ReadTextFileRequest,
  ReadTextFileResponse,
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionUpdate,
  TerminalOutputResponse,
  WaitForTerminalExitResponse,
  WriteTextFileRequest,
} from "@agentclientprotocol/sdk";

/** What the client said it can do in `initialize`, reduced to what the tools use. */
export interface ClientAbilities {
  readTextFile: boolean;
  writeTextFile: boolean;
  terminal: boolean;
  /** ACP `elicitation/create` in form mode (`clientCapabilities.elicitation.form`). */
  elicitation?: boolean;
}

/** A terminal running on the client (`terminal/*`). */
export interface ClientTerminal {
  readonly id: string;
  currentOutput(): Promise<TerminalOutputResponse>;
  waitForExit(): Promise<WaitForTerminalExitResponse>;
  kill(): Promise<void>;
  release(): Promise<void>;
}

/**
 * The client as the session and the tools see it. It sits beside both so that neither
 * imports the other for it; `protocol/` implements it over the ACP connection, and nothing
 * that uses it knows about JSON-RPC.
 */
export interface ClientPort {
  readonly abilities: ClientAbilities;
  /** Sends one `session/update` for this session. Never throws; failures are logged. */
  update(update: SessionUpdate): Promise<void>;
  requestPermission(
    params: Omit<RequestPermissionRequest, "sessionId">,
    signal: AbortSignal,
  ): Promise<RequestPermissionResponse>;
  readTextFile(
    params: Omit<ReadTextFileRequest, "sessionId">,
    signal: AbortSignal,
  ): Promise<ReadTextFileResponse>;
  writeTextFile(
    params: Omit<WriteTextFileRequest, "sessionId">,
    signal: AbortSignal,
  ): Promise<void>;
  createTerminal(
    params: Omit<CreateTerminalRequest, "sessionId">,
    signal: AbortSignal,
  ): Promise<ClientTerminal>;
  /** Asks the user through the client's form (ACP `elicitation/create`), scoped to this session. */
  createElicitation(params: ElicitationForm, signal: AbortSignal): Promise<FormAnswer>;
}

/** The user's answer to a form (`protocol/` parses it with wire/elicitation.ts' schema). */
export interface FormAnswer {
  readonly action: "accept" | "decline" | "cancel";
  readonly content?: Readonly<Record<string, string | number | boolean | string[]>>;
}

/** A form an MCP server asks the user to fill in, optionally tied to the tool call that asked. */
export interface ElicitationForm {
  readonly message: string;
  readonly requestedSchema: Record<string, unknown>;
  readonly toolCallId?: string;
}
