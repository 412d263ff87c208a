import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { extname } from "node:path";
import { firstIssue } from "../shared/zod-issues.js";
import { errorMessage } from "../shared/values.js";
import { actionSchema, type Action } from "./actions.js";
import { EntryCodes, cookieName, readCookie, sameToken, tokenCookie } from "./entry.js";
import { pageHosts, type PageHosts } from "./hosts.js";

/** What the page server needs from the inspector behind it. */
export interface PageServerOptions {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** The long-lived secret: only ever in the HttpOnly cookie a one-time code is exchanged for. */
  readonly token: string;
  /** Carries out an action the page posted (already parsed). */
  readonly act: (action: Action) => Promise<unknown>;
  /** A page opened the live channel (headers sent): write what it missed, then keep it. */
  readonly subscribe: (res: ServerResponse) => void;
  readonly warn: (message: string) => void;
}

export interface PageServer {
  /** `http://host:port` (see {@link pageHosts} for all it answers to). */
  readonly origin: string;
  /** A fresh address to open: the origin with a one-time code (one use, within 60 s). */
  link(): string;
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
/** The page's files. */
const ASSETS = new Set([
  "app.js",
  "call-axis.js",
  "conversation.js",
  "detail.js",
  "dialogs.js",
  "dom.js",
  "frames.js",
  "log.js",
  "outcomes.js",
  "saved-sessions.js",
  "sessions.js",
  "turn-axis.js",
  "waterfall.js",
  "style.css",
]);
const ASSET_PATH = /^\/([a-z-]+\.(?:js|css))$/;
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
 * Serves the page, its files, its live channel (`GET /events`, server-sent events) and its
 * actions (`POST /api`), each only with the token's cookie and only to the inspector's own
 * Host and Origin. The cookie is set by `GET /?code=<one-time code>` (see {@link EntryCodes}).
 */
export async function servePage(options: PageServerOptions): Promise<PageServer> {
  let hosts: PageHosts = { origin: "", allowed: new Set() };
  let port = 0;
  const codes = new EntryCodes();
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
    const signedIn = sameToken(readCookie(req.headers.cookie, cookieName(port)), options.token);
    const code = url.searchParams.get("code");
    if (req.method === "GET" && url.pathname === "/" && code !== null) {
      return enter(code, signedIn, res);
    }
    if (!signedIn) {
      return refuse(res, 401, "Open the link hookgate inspect printed (each link works once).");
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
      return send(res, 200, TYPES[".html"] ?? "", text);
    }
    const file = ASSET_PATH.exec(url.pathname)?.[1];
    if (req.method === "GET" && file !== undefined && ASSETS.has(file)) {
      const text = await readFile(new URL(file, PAGE_DIR), "utf8");
      return send(res, 200, TYPES[extname(file)] ?? "text/plain", text);
    }
    return refuse(res, 404, "Not found.");
  }

  /** A one-time code becomes the token's cookie, and the address loses the code. */
  function enter(code: string, signedIn: boolean, res: ServerResponse): void {
    const result = codes.redeem(code);
    if (result === "redeemed") {
      res.writeHead(303, {
        ...securityHeaders(),
        "Set-Cookie": tokenCookie(port, options.token),
        Location: "/",
      });
      return void res.end();
    }
    // A reload of the first address, from the browser that used it.
    if (signedIn) {
      res.writeHead(303, { ...securityHeaders(), Location: "/" });
      return void res.end();
    }
    if (result === "spent") {
      options.warn("hookgate inspect: a second use of a one-time link was refused");
      return refuse(
        res,
        401,
        "This link was already used. If not by you, someone else on this machine may have opened the page: stop hookgate inspect.",
      );
    }
    return refuse(
      res,
      401,
      "This link is no longer valid: each link works once, within 60 s of being printed. Start hookgate inspect again for a new one.",
    );
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  hosts = pageHosts(options.host, port);
  return {
    origin: hosts.origin,
    link: () => `${hosts.origin}/?code=${codes.issue()}`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function securityHeaders(): Record<string, string> {
  return {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    // A one-time code may be in the address: it must not leak through a Referer.
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
