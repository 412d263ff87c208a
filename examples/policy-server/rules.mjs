// The policy server's rules file: zod-validated, then compiled once into a decide function.
import { readFileSync } from "node:fs";
import { z } from "zod";

const ruleSchema = z.strictObject({
  /** A tool name (`Bash`, `mcp__github__create_issue`), a prefix ending in `*` (`mcp__*`), or `*`. */
  tool: z.string().min(1),
  /**
   * A regular expression tested against the call's main argument: Bash's `command`, a file
   * tool's `file_path` (or `path`), Glob's and Grep's `pattern`; else the input as JSON.
   */
  match: z
    .string()
    .refine((source) => {
      try {
        new RegExp(source);
        return true;
      } catch {
        return false;
      }
    }, "invalid regular expression")
    .optional(),
  decision: z.enum(["allow", "deny", "ask"]),
  reason: z.string().optional(),
});

export const rulesSchema = z.strictObject({
  /** First matching rule decides; none: the call goes on as the session's mode says. */
  rules: z.array(ruleSchema),
});

/** Reads and checks a rules file; throws with the file and the field when it is wrong. */
export function loadRules(path) {
  let raw;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(`${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = rulesSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${path}: ${issue?.path.join(".") || "(root)"}: ${issue?.message}`);
  }
  return parsed.data.rules.map((rule, index) => ({
    ...rule,
    index,
    test: rule.match === undefined ? () => true : compile(rule.match),
  }));
}

function compile(source) {
  const re = new RegExp(source);
  return (text) => re.test(text);
}

/** The text a rule's `match` is tested against. */
function subjectOf(input) {
  if (typeof input !== "object" || input === null) return "";
  for (const key of ["command", "file_path", "path", "pattern", "url"]) {
    if (typeof input[key] === "string") return input[key];
  }
  return JSON.stringify(input);
}

/** The first rule that matches this call, or undefined. */
export function decide(rules, toolName, toolInput) {
  const subject = subjectOf(toolInput);
  return rules.find((r) => toolMatches(r.tool, toolName) && r.test(subject));
}

function toolMatches(pattern, toolName) {
  return pattern.endsWith("*") ? toolName.startsWith(pattern.slice(0, -1)) : pattern === toolName;
}
