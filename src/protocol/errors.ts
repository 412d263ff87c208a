import { RequestError } from "@agentclientprotocol/sdk";
import type { z } from "zod";
import { describeIssue } from "../shared/zod-issues.js";

/** A -32602 error whose message names the first offending field. */
export function invalidParams(prefix: string, error: z.ZodError): RequestError {
  const issues = error.issues.map((i) => describeIssue(i, prefix));
  return new RequestError(-32602, issues.join("; "), { issues });
}

/** A -32602 error for one named field. */
export function invalidField(field: string, message: string): RequestError {
  return new RequestError(-32602, `${field}: ${message}`, { issues: [`${field}: ${message}`] });
}
