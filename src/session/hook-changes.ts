import { randomUUID } from "node:crypto";
import type { ClientPort } from "../shared/port.js";

/**
 * Asks the user whether a session opening again applies hook configuration changed since it
 * started (`session/request_permission`); true only for an explicit "apply". Until then the
 * session runs the hooks it started with, so a hook file the model wrote never runs unseen.
 */
export async function askToApplyHookChanges(
  client: ClientPort,
  changed: readonly string[],
): Promise<boolean> {
  const response = await client.requestPermission(
    {
      toolCall: {
        toolCallId: `hook-config-${randomUUID()}`,
        title: `Apply changed hook configuration: ${changed.join(", ")}`,
        kind: "other",
        status: "pending",
        rawInput: { changedFiles: [...changed] },
        content: [
          {
            type: "content",
            content: {
              type: "text",
              text:
                "These hook configuration files changed since this session started. Their " +
                "hooks run only if you apply the change; otherwise the session keeps the " +
                "hooks it started with.",
            },
          },
        ],
      },
      options: [
        { optionId: "apply", name: "Apply the changed hooks", kind: "allow_once" },
        { optionId: "keep", name: "Keep the session's hooks", kind: "reject_once" },
      ],
    },
    new AbortController().signal,
  );
  return response.outcome.outcome === "selected" && response.outcome.optionId === "apply";
}

/** What the user is told (warning and agent message) about hook files changed since the start. */
export function hookChangeNotice(changed: readonly string[], applied: boolean): string {
  const files = changed.join(", ");
  return applied
    ? `Hook configuration changed since this session started (${files}); the change was accepted and its hooks apply.`
    : `Hook configuration changed since this session started (${files}); its new or changed hooks do not run: the session keeps the hooks it started with until the change is accepted.`;
}
