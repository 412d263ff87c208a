import { steersOf } from "../../wire/events.js";
import { denyReason, type Outcome } from "../outcome.js";
import { blocksUnder, foldTogether, settledOf } from "./rules.js";
import { ownModule } from "./steering-module.js";
import type { Decision, FoldInput, PermissionAnswer } from "./types.js";

const { policy } = steersOf("PermissionRequest");

/**
 * PermissionRequest: hooks may answer the prompt instead of the user. The first deny (or
 * fail-closed failure) wins, else the first allow in registration order; nothing when no
 * hook answered.
 */
function fold(input: FoldInput): Decision {
  const together = foldTogether("PermissionRequest", policy, input);
  const blocker =
    input.end !== "cancelled" && input.end && !input.end.result?.stop ? input.end : undefined;
  const permission = answerOf(settledOf(input.outcomes), blocker);
  return permission ? { ...together, permission } : together;
}

function answerOf(
  settled: readonly Outcome[],
  blocker: Outcome | undefined,
): PermissionAnswer | undefined {
  if (blocker && blocksUnder(blocker, policy)) {
    const answer = blocker.result?.permissionRequest;
    return {
      behavior: "deny",
      hookCallbackId: blocker.handler.id,
      message: answer?.message ?? denyReason(blocker),
      ...(answer?.interrupt === true && { interrupt: true }),
    };
  }
  const allowing = settled.find(
    (o) => o.label === "proceeded" && o.result?.permissionRequest?.behavior === "allow",
  );
  const updatedInput = allowing?.result?.permissionRequest?.updatedInput;
  const updatedPermissions = allowing?.result?.permissionRequest?.updatedPermissions;
  return (
    allowing && {
      behavior: "allow",
      hookCallbackId: allowing.handler.id,
      ...(updatedInput && { updatedInput }),
      ...(updatedPermissions && { updatedPermissions }),
    }
  );
}

export const permissionRequest = ownModule("PermissionRequest", fold);
