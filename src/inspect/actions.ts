import { z } from "zod";
import type { HookInputFor } from "../client/index.js";
import { compileMatcher, isValidMatcher } from "../wire/matcher.js";

/** Events a page rule can stop at: the gate is the only event whose callbacks answer. */
const GATE_EVENTS = ["PreToolUse"] as const;
/** What the page may post to `/api`: one schema per action. */
export const ruleSchema = z.strictObject({
  event: z.enum(GATE_EVENTS),
  matcher: z.string().max(500).refine(isValidMatcher, "is not a valid matcher"),
  contains: z.string().max(500).default(""),
});
export const actionSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("newSession") }),
  z.strictObject({ type: z.literal("prompt"), text: z.string().min(1).max(100_000) }),
  z.strictObject({ type: z.literal("cancel") }),
  z.strictObject({ type: z.literal("listSessions") }),
  z.strictObject({ type: z.literal("exportRecord") }),
  z.strictObject({ type: z.literal("loadSession"), sessionId: z.string().min(1).max(200) }),
  z.strictObject({ type: z.literal("addRule"), rule: ruleSchema }),
  z.strictObject({ type: z.literal("removeRule"), id: z.string().max(100) }),
  z.strictObject({
    type: z.literal("answerGate"),
    id: z.string().max(100),
    decision: z.enum(["allow", "deny"]),
    reason: z.string().max(2000).default(""),
  }),
  z.strictObject({
    type: z.literal("answerPermission"),
    id: z.string().max(100),
    optionId: z.string().max(200).nullable(),
  }),
]);
export type Action = z.infer<typeof actionSchema>;
export type Rule = z.infer<typeof ruleSchema> & { readonly id: string };

/** A rule stops a call when its matcher takes the tool name and the input holds its text. */
export function ruleMatches(rule: Rule, input: HookInputFor<"PreToolUse">): boolean {
  if (!compileMatcher(rule.matcher)(input.tool_name)) return false;
  return rule.contains === "" || JSON.stringify(input.tool_input).includes(rule.contains);
}
