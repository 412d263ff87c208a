/**
 * The `_hooks/run` result as a client checks it, and a reply as a hook author writes it:
 * stricter readings of hook-reply.ts's shape. The agent reads every reply leniently
 * (hooks/result.ts) and never builds these.
 */
import { z } from "zod";
import { ELICITATION_ACTIONS } from "./elicitation.js";
import {
  hasKnownField,
  hookReplySchema,
  KNOWN_DECISIONS,
  LEGACY_DECISIONS,
  PERMISSION_BEHAVIORS,
  PERMISSION_DECISIONS,
  replySchema,
  ACTING_REPLY_FIELDS,
  REPLY_FIELDS,
} from "./hook-reply.js";

/** The same shape with only the decisions this version knows: what a hook author writes. */
export const knownHookReplySchema = replySchema(
  z.enum([...KNOWN_DECISIONS, ...LEGACY_DECISIONS]),
  z.enum(PERMISSION_DECISIONS),
  z.enum(PERMISSION_BEHAVIORS),
  z.enum(ELICITATION_ACTIONS),
);

export type KnownHookReply = z.infer<typeof knownHookReplySchema>;

/**
 * A reply with only the fields and decisions this version knows, at every level: for a client
 * that checks its own replies (a typo such as `decison` fails here, naming the field).
 */
export const strictHookReplySchema = replySchema(
  z.enum([...KNOWN_DECISIONS, ...LEGACY_DECISIONS]),
  z.enum(PERMISSION_DECISIONS),
  z.enum(PERMISSION_BEHAVIORS),
  z.enum(ELICITATION_ACTIONS),
  z.strictObject,
);

/** JSON Schema of {@link hasKnownField}, which zod cannot generate from a refinement. */
export const KNOWN_FIELD_JSON_SCHEMA = {
  anyOf: [
    { propertyNames: { enum: REPLY_FIELDS } },
    // `properties` beside `required` keeps Ajv's strict mode content (strictRequired).
    ...ACTING_REPLY_FIELDS.map((field) => ({ properties: { [field]: true }, required: [field] })),
  ],
};

/**
 * A `_hooks/run` reply object: {@link hookReplySchema} that says something hookgate can act
 * on ({@link hasKnownField}). Unknown fields beside an acting one are ignored, with a warning.
 */
export const hookRunReplySchema = hookReplySchema.refine(
  hasKnownField,
  "has no field hookgate acts on",
);

/** The whole `_hooks/run` result: `null` also means continue. */
export const hookRunResultSchema = z.union([z.null(), hookRunReplySchema]);

export type HookRunResult = z.infer<typeof hookRunResultSchema>;
