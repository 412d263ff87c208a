import type { AnyMessage } from "@agentclientprotocol/sdk";
import { HOOK_EVENT_METHOD, HOOK_RUN_METHOD } from "./hook-methods.js";

/** A `_hooks/run` request's or `_hooks/event` notification's fields, its input already JSON. */
export interface HookFrameFields {
  readonly method: typeof HOOK_RUN_METHOD | typeof HOOK_EVENT_METHOD;
  /** A request's id; absent on a notification. */
  readonly id?: string | number | null;
  readonly sessionId: string;
  readonly hookCallbackId: string;
  /** On `_hooks/run` only. */
  readonly toolUseId?: string;
  /** `params.input` as JSON text. */
  readonly inputText: string;
}

/**
 * A hook frame's text, field by field, in the order `JSON.stringify` would write a frame made
 * in that order: the agent sends one per callback, and the HookInput in it is serialized once
 * for all of them. `HookFrameReader` reads this layout back.
 */
export function hookFrameText(frame: HookFrameFields): string {
  const id = frame.id === undefined ? "" : `"id":${JSON.stringify(frame.id)},`;
  const tool =
    frame.toolUseId === undefined ? "" : `"toolUseId":${JSON.stringify(frame.toolUseId)},`;
  return `{"jsonrpc":"2.0",${id}"method":"${frame.method}","params":{"sessionId":${JSON.stringify(frame.sessionId)},"hookCallbackId":${JSON.stringify(frame.hookCallbackId)},${tool}"input":${frame.inputText}}}`;
}

// A JSON string with nothing to unescape: its text between the quotes is its value.
const PLAIN = String.raw`"([^"\\\u0000-\u001f]*)"`;
// An id as a JSON integer that a double holds exactly.
const INTEGER = String.raw`(-?(?:0|[1-9]\d{0,14}))`;
/** The start of a line `hookFrameText` wrote, up to and including `"input":`. */
const HEAD = new RegExp(
  String.raw`^\{"jsonrpc":"2\.0",(?:"id":(?:${PLAIN}|${INTEGER}),)?"method":"(${escape(HOOK_RUN_METHOD)}|${escape(HOOK_EVENT_METHOD)})","params":\{"sessionId":${PLAIN},"hookCallbackId":${PLAIN},(?:"toolUseId":${PLAIN},)?"input":`,
);

/**
 * Reads lines laid out as {@link hookFrameText} writes them, without parsing the HookInput
 * again when it is the text the previous such line carried (a gate's frames all carry one
 * input). Each frame still gets its own copy of the input, as a parse would give it. A line
 * laid out any other way, even if it is valid JSON, is not read here (`undefined`): the caller
 * parses it as any other line.
 */
export class HookFrameReader {
  private inputText: string | undefined;
  private input: unknown;

  read(line: string): AnyMessage | undefined {
    const head = HEAD.exec(line);
    if (!head || !line.endsWith("}}")) return undefined;
    const [matched, textId, numberId, method, sessionId, hookCallbackId, toolUseId] = head;
    const inputText = line.slice(matched.length, -2);
    let input: unknown;
    if (inputText === this.inputText) {
      input = copyJson(this.input);
    } else {
      try {
        input = JSON.parse(inputText);
      } catch {
        return undefined;
      }
      this.inputText = inputText;
      this.input = copyJson(input);
    }
    const params =
      toolUseId === undefined
        ? { sessionId, hookCallbackId, input }
        : { sessionId, hookCallbackId, toolUseId, input };
    const id = textId ?? (numberId === undefined ? undefined : Number(numberId));
    const frame =
      id === undefined
        ? { jsonrpc: "2.0", method, params }
        : { jsonrpc: "2.0", id, method, params };
    return frame as AnyMessage;
  }
}

/** A deep copy of a parsed JSON value, own keys as `JSON.parse` makes them (`__proto__` too). */
function copyJson(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map(copyJson);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = copyJson((value as Record<string, unknown>)[key]);
    if (key === "__proto__") {
      Object.defineProperty(copy, key, {
        value: item,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    } else copy[key] = item;
  }
  return copy;
}

function escape(text: string): string {
  return text.replace(/[/.]/g, "\\$&");
}
