import { randomUUID } from "node:crypto";
import type { AnyMessage } from "@agentclientprotocol/sdk";
import { capDepth } from "../shared/json-depth.js";
import { errorMessage, isRecord } from "../shared/values.js";
import { hookFrameText } from "../wire/hook-frame-text.js";
import { HOOK_EVENT_METHOD, HOOK_RUN_METHOD } from "../wire/hooks.js";
import { JSON_RPC } from "../wire/json-rpc.js";

/** Values marked shared, with their JSON once a frame has needed it. */
const shared = new WeakMap<object, string | undefined>();

// Stands in for a shared value while the rest of a frame is serialized; unique per process.
const MARK = `\u0000hookgate-shared-${randomUUID()}`;
/** The placeholder, exported only so tests can try to confuse the splice with it. */
export const SHARED_PLACEHOLDER = MARK;
const MARK_JSON = JSON.stringify(MARK);

/**
 * Marks a value that many frames carry as `params.input` (one HookInput sent to every
 * callback), so it is serialized once rather than once per frame. It must not change
 * afterwards.
 */
export function shareInFrames(value: object): void {
  if (!shared.has(value)) shared.set(value, undefined);
}

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
    return serialize(message);
  } catch (error) {
    if ("method" in message) return JSON.stringify(capDepth(message, DEGRADED_FRAME_DEPTH));
    if (!("id" in message)) throw error;
    const note = `omitted: could not be serialized (${errorMessage(error)})`;
    const { code, message: text } =
      "error" in message ? message.error : { code: INTERNAL_ERROR, message: "Internal error" };
    return JSON.stringify({
      jsonrpc: "2.0",
      id: message.id,
      error: { code, message: text, data: note },
    });
  }
}

function serialize(message: AnyMessage): string {
  const params = "params" in message ? message.params : undefined;
  const input = isRecord(params) ? params.input : undefined;
  if (!isRecord(params) || !isRecord(input) || !shared.has(input)) return JSON.stringify(message);
  let text = shared.get(input);
  if (text === undefined) {
    text = JSON.stringify(input);
    shared.set(input, text);
  }
  const hook = hookFrame(message, params, text);
  if (hook !== undefined) return hook;
  const head = JSON.stringify({ ...message, params: { ...params, input: MARK } });
  // `input` is written after every field that could hold text from outside, so the last mark is ours.
  const at = head.lastIndexOf(MARK_JSON);
  return head.slice(0, at) + text + head.slice(at + MARK_JSON.length);
}

/**
 * A `_hooks/run` or `_hooks/event` frame written field by field: the general splice copies
 * the frame twice and searches it once, and a gate writes one per callback. Its params are
 * the wire's strict shape (`sessionId`, `hookCallbackId`, `toolUseId` on a run, `input`);
 * a frame whose fields are not all strings is left to the general path.
 */
function hookFrame(
  message: AnyMessage,
  params: Record<string, unknown>,
  inputText: string,
): string | undefined {
  if (!("method" in message)) return undefined;
  const { method } = message;
  const run = method === HOOK_RUN_METHOD;
  if (!run && method !== HOOK_EVENT_METHOD) return undefined;
  const { sessionId, hookCallbackId, toolUseId } = params;
  if (typeof sessionId !== "string" || typeof hookCallbackId !== "string") return undefined;
  if (run !== (typeof toolUseId === "string")) return undefined;
  return hookFrameText({
    method,
    ...("id" in message && { id: message.id }),
    sessionId,
    hookCallbackId,
    ...(typeof toolUseId === "string" && { toolUseId }),
    inputText,
  });
}
