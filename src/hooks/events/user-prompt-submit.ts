import { steersOf } from "../../wire/events.js";
import { foldTogether, sessionFieldsOf } from "./rules.js";
import { ownModule } from "./steering-module.js";

const { policy } = steersOf("UserPromptSubmit");

/** UserPromptSubmit: a block keeps the prompt from the model; context goes beside the prompt. */
export const userPromptSubmit = ownModule("UserPromptSubmit", (input) => ({
  ...foldTogether("UserPromptSubmit", policy, input),
  ...sessionFieldsOf(input.outcomes),
}));
