/**
 * What the agent sends a hook: the HookInput of each event (the common fields and the
 * event's row of the table in events.ts), and the `_hooks/run` request and `_hooks/event`
 * notification that carry it. Types and schemas are both derived from the table.
 */
import { z } from "zod";
import { EVENT_TABLE, HOOK_EVENTS, type HookEventName } from "./events.js";

// Loose objects: a newer agent may add fields, and a hook should still get its input.
const commonFields = {
  session_id: z.string(),
  transcript_path: z.string(),
  cwd: z.string(),
  permission_mode: z.string(),
  /** The prompt (turn) the event belongs to, as Claude Code's: every event but SessionStart. */
  prompt_id: z.string().optional(),
};

/** A shape's parsed type without a loose object's index signature: only the named fields. */
type FieldsOf<S extends z.ZodRawShape> = z.infer<z.ZodObject<S>>;

/** Fields every HookInput carries. */
export type CommonInput = FieldsOf<typeof commonFields>;

/** Per-event fields, keyed by event name: each row's `fields`. */
export type EventFields = {
  [E in HookEventName]: FieldsOf<(typeof EVENT_TABLE)[E]["fields"]>;
};

/** The input a hook receives for event E. */
export type HookInputFor<E extends HookEventName> = CommonInput & {
  hook_event_name: E;
  truncated?: true;
} & EventFields[E];

/** The input of any event. */
export type HookInput = { [E in HookEventName]: HookInputFor<E> }[HookEventName];

/** Any event's input as far as every event agrees: the common fields and the event name. */
export type AnyHookInput = CommonInput & { hook_event_name: HookEventName; truncated?: true };

/** The shape of event E's input: the common fields, the event's name, and its row's fields. */
type InputShape<E extends HookEventName> = typeof commonFields & {
  hook_event_name: z.ZodLiteral<E>;
  truncated: z.ZodOptional<z.ZodLiteral<true>>;
} & (typeof EVENT_TABLE)[E]["fields"];

/** Event E's input schema, as inputSchema builds it (deferred until E is one event). */
type InputSchema<E extends HookEventName> =
  InputShape<E> extends infer S extends z.ZodRawShape ? z.ZodObject<S, z.core.$loose> : never;

function inputSchema<E extends HookEventName>(event: E) {
  // Typed: the shape built here is the one InputSchema<E> describes.
  const shape: InputShape<E> = {
    ...commonFields,
    hook_event_name: z.literal(event),
    truncated: z.literal(true).optional(),
    ...EVENT_TABLE[event].fields,
  };
  return z.looseObject(shape);
}

/** One schema per event of the table. */
function inputSchemas(): { readonly [E in HookEventName]: InputSchema<E> } {
  const schemas: Partial<Record<HookEventName, z.ZodType>> = {};
  for (const event of HOOK_EVENTS) schemas[event] = inputSchema(event);
  // Every event of the table has its schema, each built by inputSchema for its own key.
  return schemas as { readonly [E in HookEventName]: InputSchema<E> };
}

/**
 * Each event's HookInput (Claude Code's fields, snake_case; see docs/protocol.md), keyed by
 * event, built from the event table. The annotation checks each schema against the type built
 * from the same row (`HookInputFor`).
 */
export const hookInputSchemas: { readonly [E in HookEventName]: z.ZodType<HookInputFor<E>> } =
  inputSchemas();

// Loose: `_hooks/run` params carry the event's own fields too (checked per event above).
const anyHookInputSchema: z.ZodType<AnyHookInput> = z.looseObject({
  ...commonFields,
  hook_event_name: z.enum(HOOK_EVENTS),
  truncated: z.literal(true).optional(),
});

/** `_hooks/run` params, as the agent sends them. */
export const hookRunParamsSchema = z.strictObject({
  sessionId: z.string(),
  hookCallbackId: z.string(),
  toolUseId: z.string(),
  input: anyHookInputSchema,
});

/** `_hooks/event` params. */
export const hookEventParamsSchema = z.strictObject({
  sessionId: z.string(),
  hookCallbackId: z.string(),
  input: anyHookInputSchema,
});

export type HookRunParams = z.infer<typeof hookRunParamsSchema>;
export type HookEventParams = z.infer<typeof hookEventParamsSchema>;
