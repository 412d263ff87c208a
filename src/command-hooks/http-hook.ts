import type { HttpExchange, HttpHandler } from "../hooks/command.js";
import { DEFAULT_MAX_OUTPUT_BYTES, utf8Head } from "../process/capped-output.js";
import { FrameSkeleton } from "../shared/json-skeleton.js";
import { errorMessage } from "../shared/values.js";

/**
 * POSTs `body` (the hook input's JSON) to an `http` hook and reads the answer. Node's fetch
 * keeps one keep-alive pool per origin for the whole process, so sessions asking one policy
 * server share its connections. Redirects are not followed (a 3xx is the answer). The body
 * is read up to `maxBytes`; past it the rest is drained and only its skeleton is kept, so a
 * deny in it still counts. Never rejects: `signal` (the race's timeout or cancel) ends the
 * exchange as `aborted`, and the connection with it.
 */
export async function postHook(
  handler: HttpHandler,
  body: string,
  signal: AbortSignal,
  maxBytes = DEFAULT_MAX_OUTPUT_BYTES,
): Promise<HttpExchange> {
  if (handler.refused !== undefined) return { status: "refused", error: handler.refused };
  if (signal.aborted) return { status: "aborted" };
  try {
    const response = await fetch(handler.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...handler.headers },
      body,
      redirect: "manual",
      signal,
    });
    const read = await readCapped(response, maxBytes);
    return { status: "answered", statusCode: response.status, ...read };
  } catch (error) {
    if (signal.aborted) return { status: "aborted" };
    return { status: "failed", error: `HTTP hook ${handler.url}: ${failureOf(error)}` };
  }
}

/** The body's head up to `maxBytes`; past it, the skeleton of the whole body. */
async function readCapped(
  response: Response,
  maxBytes: number,
): Promise<{ body: string; truncated?: { skeleton: unknown } }> {
  if (!response.body) return { body: "" };
  const head: Uint8Array[] = [];
  let kept = 0;
  let skeleton: FrameSkeleton | undefined;
  for await (const chunk of response.body) {
    if (skeleton) {
      skeleton.feed(chunk);
      continue;
    }
    head.push(chunk);
    kept += chunk.length;
    if (kept > maxBytes) {
      skeleton = new FrameSkeleton();
      for (const part of head) skeleton.feed(part);
    }
  }
  const bytes = Buffer.concat(head);
  if (!skeleton) return { body: bytes.toString("utf8") };
  return { body: utf8Head(bytes, maxBytes), truncated: { skeleton: skeleton.value() } };
}

/** fetch's "fetch failed" says nothing: the cause (ECONNREFUSED, a reset) is the story. */
function failureOf(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error) {
    const code = "code" in cause && typeof cause.code === "string" ? `${cause.code}: ` : "";
    return `${code}${cause.message}`;
  }
  return errorMessage(error);
}
