/**
 * What an administrator allows `http` hooks to use: Claude Code's `allowedHttpHookUrls` and
 * `httpHookAllowedEnvVars`. Absent: no restriction; an empty list allows nothing.
 */
export interface HttpHookLimits {
  readonly allowedHttpHookUrls?: readonly string[] | undefined;
  readonly httpHookAllowedEnvVars?: readonly string[] | undefined;
}

/**
 * Why `url` may not be called under `limits`, or undefined when it may. A pattern is `*`, or
 * a URL in which `*` stands for any text: scheme and host must match, the port too unless the
 * host has a `*`, and a pattern without a path (`https://policy.example.com`) allows every
 * path, as in Claude Code. A pattern that does not parse as a URL (`*.example.com/*`, no
 * scheme) matches nothing (`badUrlPatterns` names it).
 */
export function refusedUrl(url: string, limits: HttpHookLimits): string | undefined {
  const patterns = limits.allowedHttpHookUrls;
  if (patterns === undefined || patterns.some((p) => urlMatches(url, p))) return undefined;
  return `HTTP hook blocked: ${url} does not match any pattern in allowedHttpHookUrls`;
}

const STAR = "__hookgate_star__";

function urlMatches(url: string, pattern: string): boolean {
  if (pattern === "*") return true;
  const target = parseUrl(url);
  if (!target) return false;
  // `host:*` is any port.
  const anyPort = /:\*(?=[/?#]|$)/.test(pattern);
  const parsed = parseUrl(pattern.replace(/:\*(?=[/?#]|$)/, "").replaceAll("*", STAR));
  if (!parsed) return false;
  if (parsed.protocol !== target.protocol) return false;
  const host = parsed.hostname.replaceAll(STAR, "*").replace(/\.$/, "");
  if (!glob(host, target.hostname.replace(/\.$/, "").toLowerCase())) return false;
  if (!anyPort && !host.includes("*") && parsed.port !== target.port) return false;
  const path = `${parsed.pathname}${parsed.search}`.replaceAll(STAR, "*");
  if ((path === "/" || path === "") && !pattern.endsWith("/")) return true;
  return glob(path, `${target.pathname}${target.search}`);
}

/** The patterns of `allowedHttpHookUrls` that match nothing because they are not URLs. */
export function badUrlPatterns(limits: HttpHookLimits): string[] {
  return (limits.allowedHttpHookUrls ?? []).filter(
    (p) => p !== "*" && !parseUrl(p.replace(/:\*(?=[/?#]|$)/, "").replaceAll("*", STAR)),
  );
}

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** `*` matches any text; everything else is literal. */
function glob(pattern: string, text: string): boolean {
  const source = pattern
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${source}$`, "s").test(text);
}

/** Header names the request's own framing owns: a handler's value for them is ignored. */
const FRAMING_HEADERS = new Set(["content-length", "transfer-encoding"]);

/** Headers with their variables filled in, and what the user should hear about it. */
export interface FilledHeaders {
  readonly headers: Record<string, string>;
  readonly warnings: string[];
}

/** Where header values look variables up, and which of them a hook may never read. */
export interface HeaderEnv {
  readonly values: Readonly<Record<string, string | undefined>>;
  /** Model API keys and the like: never put in a header, whatever the lists say. */
  readonly withheld: (name: string) => boolean;
}

/**
 * Fills `$VAR` / `${VAR}` in header values from the variables the handler lists in
 * `allowedEnvVars` (narrowed by `httpHookAllowedEnvVars` when set); any other variable, and
 * a withheld one, becomes the empty string with a warning naming header and variable. CR, LF
 * and NUL are removed from the result, so a value cannot add a header.
 */
export function fillHeaders(
  headers: Readonly<Record<string, string>>,
  allowedEnvVars: readonly string[],
  limits: HttpHookLimits,
  env: HeaderEnv,
): FilledHeaders {
  const policy = limits.httpHookAllowedEnvVars;
  const allowed = new Set(
    policy === undefined ? allowedEnvVars : allowedEnvVars.filter((v) => policy.includes(v)),
  );
  const out: Record<string, string> = {};
  const warnings: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (FRAMING_HEADERS.has(name.trim().toLowerCase())) {
      warnings.push(`header ${name.trim()} ignored: the request's length comes from its body`);
      continue;
    }
    const filled = value.replace(
      /\$\{([A-Z_][A-Z0-9_]*)\}|\$([A-Z_][A-Z0-9_]*)/g,
      (_, braced: string | undefined, bare: string | undefined) => {
        const variable = braced ?? bare ?? "";
        if (!allowed.has(variable)) {
          warnings.push(`header ${name}: $${variable} is not in allowedEnvVars, left empty`);
          return "";
        }
        if (env.withheld(variable)) {
          warnings.push(`header ${name}: $${variable} is a model key, never sent, left empty`);
          return "";
        }
        return env.values[variable] ?? "";
      },
    );
    out[name] = filled.replace(/[\r\n\0]/g, "");
  }
  return { headers: out, warnings };
}
