import type {
  LanguageModelV3StreamPart,
  LanguageModelV3ToolCall,
  SharedV3ProviderMetadata,
  SharedV3Warning,
} from "@ai-sdk/provider";
import type { AssistantModelMessage, ToolSet } from "ai";
import { providerUtils } from "./ai-internal.js";

type Metadata = SharedV3ProviderMetadata | undefined;

/** What the model said in a step, in the order it said it. */
type Recorded =
  | { type: "text" | "reasoning"; text: string; providerMetadata: Metadata }
  | { type: "file"; data: string; mediaType: string; providerMetadata: Metadata }
  | { type: "tool-call"; call: RecordedCall };

export interface RecordedCall {
  readonly toolCallId: string;
  readonly toolName: string;
  /** Parsed JSON; for an invalid call the parsed text if it parses, else the text itself. */
  readonly input: unknown;
  /** The tool is unknown or the arguments are not JSON. */
  readonly invalid: boolean;
  readonly providerExecuted: boolean | undefined;
  readonly providerMetadata: Metadata;
}

export interface RecordedStep {
  readonly toolCalls: RecordedCall[];
  readonly finish: "stop" | "tool-calls" | "length" | "content-filter" | "error" | "other";
  /** The provider's own finish reason; none when the stream ended without a finish part. */
  readonly raw: string | undefined;
  readonly usage: { inputTokens?: number | undefined; outputTokens?: number | undefined };
  readonly warnings: SharedV3Warning[];
  /** The step as history, as the AI SDK writes it; none when the model said nothing. */
  readonly message: AssistantModelMessage | undefined;
}

// Part types that count as output: a stream with some of them but no finish was cut.
const OUTPUT = new Set<LanguageModelV3StreamPart["type"]>([
  "file",
  "source",
  "text-start",
  "text-end",
  "text-delta",
  "reasoning-start",
  "reasoning-end",
  "reasoning-delta",
  "tool-input-start",
  "tool-input-end",
  "tool-input-delta",
  "tool-approval-request",
  "tool-call",
  "tool-result",
]);

/**
 * Reads a provider's stream parts into a step the way the AI SDK's `streamText` does:
 * text and reasoning blocks by id (the last provider metadata of a block wins, so
 * reasoning signatures are kept), tool calls parsed against the tool set, and the
 * assistant message the history keeps.
 */
export class StepRecorder {
  private readonly content: Recorded[] = [];
  private readonly open = new Map<string, Extract<Recorded, { text: string }>>();
  private finishPart: Extract<LanguageModelV3StreamPart, { type: "finish" }> | undefined;
  private warnings: SharedV3Warning[] = [];
  private output = false;

  constructor(
    private readonly tools: ToolSet,
    private readonly on: { onText(delta: string): void; onReasoning(delta: string): void },
  ) {}

  /** Takes one part; a part that ends the step with an error throws it. */
  take(part: LanguageModelV3StreamPart): Promise<void> | undefined {
    if (OUTPUT.has(part.type)) this.output = true;
    switch (part.type) {
      case "stream-start":
        this.warnings = part.warnings;
        return;
      case "text-start":
      case "reasoning-start": {
        const block = {
          type: part.type === "text-start" ? ("text" as const) : ("reasoning" as const),
          text: "",
          providerMetadata: part.providerMetadata,
        };
        this.open.set(`${block.type}:${part.id}`, block);
        this.content.push(block);
        return;
      }
      case "text-delta":
      case "reasoning-delta": {
        const kind = part.type === "text-delta" ? "text" : "reasoning";
        const block = this.block(kind, part.id);
        block.text += part.delta;
        block.providerMetadata = part.providerMetadata ?? block.providerMetadata;
        if (part.delta !== "") {
          if (kind === "text") this.on.onText(part.delta);
          else this.on.onReasoning(part.delta);
        }
        return;
      }
      case "text-end":
      case "reasoning-end": {
        const kind = part.type === "text-end" ? "text" : "reasoning";
        const block = this.block(kind, part.id);
        block.providerMetadata = part.providerMetadata ?? block.providerMetadata;
        this.open.delete(`${kind}:${part.id}`);
        return;
      }
      case "file":
        this.content.push({
          type: "file",
          data:
            typeof part.data === "string" ? part.data : Buffer.from(part.data).toString("base64"),
          mediaType: part.mediaType,
          providerMetadata: part.providerMetadata,
        });
        return;
      case "tool-call":
        return this.toolCall(part);
      case "finish":
        this.finishPart = part;
        return;
      case "error":
        throw part.error;
      default:
        // Sources, streamed tool input, metadata and raw chunks are not kept.
        return;
    }
  }

  /** The step, once the stream has ended. */
  async finished(): Promise<RecordedStep> {
    const finish = this.finishPart;
    if (!finish && !this.output) {
      // The SDK's own error for it; its main bundle loads only on this rare path.
      const { NoOutputGeneratedError } = await import("ai");
      throw new NoOutputGeneratedError({
        message: "No output generated. The model stream ended without a finish chunk.",
      });
    }
    const toolCalls = this.content.flatMap((c) => (c.type === "tool-call" ? [c.call] : []));
    return {
      toolCalls,
      finish: finish?.finishReason.unified ?? "other",
      raw: finish?.finishReason.raw,
      usage: {
        inputTokens: finish?.usage.inputTokens.total,
        outputTokens: finish?.usage.outputTokens.total,
      },
      warnings: this.warnings,
      message: this.message(),
    };
  }

  private block(kind: "text" | "reasoning", id: string): Extract<Recorded, { text: string }> {
    const block = this.open.get(`${kind}:${id}`);
    // The AI SDK fails the step the same way on a delta for a block never opened.
    if (!block) throw new Error(`${kind} part ${id} not found`);
    return block;
  }

  private async toolCall(part: LanguageModelV3ToolCall): Promise<void> {
    const known = Object.hasOwn(this.tools, part.toolName);
    const { safeParseJSON } = await providerUtils();
    const parsed =
      known && part.input.trim() === ""
        ? { success: true as const, value: {} }
        : await safeParseJSON({ text: part.input });
    this.content.push({
      type: "tool-call",
      call: {
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        input: parsed.success ? parsed.value : part.input,
        invalid: !known || !parsed.success,
        providerExecuted: part.providerExecuted,
        providerMetadata: part.providerMetadata,
      },
    });
  }

  private message(): AssistantModelMessage | undefined {
    const content: Exclude<AssistantModelMessage["content"], string> = [];
    for (const c of this.content) {
      if (c.type === "tool-call") {
        const { call } = c;
        content.push({
          type: "tool-call",
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          input: call.invalid && typeof call.input !== "object" ? {} : call.input,
          providerExecuted: call.providerExecuted,
          providerOptions: call.providerMetadata,
        });
      } else if (c.type === "file") {
        content.push({
          type: "file",
          data: c.data,
          mediaType: c.mediaType,
          providerOptions: c.providerMetadata,
        });
      } else if (c.type === "reasoning" || c.text.length > 0) {
        content.push({ type: c.type, text: c.text, providerOptions: c.providerMetadata });
      }
    }
    return content.length > 0 ? { role: "assistant", content } : undefined;
  }
}
