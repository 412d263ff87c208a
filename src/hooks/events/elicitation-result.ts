import { foldElicitation } from "./elicitation.js";
import { ownModule } from "./steering-module.js";

/**
 * ElicitationResult: the answer to an elicitation (the user's, or the decline when nobody could
 * be asked), before it goes back to the MCP server; a hook may change it as on Elicitation (a
 * new `action`, `content` kept from the answer when the hook gives none), a block declines.
 */
export const elicitationResult = ownModule("ElicitationResult", (input) =>
  foldElicitation("ElicitationResult", input),
);
