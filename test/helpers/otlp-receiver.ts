import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** One OTLP/HTTP export as the receiver got it. */
export interface OtlpRequest {
  readonly path: string;
  readonly contentType: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** A local OTLP/HTTP collector stand-in: answers every export 200 and keeps the requests. */
export interface OtlpReceiver {
  /** `http://127.0.0.1:<port>`: the `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  readonly endpoint: string;
  readonly requests: OtlpRequest[];
  /** The http/json bodies sent to one signal's path (`/v1/traces`…), parsed. */
  json(path: string): unknown[];
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 at a port the system picks. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const requests: OtlpRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      requests.push({
        path: req.url ?? "",
        contentType: req.headers["content-type"] ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks),
      });
      const json = (req.headers["content-type"] ?? "").includes("json");
      res.writeHead(200, { "content-type": json ? "application/json" : "application/x-protobuf" });
      res.end(json ? "{}" : "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    json: (path) =>
      requests
        .filter((r) => r.path === path && r.contentType.includes("json"))
        .map((r) => JSON.parse(r.body.toString("utf8")) as unknown),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
