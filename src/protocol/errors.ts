import { RequestError } from "@agentclientprotocol/sdk";
import type { z } from "zod";
import { describeIssue } from "../shared/zod-issues.js";
import { JSON_RPC } from "../wire/json-rpc.js";

/** An invalid-params error whose message names the first offending field. */
export function invalidParams(prefix: string, error: z.ZodError): RequestError {
  const issues = error.issues.map((i) => describeIssue(i, prefix));
  return new RequestError(JSON_RPC.INVALID_PARAMS, issues.join("; "), { issues });
}

/** An invalid-params error for one named field. */
export function invalidField(field: string, message: string): RequestError {
  return new RequestError(JSON_RPC.INVALID_PARAMS, `${field}: ${message}`, {
    issues: [`${field}: ${message}`],
  });
}
