import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { COMPACT_REQUEST_HEAD, isSummaryMark, SUMMARY_HEAD } from "./compact-prompt.js";

/** How many of the user's prompts a scripted summary names: the newest ones. */
const KEPT_PROMPTS = 5;
const PROMPT_CHARS = 80;
const LINE = "- ";

/**
 * The scripted model's summary of a conversation: deterministic and bounded, so a session
 * compacted again and again stays the same size. It names how many messages it covers and the
 * user's newest prompts (carried over from an earlier summary), one line each.
 */
export function scriptedSummary(prompt: LanguageModelV3Prompt): string {
  const conversation = prompt.slice(0, -1).filter((m) => m.role !== "system");
  const prompts: string[] = [];
  for (const message of conversation) {
    if (message.role !== "user") continue;
    const text = message.content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("\n");
    if (isSummaryMark(message.providerOptions)) {
      // An earlier summary's lines carry its prompts forward.
      for (const line of text.split("\n")) if (line.startsWith(LINE)) prompts.push(line.slice(2));
    } else if (!text.startsWith(COMPACT_REQUEST_HEAD) && !text.startsWith(SUMMARY_HEAD)) {
      const first = text.trim().split("\n")[0] ?? "";
      if (first !== "") prompts.push(first.slice(0, PROMPT_CHARS));
    }
  }
  const kept = prompts.slice(-KEPT_PROMPTS);
  const head = `Summary of ${conversation.length} earlier messages.`;
  if (kept.length === 0) return `${head} The user asked nothing yet.`;
  return [`${head} The user's latest prompts:`, ...kept.map((p) => `${LINE}${p}`)].join("\n");
}
