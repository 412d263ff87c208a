import { z } from "zod";
import { HOOK_EVENTS, type HookEventName } from "../hooks/events.js";
import { isValidMatcher } from "../hooks/matcher.js";
import type { HookReply } from "../hooks/transport.js";

/** Wire names of the hook extension (ACP reserves `_`-prefixed methods for extensions). */
export const HOOK_RUN_METHOD = "_hooks/run";
export const HOOK_EVENT_METHOD = "_hooks/event";
export const HOOK_PROTOCOL_VERSION = 1;
/** Most callbacks one session may register, over all events. */
export const MAX_CALLBACKS_PER_SESSION = 256;

// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

const callbackId = z
  .string()
  .min(1, "must not be empty")
  .max(256, "must be at most 256 characters")
  .refine((id) => !CONTROL_CHARS.test(id), "must not contain control characters");

/** One hook group as registered in `session/new` `_meta.hooks.<Event>[i]`. */
export const hookGroupSchema = z.strictObject({
  matcher: z.string().refine(isValidMatcher, "invalid regular expression").optional(),
  hookCallbackIds: z
    .array(callbackId)
    .min(1, "must list at least one callback id")
    .max(64, "must list at most 64 callback ids"),
  timeout: z
    .number()
    .gt(0, "must be greater than 0 seconds")
    .lte(300, "must be at most 300 seconds")
    .optional(),
  onFailure: z.enum(["allow", "deny"]).optional(),
});

export type HookGroup = z.infer<typeof hookGroupSchema>;

const groups = z.array(hookGroupSchema).optional();

/**
 * `_meta.hooks`: known events map to group lists; unknown event names pass through so a
 * newer client still gets a session (they are reported as ignored).
 */
export const hookRegistrationSchema = z
  .looseObject(
    Object.fromEntries(HOOK_EVENTS.map((e) => [e, groups])) as Record<HookEventName, typeof groups>,
  )
  .superRefine((reg, ctx) => {
    let count = 0;
    for (const event of HOOK_EVENTS) {
      for (const group of reg[event] ?? []) count += group.hookCallbackIds.length;
    }
    if (count > MAX_CALLBACKS_PER_SESSION) {
      ctx.addIssue({
        code: "custom",
        message: `registers ${count} callbacks; at most ${MAX_CALLBACKS_PER_SESSION} are allowed per session`,
      });
    }
  });

export type HookRegistration = z.infer<typeof hookRegistrationSchema>;

/**
 * A `_hooks/run` result. `decision` is any string here so that an unknown one can be
 * told apart from a malformed reply; extra fields are tolerated for newer clients.
 */
export const hookReplySchema = z.looseObject({
  decision: z.string().optional(),
  reason: z.string().optional(),
  systemMessage: z.string().optional(),
  updatedInput: z.record(z.string(), z.unknown()).optional(),
  additionalContext: z.string().optional(),
});

/** The whole `_hooks/run` result: `null` also means continue. */
export const hookRunResultSchema = z.union([z.null(), hookReplySchema]);

export type HookRunResult = z.infer<typeof hookRunResultSchema>;

// The wire schema and the gate's reply type must not drift apart.
const _replyFitsGate: z.ZodType<HookReply> = hookReplySchema;
void _replyFitsGate;

export { KNOWN_DECISIONS, type HookDecision } from "../hooks/transport.js";

const hookInputSchema = z.looseObject({
  session_id: z.string(),
  transcript_path: z.string(),
  cwd: z.string(),
  hook_event_name: z.enum(HOOK_EVENTS),
  permission_mode: z.string(),
});

/** `_hooks/run` params, as the agent sends them (used to validate our own frames in tests). */
export const hookRunParamsSchema = z.strictObject({
  sessionId: z.string(),
  hookCallbackId: z.string(),
  toolUseId: z.string(),
  input: hookInputSchema,
});

/** `_hooks/event` params. */
export const hookEventParamsSchema = z.strictObject({
  sessionId: z.string(),
  hookCallbackId: z.string(),
  input: hookInputSchema,
});

export type HookRunParams = z.infer<typeof hookRunParamsSchema>;
export type HookEventParams = z.infer<typeof hookEventParamsSchema>;
