import type { LanguageModel } from "ai";
import { createScriptedModel } from "./scripted.js";

/** Settings that pick and reach a model. */
export interface ModelSettings {
  /** `scripted`, or `provider:model-id`. */
  readonly model: string;
}

/** Thrown for a model spec the user must fix; the CLI prints it and exits 2. */
export class ModelConfigError extends Error {}

/** Resolves `--model` to a LanguageModel. */
export function resolveModel(settings: ModelSettings): LanguageModel {
  if (settings.model === "scripted") return createScriptedModel();
  throw new ModelConfigError(
    `unknown model ${JSON.stringify(settings.model)}: use "scripted" or provider:model-id`,
  );
}
