/**
 * `hookgate/client`: register hook callbacks with a hookgate agent from a TypeScript ACP
 * client, in the shape of the Claude Agent SDK's `hooks` option, plus a kit that runs the
 * real agent and records what a client sees.
 */
export { HookRouter, type HookRouterOptions, type Registration } from "./router.js";
export { HookConfigError } from "./registration.js";
export { HookResultError } from "./run.js";
export { hookInputSchemas } from "../wire/hooks.js";
export {
  hookgateBinary,
  spawnHookgate,
  type AgentProcess,
  type SpawnOptions,
} from "./agent-process.js";
export {
  makeWorkspace,
  spawnAgent,
  toolLine,
  type PermissionAnswer,
  type SpawnAgentOptions,
  type Timeline,
} from "./kit.js";
export { formatTimeline } from "./format.js";
export {
  TimelineRecorder,
  type HookCallRecord,
  type HookErrorRecord,
  type HookEventRecord,
  type PermissionRecord,
  type Recording,
  type TimelineEntry,
  type ToolCallRecord,
} from "./timeline.js";
export type * from "./types.js";
