import type { HttpHandler } from "../hooks/command.js";
import { fillHeaders, refusedUrl, type HeaderEnv, type HttpHookLimits } from "./http-policy.js";
import type { HttpHandlerSpec } from "./settings-schema.js";

/** The fields every settings-file handler gets from where and how it was declared. */
export type HandlerBase = Pick<
  HttpHandler,
  "id" | "event" | "timeoutMs" | "failClosed" | "statusMessage" | "applies" | "ifRule"
>;

/**
 * An `http` handler ready to race, and warnings naming what it will not send: header
 * variables left empty, a URL outside `allowedHttpHookUrls` (the handler is kept, refused:
 * it fails at once as its `onFailure` says, never called, so a fail-closed policy stays
 * closed).
 */
export function toHttpHandler(
  spec: HttpHandlerSpec,
  base: HandlerBase,
  limits: HttpHookLimits,
  env: HeaderEnv,
): { handler: HttpHandler; warnings: string[] } {
  const filled = fillHeaders(spec.headers ?? {}, spec.allowedEnvVars ?? [], limits, env);
  const refused = refusedUrl(spec.url, limits);
  const warnings = refused === undefined ? filled.warnings : [refused, ...filled.warnings];
  return {
    handler: {
      ...base,
      kind: "http",
      url: spec.url,
      headers: filled.headers,
      ...(refused !== undefined && { refused }),
    },
    warnings: warnings.map((w) => `${base.id}: ${w}`),
  };
}
