import { z } from "zod";
import { isValidMatcher } from "../wire/matcher.js";

/** Handler types hookgate does not run; a file may list them, they are skipped and reported. */
export const SKIPPED_HANDLER_TYPES = ["agent"] as const;

const seconds = z.number().gt(0, "must be greater than 0 seconds");

/** A `type: "command"` handler as Claude Code's settings files write it. */
const claudeCommandSchema = z.looseObject({
  type: z.literal("command"),
  command: z.string().min(1, "must not be empty"),
  args: z.array(z.string()).optional(),
  shell: z.enum(["sh", "bash"]).optional(),
  timeout: seconds.optional(),
  onFailure: z.enum(["continue", "block", "allow", "deny"]).optional(),
  statusMessage: z.string().optional(),
  async: z.boolean().optional(),
  if: z.string().optional(),
});

/** A `type: "http"` handler: the hook input is POSTed to `url` (Claude Code's fields). */
const httpSchema = claudeCommandSchema
  .omit({ command: true, args: true, shell: true, async: true })
  .extend({
    type: z.literal("http"),
    url: z.url({ protocol: /^https?$/, error: "must be an http or https URL" }),
    headers: z.record(z.string(), z.string()).optional(),
    allowedEnvVars: z.array(z.string()).optional(),
  });

/** A `type: "prompt"` handler: a model judges the hook input (Claude Code's fields). */
const promptSchema = claudeCommandSchema
  .omit({ command: true, args: true, shell: true, async: true })
  .extend({
    type: z.literal("prompt"),
    prompt: z.string().min(1, "must not be empty"),
    model: z.string().min(1, "must not be empty").optional(),
    continueOnBlock: z.boolean().optional(),
  });

/**
 * A `type: "mcp_tool"` handler: a tool of one of the session's MCP servers judges, called
 * with `input` (string values' `${path}`s filled from the hook input), Claude Code's fields.
 */
const mcpToolSchema = claudeCommandSchema
  .omit({ command: true, args: true, shell: true, async: true })
  .extend({
    type: z.literal("mcp_tool"),
    server: z.string().min(1, "must not be empty"),
    tool: z.string().min(1, "must not be empty"),
    input: z.record(z.string(), z.unknown()).optional(),
  });

/** Codex's `hooks.json` handler: the same fields, plus `timeoutSec`. */
const codexCommandSchema = claudeCommandSchema.extend({ timeoutSec: seconds.optional() });

const skippedSchema = z.looseObject({ type: z.enum(SKIPPED_HANDLER_TYPES) });

const rules = z.array(z.string()).optional();

/** Permission rules and the keys only managed settings decide with (permission-policy.ts). */
const policyKeys = {
  permissions: z
    .looseObject({ allow: rules, ask: rules, deny: rules, defaultMode: z.string().optional() })
    .optional(),
  allowManagedHooksOnly: z.boolean().optional(),
  allowManagedPermissionRulesOnly: z.boolean().optional(),
  allowedHttpHookUrls: rules,
  httpHookAllowedEnvVars: rules,
};

function fileSchema<H extends z.ZodType>(handler: H) {
  const group = z.looseObject({
    matcher: z.string().refine(isValidMatcher, "invalid regular expression").optional(),
    hooks: z.array(handler),
  });
  // Other settings (env, model, ...) live beside `hooks`: they are not hookgate's to check.
  return z.looseObject({
    hooks: z.record(z.string(), z.array(group)).optional(),
    disableAllHooks: z.boolean().optional(),
    ...policyKeys,
  });
}

/** Claude Code's `settings.json` / `settings.local.json`, the parts hookgate reads. */
export const claudeSettingsSchema = fileSchema(
  z.discriminatedUnion("type", [
    claudeCommandSchema,
    httpSchema,
    promptSchema,
    mcpToolSchema,
    skippedSchema,
  ]),
);

/** Codex's `hooks.json`. */
export const codexHooksSchema = fileSchema(
  z.discriminatedUnion("type", [
    codexCommandSchema,
    httpSchema,
    promptSchema,
    mcpToolSchema,
    skippedSchema,
  ]),
);

export type SettingsFile = z.infer<typeof codexHooksSchema>;
export type CommandHandlerSpec = z.infer<typeof codexCommandSchema>;
export type HttpHandlerSpec = z.infer<typeof httpSchema>;
export type PromptHandlerSpec = z.infer<typeof promptSchema>;
export type McpToolHandlerSpec = z.infer<typeof mcpToolSchema>;
