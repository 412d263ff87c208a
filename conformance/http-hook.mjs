// The http hooks' server both sides call: each request's path is a base64 JSON action
// ({ tag?, out?, status?, sleep?, onlyIf? }); it logs the input (and what the request looked
// like) to the scenario's hook log, then answers as told.
import { Buffer } from "node:buffer";
import { appendFileSync } from "node:fs";
import { createServer } from "node:http";
import { setTimeout } from "node:timers";

/** Request headers worth comparing (the rest are each client's own). */
const SHOWN = ["content-type", "x-policy", "x-secret"];

export function startHttpHooks() {
  let log = "";
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", async () => {
      const action = JSON.parse(
        Buffer.from((req.url ?? "/").slice(1), "base64url").toString("utf8") || "{}",
      );
      let input = {};
      try {
        input = JSON.parse(body || "{}");
      } catch {
        // A body that is not JSON is logged as empty.
      }
      const headers = Object.fromEntries(
        SHOWN.filter((h) => req.headers[h] !== undefined).map((h) => [h, req.headers[h]]),
      );
      const request = { method: req.method, headers, newline: body.endsWith("\n") };
      if (log) appendFileSync(log, `${JSON.stringify({ tag: action.tag, input, request })}\n`);
      const applies = Object.entries(action.onlyIf ?? {}).every(([k, v]) => input[k] === v);
      if (action.sleep) await new Promise((r) => setTimeout(r, action.sleep));
      const out = applies ? action.out : undefined;
      res.writeHead(applies ? (action.status ?? 200) : 200, {
        "content-type": "application/json",
        ...(applies && action.location && { location: action.location }),
      });
      res.end(out === undefined ? "" : typeof out === "string" ? out : JSON.stringify(out));
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      resolve({
        /** The URL of a handler that does `action`. */
        urlFor: (action) =>
          `http://127.0.0.1:${port}/${Buffer.from(JSON.stringify(action)).toString("base64url")}`,
        /** Starts a scenario: requests are logged to `path`. */
        use(path) {
          log = path;
        },
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(done);
          }),
      });
    });
  });
}
