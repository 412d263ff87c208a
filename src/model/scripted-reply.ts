import type {
  LanguageModelV3Prompt,
  LanguageModelV3ToolResultOutput,
  LanguageModelV3ToolResultPart,
} from "@ai-sdk/provider";
import { appendAll } from "../shared/values.js";
import { COMPACT_REQUEST_HEAD, isSummaryMark } from "./compact-prompt.js";
import { scriptedSummary } from "./scripted-summary.js";

/** A tool call written in a prompt as `/tool <Name> <json>`; `input` is the raw text after the name. */
export interface ScriptedToolCall {
  toolName: string;
  input: string;
}

/** What one user message asks of the scripted model: tool calls, and lines to answer plainly. */
export interface ParsedLines {
  calls: ScriptedToolCall[];
  plain: string[];
}

/** What the scripted model says in one step: text first, then the tool calls. */
export interface ScriptedReply {
  text: string;
  calls: ScriptedToolCall[];
}

const TOOL_LINE = /^\/tool(?:\s+(\S+)(?:\s+(.*))?)?$/;
const USAGE = "Usage: /tool <Name> <json>";
const SUMMARY_CHARS = 160;

/**
 * Splits a prompt text into `/tool <Name> <json>` lines and other non-empty lines, in order.
 * The input is kept verbatim (even if it is not JSON: the agent loop reports bad arguments);
 * a missing input means `{}`.
 */
export function parseToolLines(text: string): ParsedLines {
  const calls: ScriptedToolCall[] = [];
  const plain: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "") continue;
    const match = TOOL_LINE.exec(line);
    if (match === null) {
      plain.push(line);
    } else if (match[1] === undefined) {
      plain.push(USAGE);
    } else {
      calls.push({ toolName: match[1], input: match[2]?.trim() || "{}" });
    }
  }
  return { calls, plain };
}

/**
 * Decides the reply for one step. After a user message: answer its plain lines, then make its
 * tool calls. After tool results: report them and make no calls, so a turn always ends.
 * Only the user's own words count: text that hooks added around the prompt (marked messages or
 * parts, `<hook-context>`, `<hook-feedback>` and `<system-reminder>` blocks), before or after
 * it, in the same message or beside it, is never read as a line of the prompt.
 */
export function planReply(prompt: LanguageModelV3Prompt): ScriptedReply {
  // Hook text placed after tool results (Claude Code's `<system-reminder>` blocks) belongs
  // to those results: the model still answers the results, never the hook's words.
  let end = prompt.length;
  while (end > 0 && isHookText(prompt[end - 1])) end--;
  if (end < prompt.length && prompt[end - 1]?.role === "tool") prompt = prompt.slice(0, end);
  const last = prompt.at(-1);
  if (last?.role === "user") {
    const { own, hookText } = userTurnText(prompt);
    if (own.startsWith(COMPACT_REQUEST_HEAD)) return { text: scriptedSummary(prompt), calls: [] };
    const answers = answerLines(own);
    if (answers !== undefined) return { text: answers, calls: [] };
    const { calls, plain } = parseToolLines(own);
    const answer = plain.map((line) => (line === USAGE ? line : `You said: ${line}`)).join("\n");
    if (answer !== "" || calls.length > 0) return { text: answer, calls };
    if (hookText !== "") return { text: `A hook said: ${summarize(hookText)}`, calls };
    return { text: "I received an empty prompt.", calls };
  }
  if (last?.role === "tool") {
    return { text: reportToolResults(trailingToolResults(prompt)), calls: [] };
  }
  return { text: "There is nothing for me to answer.", calls: [] };
}

/**
 * `/answer <text>` lines: the reply is their text alone, verbatim, so a `prompt` hook's
 * question (or any test) can script the model's exact answer, e.g.
 * `/answer {"ok": false, "reason": "no network"}`. Undefined when there is none.
 */
function answerLines(text: string): string | undefined {
  const answers = text
    .split(/\r?\n/)
    .map((line) => /^\s*\/answer(?:\s(.*))?$/.exec(line))
    .filter((match) => match !== null)
    .map((match) => match[1]?.trim() ?? "");
  return answers.length > 0 ? answers.join("\n") : undefined;
}

/** A user-role message that a hook's text was put in (marked so by the session). */
function isHookText(message: LanguageModelV3Prompt[number] | undefined): boolean {
  return message?.role === "user" && isHookMarked(message.providerOptions);
}

type UserMessage = Extract<LanguageModelV3Prompt[number], { role: "user" }>;

// Blocks hookgate (and Claude Code) wrap hook-provided text in; a whole block is hook text.
const HOOK_BLOCK = /<(hook-context|hook-feedback|system-reminder)(?:\s[^>]*)?>[\s\S]*?<\/\1>/g;

/**
 * The text of the trailing user messages (the prompt and whatever hooks put beside it), split
 * into the user's own words and the hook-provided text.
 */
function userTurnText(prompt: LanguageModelV3Prompt): { own: string; hookText: string } {
  const own: string[] = [];
  const hooks: string[] = [];
  for (const message of prompt.slice(trailingStart(prompt, "user"))) {
    // A compaction's summary opens the conversation: it is no part of the prompt.
    if (message.role !== "user" || isSummaryMark(message.providerOptions)) continue;
    const { own: mine, hooks: theirs } = splitUserMessage(message);
    appendAll(own, mine);
    appendAll(hooks, theirs);
  }
  return { own: own.join("\n"), hookText: hooks.join("\n") };
}

function splitUserMessage(message: UserMessage): { own: string[]; hooks: string[] } {
  const own: string[] = [];
  const hooks: string[] = [];
  const markedMessage = isHookMarked(message.providerOptions);
  for (const part of message.content) {
    if (part.type !== "text") continue;
    if (markedMessage || isHookMarked(part.providerOptions)) {
      hooks.push(unwrapBlocks(part.text));
      continue;
    }
    for (const block of part.text.match(HOOK_BLOCK) ?? []) hooks.push(unwrapBlocks(block));
    own.push(part.text.replace(HOOK_BLOCK, ""));
  }
  return { own, hooks: hooks.filter((h) => h !== "") };
}

/** hookgate marks hook-provided messages (and parts) in its own provider options. */
function isHookMarked(options: unknown): boolean {
  if (typeof options !== "object" || options === null || !("hookgate" in options)) return false;
  const mark = options.hookgate;
  return typeof mark === "object" && mark !== null && "hookContext" in mark;
}

/** The text inside hook blocks, without their tags. */
function unwrapBlocks(text: string): string {
  return text
    .replace(/<\/?(?:hook-context|hook-feedback|system-reminder)(?:\s[^>]*)?>/g, "")
    .trim();
}

/** The tool results of the last step, which may be spread over several consecutive tool messages. */
function trailingToolResults(prompt: LanguageModelV3Prompt): LanguageModelV3ToolResultPart[] {
  const results: LanguageModelV3ToolResultPart[] = [];
  for (const message of prompt.slice(trailingStart(prompt, "tool"))) {
    if (message.role !== "tool") continue;
    appendAll(
      results,
      message.content.filter((part) => part.type === "tool-result"),
    );
  }
  return results;
}

/** Where the run of messages of `role` at the end of the prompt starts. */
function trailingStart(prompt: LanguageModelV3Prompt, role: "user" | "tool"): number {
  let start = prompt.length;
  while (start > 0 && prompt[start - 1]?.role === role) start--;
  return start;
}

function reportToolResults(results: LanguageModelV3ToolResultPart[]): string {
  if (results.length === 0) return "No tool results came back.";
  return results.map(describeResult).join("\n");
}

/** One line per result: the tool, and whether it succeeded, failed or was denied. */
function describeResult(part: LanguageModelV3ToolResultPart): string {
  const { output, toolName } = part;
  const text = withoutTrailingReminders(outputText(output));
  if (output.type === "execution-denied") {
    return `${toolName} was denied: "${summarize(output.reason ?? "no reason given")}"`;
  }
  const isError = output.type === "error-text" || output.type === "error-json";
  // A hook denial reaches the model as a tool error; only errors are searched for "denied",
  // so a successful Read of a file that happens to contain the word is not misreported.
  if (text.startsWith("Hook denied") || (isError && /denied/i.test(text))) {
    const reason = text.replace(/^Hook denied:?\s*/, "");
    return `${toolName} was denied: "${summarize(reason || text)}"`;
  }
  if (isError) return `${toolName} failed: ${summarize(text) || "no error message"}`;
  return `${toolName} succeeded: ${summarize(text) || "(no output)"}`;
}

// Hook text Claude Code appends to a tool result: it is the hooks', not the tool's output.
const TRAILING_REMINDERS = /(?:\n\n<system-reminder>\n[\s\S]*?\n<\/system-reminder>)+$/;

function withoutTrailingReminders(text: string): string {
  return text.replace(TRAILING_REMINDERS, "");
}

/** The text a tool result carries, whatever its output kind. */
export function outputText(output: LanguageModelV3ToolResultOutput): string {
  switch (output.type) {
    case "text":
    case "error-text":
      return output.value;
    case "json":
    case "error-json":
      return typeof output.value === "string" ? output.value : JSON.stringify(output.value);
    case "execution-denied":
      return output.reason ?? "";
    case "content":
      return output.value
        .map((item) => (item.type === "text" ? item.text : `[${item.type}]`))
        .join("\n");
  }
}

/** The first line, cut to a readable length. */
function summarize(text: string): string {
  const lines = text.trim().split(/\r?\n/);
  const first = lines[0] ?? "";
  const more = lines.length > 1 ? ` (+${lines.length - 1} more lines)` : "";
  const cut = first.length > SUMMARY_CHARS ? `${first.slice(0, SUMMARY_CHARS)}…` : first;
  return cut + more;
}
