import type { z } from "zod";
import { isRecord } from "../shared/values.js";
import { describeIssue } from "../shared/zod-issues.js";
import type { InputJudge } from "./events/types.js";

/**
 * The one judge of a rewritten tool input (PreToolUse's `updatedInput`, PermissionRequest's
 * `decision.updatedInput`): zod's own value when it fits the tool's schema, else why not.
 * What a misfit then does is the event's (docs/hooks.md).
 */
export function rewriteJudge(schema: z.ZodType): InputJudge {
  return (candidate) => {
    const parsed = schema.safeParse(candidate);
    if (parsed.success && isRecord(parsed.data)) return { ok: true, input: parsed.data };
    const why = parsed.success
      ? "not an object"
      : parsed.error.issues.map((i) => describeIssue(i)).join("; ");
    return { ok: false, why };
  };
}
