import type { AnyMessage } from "@agentclientprotocol/sdk";
import { hookFrameText } from "../wire/hook-frame-text.js";
import type { HookEventParams, HookRunParams } from "../wire/hook-input.js";
import { HOOK_EVENT_METHOD, HOOK_RUN_METHOD } from "../wire/hook-methods.js";

/** Frames written straight to the connection's output, in the order they are sent. */
export interface FrameOutput {
  /**
   * Writes one frame now (throws once the output has failed); the promise, when there is one,
   * settles once the output can take more.
   */
  send(message: AnyMessage): Promise<void> | undefined;
  /** The same for a hook frame already serialized (one line, no newline), held with its burst. */
  sendHookText(text: string): Promise<void> | undefined;
}

/**
 * `_hooks/run` and `_hooks/event` frames written to one connection's output, field by field:
 * a gate or an event sends one per callback, all carrying one HookInput, so that input is
 * serialized once, not once per frame.
 */
export class HookFrames {
  /**
   * A cache of each HookInput's JSON, owned by the connection: weak, so an input's text lives
   * as long as the input (one event's frames), and an input must not change once sent.
   */
  private readonly inputTexts = new WeakMap<object, string>();

  constructor(readonly output: FrameOutput) {}

  /** Writes a `_hooks/run` request; throws once the output has failed. */
  run(id: string, params: HookRunParams): Promise<void> | undefined {
    const frame = { jsonrpc: "2.0" as const, id, method: HOOK_RUN_METHOD, params };
    const inputText = this.inputText(params.input);
    if (inputText === undefined) return this.output.send(frame);
    const { sessionId, hookCallbackId, toolUseId } = params;
    return this.output.sendHookText(
      hookFrameText({
        method: HOOK_RUN_METHOD,
        id,
        sessionId,
        hookCallbackId,
        toolUseId,
        inputText,
      }),
    );
  }

  /** Writes a `_hooks/event` notification; throws once the output has failed. */
  event(params: HookEventParams): Promise<void> | undefined {
    const inputText = this.inputText(params.input);
    if (inputText === undefined) {
      return this.output.send({ jsonrpc: "2.0", method: HOOK_EVENT_METHOD, params });
    }
    const { sessionId, hookCallbackId } = params;
    return this.output.sendHookText(
      hookFrameText({ method: HOOK_EVENT_METHOD, sessionId, hookCallbackId, inputText }),
    );
  }

  /** The input's JSON, made once; undefined when it cannot be serialized (see `frameText`). */
  private inputText(input: object): string | undefined {
    let text = this.inputTexts.get(input);
    if (text === undefined) {
      try {
        text = JSON.stringify(input);
      } catch {
        return undefined;
      }
      this.inputTexts.set(input, text);
    }
    return text;
  }
}
