import { steersOf } from "../../wire/events.js";
import { foldToolOutput } from "./tool-output.js";
import { ownModule } from "./steering-module.js";

const { policy } = steersOf("PostToolUse");

/**
 * PostToolUse: asked hooks may replace what the model sees (in registration order), add a
 * block reason beside it, or add context; a fail-closed failure withholds the output.
 */
export const postToolUse = ownModule("PostToolUse", (input) =>
  foldToolOutput("PostToolUse", policy, input),
);
