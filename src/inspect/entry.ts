import { randomBytes, timingSafeEqual } from "node:crypto";

/** How long a one-time entry code lives if nobody uses it. */
export const ENTRY_CODE_LIFETIME_MS = 60_000;

/** What became of a code a browser brought. */
export type Redeemed = "redeemed" | "spent" | "expired" | "unknown";

/**
 * One-time entry codes: the only secret that leaves the process (the opener's argv, the printed
 * address), so each opens the page once, within a minute, and is dead after that. The page's
 * long-lived token only ever travels in an HttpOnly cookie.
 */
export class EntryCodes {
  /** Issued codes not yet used, with the time each expires. */
  private readonly live = new Map<string, number>();
  /** Used codes, so that a second use is told apart (someone else may have used it first). */
  private readonly spent = new Set<string>();

  constructor(private readonly now: () => number = Date.now) {}

  issue(): string {
    const code = randomBytes(16).toString("base64url");
    this.live.set(code, this.now() + ENTRY_CODE_LIFETIME_MS);
    return code;
  }

  redeem(code: string): Redeemed {
    const expires = this.live.get(code);
    if (expires === undefined) return this.spent.has(code) ? "spent" : "unknown";
    this.live.delete(code);
    if (this.now() > expires) return "expired";
    this.spent.add(code);
    return "redeemed";
  }
}

/** The cookie that carries the token; named per port, as cookies are shared across ports. */
export function cookieName(port: number): string {
  return `hookgate_inspect_${port}`;
}

/** `Set-Cookie` for the token: no script reads it, no other site's request carries it. */
export function tokenCookie(port: number, token: string): string {
  return `${cookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`;
}

/** The value of one cookie in a `Cookie` header, if present. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/** Constant-time comparison of a presented token with the real one. */
export function sameToken(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}
