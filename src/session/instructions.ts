import type { ModelMessage } from "ai";
import type { SessionHooks } from "../hooks/session-hooks.js";
import type { InstructionFile } from "../instructions/load.js";
import { instructionsText } from "../instructions/render.js";
import type { LoadReason } from "../wire/event-fields.js";
import { instructionsMessage } from "./hook-context.js";

/**
 * InstructionsLoaded, once per instruction file, in load order: `session_start` for a file
 * read for itself, `include` for one an `@path` import brought (with its `parent_file_path`).
 * The matcher selects on `load_reason`, as in Claude Code.
 */
export function announceInstructions(hooks: SessionHooks, files: readonly InstructionFile[]): void {
  for (const file of files) {
    const reason: LoadReason = file.parent === undefined ? "session_start" : "include";
    hooks.emit("InstructionsLoaded", () => ({
      file_path: file.path,
      memory_type: file.type,
      load_reason: reason,
      ...(file.parent !== undefined && { parent_file_path: file.parent }),
    }));
  }
}

/** What the model reads of the instruction files: one reminder message, or none. */
export function instructionMessages(files: readonly InstructionFile[]): ModelMessage[] {
  return instructionsMessage(instructionsText(files));
}
