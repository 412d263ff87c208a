import type {
  CreateTerminalRequest,
  ReadTextFileRequest,
  RequestPermissionResponse,
  SessionUpdate,
  TerminalOutputResponse,
  WaitForTerminalExitResponse,
  WriteTextFileRequest,
} from "@agentclientprotocol/sdk";
import type {
  ClientAbilities,
  ClientPort,
  ClientTerminal,
  ElicitationForm,
  FormAnswer,
} from "../../src/shared/port.js";

/** One recorded call to the fake client. */
export type FakeCall =
  | { method: "readTextFile"; params: Omit<ReadTextFileRequest, "sessionId"> }
  | { method: "writeTextFile"; params: Omit<WriteTextFileRequest, "sessionId"> }
  | { method: "createTerminal"; params: Omit<CreateTerminalRequest, "sessionId"> }
  | { method: "update"; params: SessionUpdate };

/** How a fake terminal's command behaves. */
export interface TerminalScript {
  output: string;
  exitCode?: number;
  truncated?: boolean;
  /** Never exits on its own; only kill() ends it. */
  hang?: boolean;
  /** currentOutput(), kill() and release() are recorded but never answered. */
  unresponsive?: boolean;
}

/** A reply that never comes. */
function never<T>(): Promise<T> {
  return new Promise<T>(() => {});
}

/** A client terminal that plays a script and records output/kill/release requests. */
export class FakeTerminal implements ClientTerminal {
  killed = false;
  released = false;
  outputRequests = 0;
  private exited: WaitForTerminalExitResponse | undefined;
  private readonly waiters: Array<(status: WaitForTerminalExitResponse) => void> = [];

  constructor(
    readonly id: string,
    private readonly script: TerminalScript,
  ) {
    if (script.hang !== true) this.exited = { exitCode: script.exitCode ?? 0, signal: null };
  }

  async currentOutput(): Promise<TerminalOutputResponse> {
    this.outputRequests += 1;
    if (this.script.unresponsive === true) return never();
    return {
      output: this.script.output,
      truncated: this.script.truncated ?? false,
      exitStatus: this.exited ?? null,
    };
  }

  waitForExit(): Promise<WaitForTerminalExitResponse> {
    const exited = this.exited;
    if (exited !== undefined) return Promise.resolve(exited);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  async kill(): Promise<void> {
    this.killed = true;
    if (this.script.unresponsive === true) return never();
    this.end();
  }

  async release(): Promise<void> {
    this.released = true;
    if (this.script.unresponsive === true) return never();
    this.end();
  }

  private end(): void {
    this.exited ??= { exitCode: null, signal: "SIGKILL" };
    const status = this.exited;
    for (const wake of this.waiters.splice(0)) wake(status);
  }
}

/**
 * A ClientPort for tool tests: abilities are switched on per test, client-side file
 * buffers live in `files`, and every call is recorded in `calls`.
 */
export class FakeClient implements ClientPort {
  readonly abilities: ClientAbilities;
  readonly calls: FakeCall[] = [];
  /** What the editor holds, by absolute path (may differ from the disk). */
  readonly files = new Map<string, string>();
  readonly terminals: FakeTerminal[] = [];
  terminalScript: TerminalScript = { output: "" };

  constructor(abilities: Partial<ClientAbilities> = {}) {
    this.abilities = { readTextFile: false, writeTextFile: false, terminal: false, ...abilities };
  }

  callsTo(method: FakeCall["method"]): FakeCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  async update(update: SessionUpdate): Promise<void> {
    this.calls.push({ method: "update", params: update });
  }

  async requestPermission(): Promise<RequestPermissionResponse> {
    throw new Error("tools never ask for permission themselves");
  }

  async readTextFile(params: Omit<ReadTextFileRequest, "sessionId">): Promise<{ content: string }> {
    this.calls.push({ method: "readTextFile", params });
    const text = this.files.get(params.path);
    if (text === undefined) throw new Error(`Resource not found: ${params.path}`);
    const lines = text.split("\n");
    const from = (params.line ?? 1) - 1;
    const to = params.limit == null ? lines.length : from + params.limit;
    return { content: lines.slice(from, to).join("\n") };
  }

  async writeTextFile(params: Omit<WriteTextFileRequest, "sessionId">): Promise<void> {
    this.calls.push({ method: "writeTextFile", params });
    this.files.set(params.path, params.content);
  }

  async createTerminal(params: Omit<CreateTerminalRequest, "sessionId">): Promise<ClientTerminal> {
    this.calls.push({ method: "createTerminal", params });
    const terminal = new FakeTerminal(`term-${this.terminals.length + 1}`, this.terminalScript);
    this.terminals.push(terminal);
    return terminal;
  }

  createElicitation(_params: ElicitationForm): Promise<FormAnswer> {
    return Promise.reject(new Error("the fake client has no elicitation"));
  }
}
