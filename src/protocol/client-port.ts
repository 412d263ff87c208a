import { methods, type AgentContext, type SessionUpdate } from "@agentclientprotocol/sdk";
import type { Logger } from "../shared/log.js";
import { elicitationAnswerSchema } from "../wire/elicitation.js";
import type { ClientAbilities, ClientPort, ClientTerminal } from "../shared/port.js";
import type { FrameOutput } from "./hook-frames.js";
import {
  parseReply,
  permissionReplySchema,
  readTextFileReplySchema,
  terminalExitReplySchema,
  terminalOutputReplySchema,
} from "./client-replies.js";

/**
 * The ACP client of one session, over the agent's connection context. With `direct`, session
 * updates are written straight to the output, in order with the hook frames that share it.
 */
export class AcpClientPort implements ClientPort {
  constructor(
    private readonly client: AgentContext,
    private readonly sessionId: string,
    readonly abilities: ClientAbilities,
    private readonly log: Logger,
    private readonly direct?: FrameOutput,
  ) {}

  async update(update: SessionUpdate): Promise<void> {
    const method = methods.client.session.update;
    const params = { sessionId: this.sessionId, update };
    try {
      if (this.direct) await this.direct.send({ jsonrpc: "2.0", method, params });
      else await this.client.notify(method, params);
    } catch (error) {
      this.log.warn({ err: error, sessionUpdate: update.sessionUpdate }, "session/update not sent");
    }
  }

  async requestPermission(
    params: Parameters<ClientPort["requestPermission"]>[0],
    signal: AbortSignal,
  ) {
    const method = methods.client.session.requestPermission;
    const reply: unknown = await this.client.request(
      method,
      { sessionId: this.sessionId, ...params },
      { cancellationSignal: signal, stopWaitingOnCancel: true },
    );
    return parseReply(method, permissionReplySchema, reply);
  }

  async createElicitation(
    params: Parameters<ClientPort["createElicitation"]>[0],
    signal: AbortSignal,
  ) {
    const method = methods.client.elicitation.create;
    const { toolCallId, message, requestedSchema } = params;
    const request = {
      sessionId: this.sessionId,
      ...(toolCallId !== undefined && { toolCallId }),
      mode: "form" as const,
      message,
      requestedSchema,
    };
    const reply: unknown = await this.client.request(method, request as never, {
      cancellationSignal: signal,
      stopWaitingOnCancel: true,
    });
    return parseReply(method, elicitationAnswerSchema, reply);
  }

  async readTextFile(params: Parameters<ClientPort["readTextFile"]>[0], signal: AbortSignal) {
    const method = methods.client.fs.readTextFile;
    const reply: unknown = await this.client.request(
      method,
      { sessionId: this.sessionId, ...params },
      { cancellationSignal: signal, stopWaitingOnCancel: true },
    );
    return parseReply(method, readTextFileReplySchema, reply);
  }

  async writeTextFile(params: Parameters<ClientPort["writeTextFile"]>[0], signal: AbortSignal) {
    await this.client.request(
      methods.client.fs.writeTextFile,
      { sessionId: this.sessionId, ...params },
      { cancellationSignal: signal, stopWaitingOnCancel: true },
    );
  }

  async createTerminal(
    params: Parameters<ClientPort["createTerminal"]>[0],
    signal: AbortSignal,
  ): Promise<ClientTerminal> {
    const handle = await this.client.createTerminal(
      { sessionId: this.sessionId, ...params },
      { cancellationSignal: signal, stopWaitingOnCancel: true },
    );
    return {
      id: handle.id,
      currentOutput: async () =>
        parseReply(
          methods.client.terminal.output,
          terminalOutputReplySchema,
          await handle.currentOutput(),
        ),
      waitForExit: async () =>
        parseReply(
          methods.client.terminal.waitForExit,
          terminalExitReplySchema,
          await handle.waitForExit(),
        ),
      kill: async () => {
        await handle.kill();
      },
      release: async () => {
        await handle.release();
      },
    };
  }
}
