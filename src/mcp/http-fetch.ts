import type { FetchLike } from "@modelcontextprotocol/client";
import { MAX_MESSAGE_BYTES } from "./stdio-transport.js";

/** Bytes of a response body handed on per turn of the event loop. */
const PIECE_BYTES = 8 * 1024;

/**
 * `fetch` for the MCP HTTP transport, with response bodies handed on in pieces of
 * {@link PIECE_BYTES}, each in a turn of the event loop of its own. The SDK reads a body
 * through promise chains that never give the event loop back while data is buffered: an
 * answer carrying 20,000 notifications would otherwise hold every session until the last.
 * A JSON body (one message) past {@link MAX_MESSAGE_BYTES} fails the request as it
 * streams in.
 */
export function yieldingFetch(inner: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const response = await inner(url, init);
    // Only a success carries messages; redirects and errors pass as they came.
    if (!response.body || response.status !== 200) return response;
    const json = (response.headers.get("content-type") ?? "").includes("application/json");
    let bytes = 0;
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        async transform(chunk, controller) {
          bytes += chunk.length;
          if (json && bytes > MAX_MESSAGE_BYTES) {
            const limit = MAX_MESSAGE_BYTES / (1024 * 1024);
            controller.error(new Error(`the reply was larger than ${limit} MiB; it was dropped`));
            return;
          }
          for (let at = 0; at < chunk.length; at += PIECE_BYTES) {
            await new Promise((resolve) => setImmediate(resolve));
            controller.enqueue(chunk.subarray(at, at + PIECE_BYTES));
          }
        },
      }),
    );
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
