import { ELICITATION_POLICY, foldElicitation } from "./elicitation.js";
import type { EventModule } from "./types.js";

/**
 * ElicitationResult: the answer to an elicitation (the user's, or the decline when nobody could
 * be asked), before it goes back to the MCP server; a hook may change it as on Elicitation (a
 * new `action`, `content` kept from the answer when the hook gives none), a block declines.
 */
export const elicitationResult = {
  name: "ElicitationResult",
  policy: ELICITATION_POLICY,
  honours: [
    "hookSpecificOutput.action",
    "hookSpecificOutput.content",
    "decision",
    "reason",
    "systemMessage",
  ],
  fold: (input) => foldElicitation("ElicitationResult", input),
} as const satisfies EventModule<"ElicitationResult">;
