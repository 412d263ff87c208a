/**
 * hookgate as a library: serve one connection of your own with `connectHookgate` (one agent
 * per connection), or stdio with `serveStdio`.
 * The client-side helpers live in `hookgate/client`.
 */
export { createAgentApp, MODEL_FAILED, ONE_CONNECTION, SESSION_LOCKED } from "./protocol/app.js";
export { releaseAbandoned } from "./protocol/abandoned-requests.js";
export type {
  AgentHost,
  OpenRequest,
  Opened,
  PromptOutcome,
  RestoreRefusal,
  RestoreRequest,
  SessionHandle,
  SessionPage,
  SessionSummary,
} from "./protocol/host.js";
export { Agent, type AgentOptions } from "./agent/agent.js";
export { connectHookgate, serveStdio } from "./agent/serve.js";
export { AgentRuntime, type AgentRuntimeOptions } from "./agent/runtime.js";
export { defaultDataDir } from "./store/data-dir.js";
export { createLogger, silentLogger, type Logger } from "./shared/log.js";
export { createScriptedModel } from "./model/scripted.js";
export { HOOK_EVENTS, type HookEventName } from "./wire/events.js";
export {
  interpretReply,
  type HookResult,
  type Interpretation,
  type ReadOptions,
  type ReplyDecision,
} from "./hooks/result.js";
export { HOOK_EVENT_METHOD, HOOK_RUN_METHOD } from "./wire/hook-methods.js";
export {
  hookEventParamsSchema,
  hookInputSchemas,
  hookRunParamsSchema,
  type HookEventParams,
  type HookInput,
  type HookInputFor,
  type HookRunParams,
} from "./wire/hook-input.js";
export { hookReplySchema, type HookReply } from "./wire/hook-reply.js";
export {
  hookRunResultSchema,
  knownHookReplySchema,
  strictHookReplySchema,
  type HookRunResult,
  type KnownHookReply,
} from "./wire/hook-run-result.js";
export {
  OUTCOME_LABELS,
  outcomeReportSchema,
  type OutcomeLabel,
  type OutcomeReport,
  sessionHooksReportSchema,
  type SessionHooksReport,
} from "./wire/hook-reports.js";
export {
  hookGroupSchema,
  hookRegistrationSchema,
  type HookGroup,
  type HookRegistration,
} from "./wire/registration.js";
export {
  capabilityMetaSchema,
  hookCapabilitySchema,
  readUpdateHooksMeta,
  sessionListEntryMetaSchema,
  sessionOpenedMetaSchema,
  sessionRequestMetaSchema,
  updateHooksMetaSchema,
  type CapabilityMeta,
  type HookCapability,
  type SessionListEntryMeta,
  type SessionOpenedMeta,
  type SessionRequestMeta,
  type UpdateHooksMeta,
} from "./wire/meta.js";
export { mcpReportSchema, type McpServerReport } from "./wire/mcp.js";
export { builtinTools } from "./tools/index.js";
export { VERSION } from "./shared/version.js";
