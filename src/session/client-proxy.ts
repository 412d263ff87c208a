import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { ClientPort } from "../shared/port.js";

/**
 * A ClientPort that passes everything through to another; a subclass overrides `update` to
 * see or change what the client is sent.
 */
export class ClientProxy implements ClientPort {
  constructor(protected readonly port: ClientPort) {}

  get abilities() {
    return this.port.abilities;
  }

  update(update: SessionUpdate): Promise<void> {
    return this.port.update(update);
  }

  requestPermission: ClientPort["requestPermission"] = (params, signal) =>
    this.port.requestPermission(params, signal);
  readTextFile: ClientPort["readTextFile"] = (params, signal) =>
    this.port.readTextFile(params, signal);
  writeTextFile: ClientPort["writeTextFile"] = (params, signal) =>
    this.port.writeTextFile(params, signal);
  createTerminal: ClientPort["createTerminal"] = (params, signal) =>
    this.port.createTerminal(params, signal);
  createElicitation: ClientPort["createElicitation"] = (params, signal) =>
    this.port.createElicitation(params, signal);
}
