import { timingSafeEqual } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { extname } from "node:path";
import { firstIssue } from "../shared/zod-issues.js";
import { errorMessage } from "../shared/values.js";
import { actionSchema, type Action } from "./actions.js";
import { pageHosts, type PageHosts } from "./hosts.js";

/** What the page server needs from the inspector behind it. */
export interface PageServerOptions {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly token: string;
  /** Carries out an action the page posted (already parsed). */
  readonly act: (action: Action) => Promise<unknown>;
  /** A page opened the live channel (headers sent): write what it missed, then keep it. */
  readonly subscribe: (res: ServerResponse) => void;
  readonly warn: (message: string) => void;
}

export interface PageServer {
  /** `http://host:port`, the address to print (see {@link pageHosts} for all it answers to). */
  readonly origin: string;
  close(): Promise<void>;
}

/** An answer other than 200, with the short text the page shows. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const PAGE_DIR = new URL("../../inspect-page/", import.meta.url);
/** The page's files, served under `/t/<token>/` so that module imports carry the token. */
const ASSETS = new Set([
  "app.js",
  "conversation.js",
  "dialogs.js",
  "dom.js",
  "log.js",
  "style.css",
]);
const ASSET_PATH = /^\/t\/([A-Za-z0-9_-]+)\/([a-z-]+\.(?:js|css))$/;
const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");
const MAX_BODY_BYTES = 64 * 1024;

/**
 * Serves the page, its live channel (`GET /events`, server-sent events) and its actions
 * (`POST /api`), each only with the token (`?token=`, the `X-Hookgate-Token` header, or for
 * the page's files the path `/t/<token>/`) and only to the inspector's own Host and Origin.
 */
export async function servePage(options: PageServerOptions): Promise<PageServer> {
  let hosts: PageHosts = { origin: "", allowed: new Set() };
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof HttpError) return refuse(res, error.status, error.message);
      // Most often the agent refused a request (an unknown session...): the page shows it.
      options.warn(`hookgate inspect: ${errorMessage(error)}`);
      refuse(res, 502, errorMessage(error));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", hosts.origin);
    // DNS rebinding: a page from another site whose name resolves to us is refused.
    if (!hosts.allowed.has((req.headers.host ?? "").toLowerCase())) {
      return refuse(res, 403, "This inspector answers only to its own address.");
    }
    const from = req.headers.origin?.toLowerCase();
    if (from !== undefined && !(from.startsWith("http://") && hosts.allowed.has(from.slice(7)))) {
      return refuse(res, 403, "Requests from other origins are refused.");
    }
    const asset = ASSET_PATH.exec(url.pathname);
    const given = asset?.[1] ?? url.searchParams.get("token") ?? req.headers["x-hookgate-token"];
    if (typeof given !== "string" || !sameToken(given, options.token)) {
      return refuse(res, 401, "A valid token is required: open the link hookgate inspect printed.");
    }
    if (req.method === "GET" && url.pathname === "/events") {
      res.writeHead(200, {
        ...securityHeaders(),
        "Content-Type": "text/event-stream; charset=utf-8",
        Connection: "keep-alive",
      });
      // A comment first, so the page sees the stream open before anything happens.
      res.write(": hookgate inspect\n\n");
      return options.subscribe(res);
    }
    if (req.method === "POST" && url.pathname === "/api") {
      const parsed = actionSchema.safeParse(await readBody(req));
      if (!parsed.success) throw new HttpError(400, `invalid request: ${firstIssue(parsed.error)}`);
      const answer = (await options.act(parsed.data)) ?? {};
      return send(res, 200, "application/json", JSON.stringify(answer));
    }
    if (req.method === "GET" && url.pathname === "/") {
      const text = await readFile(new URL("index.html", PAGE_DIR), "utf8");
      return send(res, 200, TYPES[".html"] ?? "", text.replaceAll("__TOKEN__", options.token));
    }
    const file = asset?.[2];
    if (req.method === "GET" && file !== undefined && ASSETS.has(file)) {
      const text = await readFile(new URL(file, PAGE_DIR), "utf8");
      return send(res, 200, TYPES[extname(file)] ?? "text/plain", text);
    }
    return refuse(res, 404, "Not found.");
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  hosts = pageHosts(options.host, port);
  return {
    origin: hosts.origin,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function securityHeaders(): Record<string, string> {
  return {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    // The token is in the address: it must not leak through a Referer.
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
    "Cross-Origin-Resource-Policy": "same-origin",
  };
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { ...securityHeaders(), "Content-Type": type });
  res.end(body);
}

function refuse(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) return void res.end();
  const page = `<!doctype html><title>hookgate inspect</title><p>${status}: ${escapeHtml(message)}</p>\n`;
  send(res, status, "text/html; charset=utf-8", page);
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  if (!(req.headers["content-type"] ?? "").startsWith("application/json")) {
    throw new HttpError(415, "the body must be application/json");
  }
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, "the body is too large");
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
  } catch {
    throw new HttpError(400, "the body is not JSON");
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
