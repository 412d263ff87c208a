/**
 * How a client registers hooks: `session/new` (`load`, `resume`) `_meta.hooks`, event name to
 * groups of callback ids, and the limits on it.
 */
import { z } from "zod";
import { HOOK_EVENTS, type HookEventName } from "./events.js";
import { isValidMatcher } from "./matcher.js";

/** The hook extension's version, in `initialize`'s `agentCapabilities._meta.hooks`. */
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
  /** Ask the group with `_hooks/run` and await it, instead of notifying it (steering events). */
  blocking: z.boolean().optional(),
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
