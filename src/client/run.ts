import { hookRunResultSchema, type HookRunResult } from "../wire/hooks.js";
import type { Cancellation } from "./cancellation.js";
import { firstIssue } from "../shared/zod-issues.js";

/** A gate callback returned something that is not a `_hooks/run` result. */
export class HookResultError extends Error {
  override readonly name = "HookResultError";
}

/** `hookCallbackId` and `sessionId` of params that failed validation, for the error report. */
export function idsOf(params: unknown): { hookCallbackId: string; sessionId: string | undefined } {
  const get = (key: string): string | undefined => {
    if (typeof params !== "object" || params === null || !(key in params)) return undefined;
    const value: unknown = Reflect.get(params, key);
    return typeof value === "string" ? value : undefined;
  };
  return { hookCallbackId: get("hookCallbackId") ?? "(none)", sessionId: get("sessionId") };
}

/**
 * Checks a gate callback's return value before it is sent, loosely: the shape must be a
 * `_hooks/run` result, but extra fields and decisions this version does not know pass (the
 * agent labels those `unknown_decision`). Nothing returned means continue.
 */
export function checkResult(hookCallbackId: string, value: unknown): HookRunResult {
  if (value === undefined || value === null) return null;
  // The object branch of the union, so that the error names the bad field.
  const parsed = hookRunResultSchema.options[1].safeParse(value);
  if (parsed.success) return parsed.data;
  throw new HookResultError(
    `hook ${hookCallbackId} returned an invalid result (${firstIssue(parsed.error)})`,
  );
}

/** Settles with `work`, or rejects with the cancellation's reason as soon as it comes. */
export function rejectOnCancel<T>(work: Promise<T>, cancel: Cancellation): Promise<T> {
  if (cancel.aborted) return Promise.reject(cancel.reason);
  return new Promise<T>((resolve, reject) => {
    const stop = cancel.onAbort(() => reject(cancel.reason));
    work.then(resolve, reject).finally(stop);
  });
}
