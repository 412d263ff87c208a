/**
 * `hookgate/testing`: run the real agent from a test and record what a client sees; assert
 * that a deny really blocks. Built on `hookgate/client`.
 */
export {
  HookWarningsError,
  spawnAgent,
  type NextStep,
  type PermissionAnswer,
  type SpawnAgentOptions,
  type Timeline,
} from "./spawn-agent.js";
export { makeWorkspace, removeWorkspace, toolLine } from "./workspace.js";
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
export type * from "../types.js";
