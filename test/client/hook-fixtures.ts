import type { PreToolUseCallback } from "../../src/client/index.js";

/** A PreToolUse input for a Bash call, as the agent sends it. */
export const bashInput = {
  session_id: "s1",
  transcript_path: "",
  cwd: "/",
  hook_event_name: "PreToolUse",
  permission_mode: "default",
  tool_name: "Bash",
  tool_input: { command: "rm -rf /" },
  tool_use_id: "call-1",
};

/** A gate callback that never answers, and whether its signal has aborted. */
export function hangingCallback(): { callback: PreToolUseCallback; aborted: () => boolean } {
  let aborted = false;
  return {
    callback: (_input, _id, { signal }) =>
      new Promise(() => signal.addEventListener("abort", () => (aborted = true))),
    aborted: () => aborted,
  };
}
