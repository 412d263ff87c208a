/**
 * `hookgate/client`: register hook callbacks with a hookgate agent from a TypeScript ACP
 * client, in the shape of the Claude Agent SDK's `hooks` option. The test kit (run the real
 * agent, record what a client sees) is `hookgate/testing`.
 */
export { HookRouter, type HookRouterOptions, type Registration } from "./router.js";
export { HookConfigError } from "./registration.js";
export { HookResultError } from "./run.js";
export { hookInputSchemas } from "../wire/hook-input.js";
export {
  hookgateBinary,
  spawnHookgate,
  type AgentProcess,
  type SpawnOptions,
} from "./agent-process.js";
export type * from "./types.js";
export {
  /** @deprecated Import from `hookgate/testing`. */
  spawnAgent,
  /** @deprecated Import from `hookgate/testing`. */
  makeWorkspace,
  /** @deprecated Import from `hookgate/testing`. */
  toolLine,
  /** @deprecated Import from `hookgate/testing`. */
  formatTimeline,
  /** @deprecated Import from `hookgate/testing`. */
  TimelineRecorder,
} from "./kit/index.js";
// The kit's types too (Timeline, SpawnAgentOptions, ...), for code written before the split.
export type * from "./kit/index.js";
