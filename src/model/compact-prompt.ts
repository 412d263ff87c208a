import type { ModelMessage } from "ai";

/**
 * The opening words of the request that asks a model to summarize its conversation for a
 * compaction; the scripted model knows a summary request by them.
 */
export const COMPACT_REQUEST_HEAD =
  "Your task is to write a summary of the conversation so far, to stand in for it from now on.";

/**
 * The request sent after the conversation: what to keep, then the user's and the PreCompact
 * hooks' instructions (joined with a blank line, as Claude Code joins them).
 */
export function compactRequest(instructions: readonly string[]): string {
  const given = instructions.map((i) => i.trim()).filter((i) => i !== "");
  const lines = [
    COMPACT_REQUEST_HEAD,
    "Keep what the work needs to go on: the user's requests and intent, decisions made, files and",
    "commands involved, errors met and how they were fixed, and what is still to do.",
    "Answer with the summary only, as plain text; call no tools.",
  ];
  if (given.length > 0) lines.push("", "Additional instructions:", given.join("\n\n"));
  return lines.join("\n");
}

/** How a summary opens the conversation that follows a compaction. */
export const SUMMARY_HEAD =
  "This session is being continued from an earlier conversation that was compacted. The summary below covers it.";

/**
 * The message that stands for the compacted conversation: a user-role message, marked in
 * hookgate's provider options so readers (the transcript, the scripted model) can tell it from
 * a prompt.
 */
export function summaryMessage(summary: string): ModelMessage {
  return {
    role: "user",
    content: [{ type: "text", text: `${SUMMARY_HEAD}\n\n${summary}` }],
    providerOptions: { hookgate: { compactSummary: true } },
  };
}

/** True for a message `summaryMessage` made. */
export function isSummaryMark(options: unknown): boolean {
  if (typeof options !== "object" || options === null || !("hookgate" in options)) return false;
  const mark = options.hookgate;
  return typeof mark === "object" && mark !== null && "compactSummary" in mark;
}
