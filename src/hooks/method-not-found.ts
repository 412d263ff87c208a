import type { Logger } from "../shared/log.js";
import type { HookRunParams } from "../wire/hook-input.js";
import { HOOK_RUN_METHOD } from "../wire/hook-methods.js";
import type { HookRegistry } from "./registry.js";
import { JSON_RPC } from "../wire/json-rpc.js";
import { HookTransportError, type HookTransport } from "./transport.js";

const { METHOD_NOT_FOUND } = JSON_RPC;

/** Where docs/protocol.md tells a client in another language what to answer. */
export const OTHER_LANGUAGES_DOC = "docs/protocol.md#other-languages";

/** What a session needs to tell of a client that has no `_hooks/run`. */
export interface MethodNotFoundWatchOptions {
  readonly registry: Pick<HookRegistry, "groupOf">;
  readonly log: Logger;
  /** Shows the warning to the user; called at most once per session. */
  readonly warn?: ((warning: string) => void) | undefined;
}

/**
 * The session's transport, watching `_hooks/run` replies for Method not found. A client without a
 * handler for the method (an ACP SDK in another language strips the leading `_`, so a match
 * on "_hooks/run" never fires) answers it to every call: each fails open as a
 * `transport_error` and the session's gates are off. The first one is told once per session,
 * at error level and through `warn`; the outcome itself is unchanged.
 */
export function watchMethodNotFound(
  transport: HookTransport,
  opts: MethodNotFoundWatchOptions,
): HookTransport {
  let told = false;
  const check = (request: HookRunParams, error: unknown): never => {
    if (!told && error instanceof HookTransportError && error.code === METHOD_NOT_FOUND) {
      told = true;
      const warning = methodNotFoundWarning(opts.registry, request);
      opts.log.error(
        { hookCallbackId: request.hookCallbackId, event: request.input.hook_event_name },
        warning,
      );
      opts.warn?.(warning);
    }
    throw error;
  };
  return {
    run: (request, cancel) =>
      transport.run(request, cancel).catch((e: unknown) => check(request, e)),
    event: (notice) => transport.event(notice),
  };
}

/** The warning for a Method not found answered to `request`, naming the group it came from. */
export function methodNotFoundWarning(
  registry: Pick<HookRegistry, "groupOf">,
  request: HookRunParams,
): string {
  const id = JSON.stringify(request.hookCallbackId);
  const group = registry.groupOf(request.input.hook_event_name, request.hookCallbackId);
  const which = group === undefined ? `the group of callback ${id}` : `group ${group}`;
  return `client answered ${METHOD_NOT_FOUND} Method not found to ${HOOK_RUN_METHOD}: ${which}'s gates are not running (callback ${id}); see ${OTHER_LANGUAGES_DOC}`;
}
