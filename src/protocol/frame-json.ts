import type { AnyMessage } from "@agentclientprotocol/sdk";
import { capDepth } from "../shared/json-depth.js";
import { errorMessage } from "../shared/values.js";
import { errorFrame, JSON_RPC } from "../wire/json-rpc.js";

const { INTERNAL_ERROR } = JSON_RPC;

/** How deep an outgoing request's or notification's params stay when they could not be written. */
export const DEGRADED_FRAME_DEPTH = 32;

/**
 * A message's JSON text, exactly as `JSON.stringify` writes it. A message that cannot be
 * written (a value nested thousands deep overflows the stack) still goes out: a response with
 * the unserializable part replaced by a note, a request or notification with everything
 * nested past 32 levels replaced by one. A frame lost here would end the connection and every
 * session on it, or leave a request unanswered.
 */
export function frameText(message: AnyMessage): string {
  try {
    return JSON.stringify(message);
  } catch (error) {
    if ("method" in message) return JSON.stringify(capDepth(message, DEGRADED_FRAME_DEPTH));
    if (!("id" in message)) throw error;
    const note = `omitted: could not be serialized (${errorMessage(error)})`;
    const { code, message: text } =
      "error" in message ? message.error : { code: INTERNAL_ERROR, message: "Internal error" };
    return JSON.stringify(errorFrame(message.id, { code, message: text, data: note }));
  }
}
