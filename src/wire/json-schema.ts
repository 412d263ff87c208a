/**
 * The wire contract as JSON Schema (draft 2020-12, as ACP's own schema), generated from the
 * zod schemas of this folder, so that clients in other languages validate the same shapes.
 * `npm run schema` writes it to `schema/hookgate.schema.json`, which the package ships.
 */
import { z } from "zod";
import { HOOK_EVENTS } from "./events.js";
import { JSON_RPC } from "./json-rpc.js";
import { hookEventParamsSchema, hookInputSchemas, hookRunParamsSchema } from "./hook-input.js";
import { HOOK_EVENT_METHOD, HOOK_RUN_METHOD } from "./hook-methods.js";
import {
  hookRunReplySchema,
  hookRunResultSchema,
  KNOWN_FIELD_JSON_SCHEMA,
  knownHookReplySchema,
  strictHookReplySchema,
} from "./hook-run-result.js";
import {
  outcomeReportSchema,
  sessionHooksReportSchema,
  settingsReportSchema,
} from "./hook-reports.js";
import { mcpReportSchema, mcpServerReportSchema } from "./mcp.js";
import { HOOK_PROTOCOL_VERSION, hookGroupSchema, hookRegistrationSchema } from "./registration.js";
import {
  capabilityMetaSchema,
  hookWarningsMetaSchema,
  hookPromptMetaSchema,
  hookCapabilitySchema,
  promptMetaSchema,
  sessionListEntryMetaSchema,
  sessionOpenedMetaSchema,
  sessionRequestMetaSchema,
  updateHooksMetaSchema,
} from "./meta.js";

/** Where the generated file lives in the package. */
export const JSON_SCHEMA_PATH = "schema/hookgate.schema.json";

/**
 * The document's `$id`: a name, not a place to fetch. A validator that loads the file reaches
 * each shape as `<id>#/$defs/<Name>`, with no wrapper schema of its own.
 */
export const JSON_SCHEMA_ID = `urn:hookgate:hook-extension:${HOOK_PROTOCOL_VERSION}`;

/** Each definition: its name under `$defs`, its schema, and where it travels. */
const DEFINITIONS: readonly (readonly [string, z.ZodType, string])[] = [
  ["CapabilityMeta", capabilityMetaSchema, "`initialize` result `agentCapabilities._meta`."],
  ["HookCapability", hookCapabilitySchema, "`initialize` result `agentCapabilities._meta.hooks`."],
  [
    "SessionRequestMeta",
    sessionRequestMetaSchema,
    "`session/new`, `session/load`, `session/resume` params `_meta`.",
  ],
  [
    "HookRegistration",
    hookRegistrationSchema,
    "`session/new`, `session/load`, `session/resume` params `_meta.hooks`: event name to groups.",
  ],
  ["HookGroup", hookGroupSchema, "One group of a registration: `_meta.hooks.<Event>[i]`."],
  [
    "PromptMeta",
    promptMetaSchema,
    "`session/prompt` params `_meta`: a W3C `traceparent` parents the turn's spans.",
  ],
  [
    "SessionOpenedMeta",
    sessionOpenedMetaSchema,
    "`session/new`, `session/load`, `session/resume` result `_meta`.",
  ],
  [
    "SessionHooksReport",
    sessionHooksReportSchema,
    "`session/new`, `session/load`, `session/resume` result `_meta.hooks`.",
  ],
  ["SettingsReport", settingsReportSchema, "One entry of `SessionHooksReport.settings`."],
  [
    "McpReport",
    mcpReportSchema,
    "`session/new`, `session/load`, `session/resume` result `_meta.mcp`.",
  ],
  ["McpServerReport", mcpServerReportSchema, "One server's line in `_meta.mcp`."],
  [
    "SessionListEntryMeta",
    sessionListEntryMetaSchema,
    "`session/list` result: each entry's `_meta` (start time, tool calls, denied calls).",
  ],
  [
    "UpdateHooksMeta",
    updateHooksMetaSchema,
    "`session/update` `_meta` of a `tool_call_update` after the gate, of a permission " +
      "request's tool call, and of the update that follows a hook on an event without a tool.",
  ],
  [
    "OutcomeReport",
    outcomeReportSchema,
    "One entry of `UpdateHooksMeta.hooks`: one hook's outcome.",
  ],
  [
    "HookWarningsMeta",
    hookWarningsMetaSchema,
    "`session/update` `_meta` of the `agent_message_chunk` that says some hooks are not " +
      `running (a client that answers ${JSON_RPC.METHOD_NOT_FOUND} to \`_hooks/run\`).`,
  ],
  [
    "HookPromptMeta",
    hookPromptMetaSchema,
    "`session/update` `_meta` of a `user_message_chunk` a SessionStart hook wrote " +
      "(`initialUserMessage`), not the user.",
  ],
  [
    "HookRunParams",
    hookRunParamsSchema,
    `\`${HOOK_RUN_METHOD}\` request params (agent to client).`,
  ],
  [
    "HookRunResult",
    hookRunResultSchema,
    `\`${HOOK_RUN_METHOD}\` result as the agent reads it: \`null\` or a reply in either dialect; ` +
      "decision strings this version does not know are read as `unknown_decision`; a reply " +
      "that fails here is `malformed` (one made only of unknown fields, beside at most a " +
      "`reason`, too).",
  ],
  [
    "KnownHookReply",
    knownHookReplySchema,
    `A \`${HOOK_RUN_METHOD}\` result (or command hook stdout) with only the decisions this version knows.`,
  ],
  [
    "StrictHookReply",
    strictHookReplySchema,
    `A \`${HOOK_RUN_METHOD}\` result with only the fields and decisions this version knows, at ` +
      "every level: for a client that checks its own replies (a typo such as `decison` fails).",
  ],
  [
    "HookEventParams",
    hookEventParamsSchema,
    `\`${HOOK_EVENT_METHOD}\` notification params (agent to client).`,
  ],
  ...HOOK_EVENTS.map(
    (event) =>
      [
        `${event}Input`,
        hookInputSchemas[event],
        `The \`input\` of \`${HOOK_RUN_METHOD}\` and \`${HOOK_EVENT_METHOD}\` for ${event}.`,
      ] as const,
  ),
];

/** The JSON Schema document: every wire shape under `$defs`, named as in docs/protocol.md. */
export function wireJsonSchema(): Record<string, unknown> {
  const registry = z.registry<{ id: string; description: string }>();
  for (const [id, schema, description] of DEFINITIONS) registry.add(schema, { id, description });
  const { schemas } = z.toJSONSchema(registry, {
    metadata: registry,
    // What the schemas accept: a plain object allows fields it does not name, as zod does.
    io: "input",
    uri: (id) => `#/$defs/${id}`,
    // The one refinement of the wire shapes that JSON Schema can say: a `_hooks/run` reply
    // needs a field hookgate acts on.
    override: ({ zodSchema, jsonSchema }) => {
      if (zodSchema === hookRunReplySchema) Object.assign(jsonSchema, KNOWN_FIELD_JSON_SCHEMA);
    },
  });
  const defs: Record<string, unknown> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    // Each definition lives inside this one document: its refs resolve against the root.
    const def = { ...schema };
    delete def.$schema;
    delete def.$id;
    defs[id] = def;
  }
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: JSON_SCHEMA_ID,
    title: "hookgate hook extension to the Agent Client Protocol",
    description:
      `Version ${HOOK_PROTOCOL_VERSION} of the hook extension: the \`${HOOK_RUN_METHOD}\` and ` +
      `\`${HOOK_EVENT_METHOD}\` frames and the \`_meta\` values hookgate adds to ACP messages. ` +
      "Generated from hookgate's zod schemas (npm run schema); see docs/protocol.md.",
    $defs: defs,
  };
}
