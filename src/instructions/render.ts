import type { MemoryType } from "../wire/event-fields.js";

export type { MemoryType } from "../wire/event-fields.js";

const PREAMBLE =
  "Codebase and user instructions are shown below. Be sure to adhere to these instructions. IMPORTANT: These instructions OVERRIDE any default behavior and you MUST follow them exactly as written.";

const KIND: Readonly<Record<MemoryType, string>> = {
  User: "user's private global instructions for all projects",
  Project: "project instructions, checked into the codebase",
  Local: "user's private project instructions, not checked in",
  Managed: "organization-managed policy instructions",
};

/**
 * The instructions as Claude Code words them for the model (its `claudeMd` context): the
 * preamble, then each file as `Contents of <path> (<kind>):` and its trimmed text. "" for none.
 */
export function instructionsText(
  files: readonly { path: string; type: MemoryType; content: string }[],
): string {
  if (files.length === 0) return "";
  const parts = files.map((f) => `Contents of ${f.path} (${KIND[f.type]}):\n\n${f.content.trim()}`);
  return `${PREAMBLE}\n\n${parts.join("\n\n")}`;
}
