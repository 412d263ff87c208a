import { readFileSync } from "node:fs";
import { isAbsolute } from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { HOOK_EVENTS } from "../wire/events.js";
import { hookRunResultSchema } from "../wire/hook-run-result.js";
import { describeIssue } from "../shared/zod-issues.js";
import { errorMessage } from "../shared/values.js";

/** What a policy test can say happened to one tool call (docs/policy-tests.md). */
export const CALL_DECISIONS = ["denied", "allowed", "asked", "rewritten"] as const;
export type CallDecision = (typeof CALL_DECISIONS)[number];

const pattern = z.string().refine((source) => {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}, "invalid regular expression");

/** A path that stays inside the directory it is relative to. */
const insidePath = z
  .string()
  .min(1)
  .refine(
    (path) => !isAbsolute(path) && !path.split(/[\\/]/).includes(".."),
    "must be a relative path without ..",
  );

const callExpectation = z.strictObject({
  /** The tool the call's prompt line names. */
  tool: z.string().optional(),
  decision: z.union([z.enum(CALL_DECISIONS), z.array(z.enum(CALL_DECISIONS)).min(1)]).optional(),
  /** The hook that decided: its full id or the end of it. */
  hook: z.string().min(1).optional(),
  /** A pattern the deny reason matches (for other calls: the tool call's text). */
  reason: pattern.optional(),
});

/** A client callback that answers every call with the same reply. */
const stub = z.strictObject({
  event: z.enum(HOOK_EVENTS),
  /** The end of the callback id, to name it in expectations. */
  id: z.string().regex(/^[A-Za-z0-9_$.-]{1,64}$/, "must be 1 to 64 letters, digits, _ $ . -"),
  matcher: z.string().optional(),
  timeout: z.number().optional(),
  onFailure: z.enum(["allow", "deny"]).optional(),
  blocking: z.boolean().optional(),
  /** The fixed reply, in either dialect (default: continue). */
  reply: hookRunResultSchema.optional(),
});

const promptLine = z.union([
  z.string(),
  z.strictObject({ tool: z.string().min(1), input: z.record(z.string(), z.unknown()).default({}) }),
]);

const expectations = z.strictObject({
  calls: z.array(callExpectation).optional(),
  exists: z.array(insidePath).optional(),
  absent: z.array(insidePath).optional(),
  context: z.array(pattern).optional(),
  agentText: pattern.optional(),
  stopReason: z
    .enum(["end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled"])
    .optional(),
});

const testCase = z.strictObject({
  name: z.string().min(1),
  settings: z.union([z.string(), z.array(z.string())]).optional(),
  settingSources: z.array(z.enum(["user", "project", "local"])).optional(),
  copy: z.array(insidePath).optional(),
  files: z.record(insidePath, z.string()).optional(),
  hooks: z.array(stub).optional(),
  mode: z.enum(["default", "acceptEdits", "bypassPermissions", "plan", "dontAsk"]).optional(),
  permission: z.enum(["allow", "reject"]).optional(),
  allowWarnings: z.boolean().optional(),
  timeout: z.number().positive().optional(),
  prompt: z.union([z.string(), z.array(promptLine).min(1)]),
  expect: expectations.default({}),
});

const testFile = z.strictObject({ cases: z.array(testCase).min(1) });

export type CallExpectation = z.infer<typeof callExpectation>;
export type HookStub = z.infer<typeof stub>;
export type PolicyCase = z.infer<typeof testCase>;
export type Expectations = z.infer<typeof expectations>;

/** A test file that cannot be read or does not fit the schema; the message names the field. */
export class PolicyFileError extends Error {
  override readonly name = "PolicyFileError";
}

/** Reads a test file: YAML when it ends in `.yaml`/`.yml`, JSON otherwise. */
export function loadPolicyFile(path: string): PolicyCase[] {
  let data: unknown;
  try {
    const text = readFileSync(path, "utf8");
    data = /\.ya?ml$/i.test(path) ? parseYaml(text) : JSON.parse(text);
  } catch (error) {
    throw new PolicyFileError(errorMessage(error).split("\n")[0] ?? "unreadable");
  }
  const parsed = testFile.safeParse(data);
  if (!parsed.success) throw new PolicyFileError(describeIssue(parsed.error.issues[0]));
  return parsed.data.cases;
}

/** The prompt's text: `{ tool, input }` items become `/tool <Name> <json>` lines. */
export function promptText(prompt: PolicyCase["prompt"]): string {
  if (typeof prompt === "string") return prompt;
  return prompt
    .map((line) =>
      typeof line === "string" ? line : `/tool ${line.tool} ${JSON.stringify(line.input)}`,
    )
    .join("\n");
}
