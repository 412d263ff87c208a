import { describePlainError } from "../model/describe-error.js";
import { createScriptedModel } from "../model/scripted.js";
import type { ModelChoice } from "../session/model-switch.js";

/**
 * The models a session can switch to: the configured ones, and `scripted` always (offline,
 * no key), so every client can switch a session to a model that runs.
 */
export function modelChoices(configured: readonly ModelChoice[]): readonly ModelChoice[] {
  if (configured.some((c) => c.id === "scripted")) return configured;
  return [
    ...configured,
    { id: "scripted", model: createScriptedModel(), describeError: describePlainError },
  ];
}
