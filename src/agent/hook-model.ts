import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { HookModel } from "../hooks/command.js";

/**
 * The session's model as `prompt` hooks ask it: one request, no tools, no thinking, the
 * answer's text. A handler's own `model` is not resolved yet: the session's model answers
 * (docs/hooks.md, "`prompt` hooks").
 */
export function hookModelOf(model: LanguageModelV3): HookModel {
  return async ({ system, prompt, signal }) => {
    const result = await model.doGenerate({
      prompt: [
        { role: "system", content: system },
        { role: "user", content: [{ type: "text", text: prompt }] },
      ],
      abortSignal: signal,
    });
    return result.content
      .filter((part) => part.type === "text")
      .map((part) => part.text)
      .join("");
  };
}
