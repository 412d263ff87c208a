import { steersOf } from "../../wire/events.js";
import { foldToolOutput } from "./tool-output.js";
import { ownModule } from "./steering-module.js";

const { policy } = steersOf("PostToolUseFailure");

/** PostToolUseFailure: as PostToolUse, for the error text the model reads. */
export const postToolUseFailure = ownModule("PostToolUseFailure", (input) =>
  foldToolOutput("PostToolUseFailure", policy, input),
);
