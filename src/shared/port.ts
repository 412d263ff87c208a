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
}
