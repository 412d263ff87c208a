import { RequestError, type AnyMessage } from "@agentclientprotocol/sdk";
import { isRecord } from "./values.js";

/** What one incoming line of newline-delimited JSON-RPC is. */
export type ReadLine = { readonly frame: AnyMessage } | { readonly reply: AnyMessage } | undefined;

const BATCHES = "JSON-RPC batches are not supported";

/**
 * One incoming line, read as the SDK's `ndJsonStream` reads it: a blank line is nothing, a
 * JSON object is a frame (the SDK checks the rest of its shape), and anything else gets the
 * error reply the SDK would send, with `id: null`. Both ends frame their stdio themselves
 * (the agent's `stdioStream`, `hookgate/client`'s `stdioFrames`) and read lines with this.
 */
export function readJsonLine(line: string): ReadLine {
  const text = line.trim();
  if (text === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { reply: protocolError(RequestError.parseError()) };
  }
  if (Array.isArray(value)) {
    return { reply: protocolError(RequestError.invalidRequest(undefined, BATCHES)) };
  }
  if (!isRecord(value)) return { reply: protocolError(RequestError.invalidRequest(value)) };
  return { frame: value as AnyMessage };
}

function protocolError(error: RequestError): AnyMessage {
  return { jsonrpc: "2.0", id: null, error: error.toErrorResponse() } as AnyMessage;
}
