import { describe, expect, it } from "vitest";
import { buildHookInput } from "../../src/hooks/input.js";
import { eventRow, HOOK_EVENTS } from "../../src/wire/events.js";

const common = {
  session_id: "s1",
  transcript_path: "/tmp/t.jsonl",
  cwd: "/tmp",
  permission_mode: "default",
  prompt_id: "p1",
};

describe("a hook's input", () => {
  it("has no prompt_id on the events that come before any prompt, as their rows say", () => {
    expect(HOOK_EVENTS.filter((e) => eventRow(e).beforePrompt)).toEqual([
      "SessionStart",
      "InstructionsLoaded",
    ]);
    const start = buildHookInput(common, "SessionStart", { source: "startup" }, Infinity);
    expect(start).not.toHaveProperty("prompt_id");
    const stop = buildHookInput(
      common,
      "Stop",
      {
        stop_hook_active: false,
        stop_reason: "end_turn",
        last_assistant_message: "",
        background_tasks: [],
        session_crons: [],
      },
      Infinity,
    );
    expect(stop).toMatchObject({ prompt_id: "p1", hook_event_name: "Stop" });
  });
});
