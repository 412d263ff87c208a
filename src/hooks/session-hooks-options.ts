import type { Logger } from "../shared/log.js";
import type { CommandHookRunner } from "./command.js";
import type { CommonInput } from "./input.js";
import type { HookRegistry } from "./registry.js";
import type { HookTransport } from "./transport.js";

/** What a session's hooks are built from; shared by `SessionHooks` and its `Observers`. */
export interface SessionHooksOptions {
  readonly sessionId: string;
  readonly registry: HookRegistry;
  readonly transport: HookTransport;
  /** Runs the registry's command hooks (from settings files); absent when there are none. */
  readonly commands?: CommandHookRunner;
  /** The common HookInput fields as they are now (the mode can change mid-session). */
  readonly common: () => CommonInput;
  readonly maxValueBytes: number;
  readonly log: Logger;
  /**
   * Shows the user a warning about hooks that are not running (a client that answers Method not found
   * to `_hooks/run`); at most once per session.
   */
  readonly warn?: (warning: string) => void;
}
