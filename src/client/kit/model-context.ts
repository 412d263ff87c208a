import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { modelMessageSchema, type ModelMessage } from "ai";
import { sessionsDir } from "../../store/data-dir.js";

/**
 * Every text the model was given in a session, in order, read back from the session's
 * transcript in `dataDir`: the prompts, hook-provided context (marked as such) and tool
 * results. Empty when nothing was written.
 */
export async function readModelContext(dataDir: string, sessionId: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(join(sessionsDir(dataDir), `${sessionId}.jsonl`), "utf8");
  } catch {
    return [];
  }
  return text.split("\n").flatMap((line) => {
    const message = messageOf(line);
    return message && message.role !== "assistant" ? textsOf(message) : [];
  });
}

function messageOf(line: string): ModelMessage | undefined {
  if (line.trim() === "") return undefined;
  try {
    const parsed: unknown = JSON.parse(line);
    if (typeof parsed !== "object" || parsed === null || !("modelMessage" in parsed)) {
      return undefined;
    }
    const message = modelMessageSchema.safeParse(parsed.modelMessage);
    return message.success ? message.data : undefined;
  } catch {
    return undefined;
  }
}

function textsOf(message: ModelMessage): string[] {
  if (typeof message.content === "string") return [message.content];
  return message.content.flatMap((part): string[] => {
    if (part.type === "text") return [part.text];
    if (part.type !== "tool-result") return [];
    const output = part.output;
    switch (output.type) {
      case "text":
      case "error-text":
        return [output.value];
      case "json":
      case "error-json":
        return [JSON.stringify(output.value)];
      case "content":
        return output.value.flatMap((item) => (item.type === "text" ? [item.text] : []));
      default:
        return [];
    }
  });
}
