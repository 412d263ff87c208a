/**
 * hookgate as a library: build the agent for a connection of your own, or serve stdio.
 * The client-side helpers live in `hookgate/client`.
 */
export { createAgentApp } from "./protocol/app.js";
export type { AgentOptions } from "./agent.js";
export { serveStdio } from "./serve.js";
export { createLogger, silentLogger, type Logger } from "./log.js";
export { createScriptedModel } from "./model/scripted.js";
export { HOOK_EVENTS, type HookEventName } from "./hooks/events.js";
export type { HookInput, HookInputFor } from "./hooks/input.js";
export type { OutcomeLabel } from "./hooks/outcome.js";
export {
  HOOK_EVENT_METHOD,
  HOOK_RUN_METHOD,
  hookEventParamsSchema,
  hookGroupSchema,
  hookRegistrationSchema,
  hookRunParamsSchema,
  hookRunResultSchema,
  type HookEventParams,
  type HookGroup,
  type HookRegistration,
  type HookRunParams,
  type HookRunResult,
} from "./protocol/hooks-wire.js";
export { builtinTools } from "./tools/index.js";
export { VERSION } from "./version.js";
