import { networkInterfaces } from "node:os";

/** Names that always mean this machine, whatever DNS says: a rebinding page cannot use them. */
const LOOPBACK = ["127.0.0.1", "localhost", "[::1]"];
const WILDCARD = new Set(["0.0.0.0", "::", "[::]"]);

/** Where the page answers: the address to print, and every `host:port` it accepts. */
export interface PageHosts {
  /** `http://host:port`: the address printed, one a browser on this machine can open. */
  readonly origin: string;
  /** `Host` values (lowercase `host:port`) the page answers to; the `Origin`s are these over http. */
  readonly allowed: ReadonlySet<string>;
}

/**
 * The hosts a page bound to `bind` answers to. A loopback bind: the loopback names. A
 * wildcard bind (`0.0.0.0`, `::`): those and the machine's interface addresses, and the printed
 * address is the loopback one. Any other host: itself. A foreign name is never allowed, so a
 * page whose DNS name was rebound to this machine is still refused.
 */
export function pageHosts(bind: string, port: number): PageHosts {
  const host = bind.toLowerCase();
  const own = bracketed(host);
  const names = new Set<string>([own]);
  if (WILDCARD.has(host)) {
    for (const name of LOOPBACK) names.add(name);
    for (const address of interfaceAddresses()) names.add(bracketed(address));
  } else if (isLoopback(host)) {
    for (const name of LOOPBACK) names.add(name);
  }
  const printed = WILDCARD.has(host) ? (host.includes(":") ? "[::1]" : "127.0.0.1") : own;
  return {
    origin: `http://${printed}:${port}`,
    allowed: new Set([...names].map((name) => `${name}:${port}`)),
  };
}

function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127\./.test(host);
}

function bracketed(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

function interfaceAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) =>
    // A link-local IPv6 address needs a zone in a URL, which browsers do not send: skip it.
    (list ?? []).filter((i) => !i.address.startsWith("fe80:")).map((i) => i.address.toLowerCase()),
  );
}
