/**
 * MCP elicitation as hookgate reads it: what an MCP server asks (`elicitation/create`), and the
 * answer, whoever gives it (a hook, the ACP client's `elicitation/create` reply). One schema
 * per shape; both sides are untrusted.
 */
import { z } from "zod";

/** The answers MCP (and ACP) know: the user gave content, said no, or dismissed the question. */
export const ELICITATION_ACTIONS = ["accept", "decline", "cancel"] as const;
export type ElicitationAction = (typeof ELICITATION_ACTIONS)[number];

/** One field's value in an answer, as MCP allows it. */
const contentValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);

/** What the user (or a hook) filled in: field name → value. */
export const elicitationContentSchema = z.record(z.string(), contentValue);
export type ElicitationContent = z.infer<typeof elicitationContentSchema>;

/**
 * An answer to an elicitation: MCP's `ElicitResult` and ACP's `CreateElicitationResponse`
 * alike (`content: null` reads as none, as ACP allows). Loose: `_meta` and newer fields pass.
 */
export const elicitationAnswerSchema = z.looseObject({
  action: z.enum(ELICITATION_ACTIONS),
  content: z.preprocess((v) => (v === null ? undefined : v), elicitationContentSchema.optional()),
});

export interface ElicitationAnswer {
  readonly action: ElicitationAction;
  readonly content?: ElicitationContent;
}

/**
 * An MCP server's `elicitation/create` params, the fields hookgate acts on: a form (`mode`
 * absent or `form`, with the schema of its fields) or a URL to open.
 */
export const elicitationRequestSchema = z.discriminatedUnion("mode", [
  z.looseObject({
    mode: z.literal("form"),
    message: z.string(),
    requestedSchema: z.looseObject({
      type: z.literal("object"),
      properties: z.record(z.string(), z.looseObject({ type: z.string().optional() })),
      required: z.array(z.string()).optional(),
    }),
  }),
  z.looseObject({
    mode: z.literal("url"),
    message: z.string(),
    elicitationId: z.string(),
    url: z.string(),
  }),
]);

export type ElicitationRequest = z.infer<typeof elicitationRequestSchema>;

/** Parses an MCP server's params (`mode` absent means `form`), or says which field is wrong. */
export function parseElicitationRequest(
  params: unknown,
): { ok: true; request: ElicitationRequest } | { ok: false; error: z.ZodError } {
  const withMode =
    typeof params === "object" && params !== null && !("mode" in params)
      ? { ...params, mode: "form" }
      : params;
  const parsed = elicitationRequestSchema.safeParse(withMode);
  return parsed.success ? { ok: true, request: parsed.data } : { ok: false, error: parsed.error };
}
