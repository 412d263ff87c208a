import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { z } from "zod";
import type { HookText } from "../hooks/steering.js";
import type { hookPromptMetaSchema } from "../wire/meta.js";
import type { Chunk } from "./view-recorder.js";

/** The session's title a prompt gives: the first line of its first text that has one, cut at 80 characters. */
export function firstLine(prompt: readonly ContentBlock[]): string | undefined {
  for (const block of prompt) {
    if (block.type === "text") {
      const line = block.text.trim().split("\n")[0]?.slice(0, 80);
      if (line) return line;
    }
  }
  return undefined;
}

/** The `user_message_chunk` of a prompt a SessionStart hook wrote, naming that hook. */
export function hookPromptChunk(from: HookText): Chunk {
  return {
    sessionUpdate: "user_message_chunk",
    content: { type: "text", text: from.text },
    _meta: {
      hookPrompt: { event: "SessionStart", hookCallbackId: from.hookCallbackId },
    } satisfies z.input<typeof hookPromptMetaSchema>,
  };
}
