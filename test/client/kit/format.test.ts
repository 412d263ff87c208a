import { describe, expect, it } from "vitest";
import { formatTimeline } from "../../../src/client/kit/format.js";
import type { TimelineEntry } from "../../../src/client/kit/timeline.js";
import type { HookInput } from "../../../src/client/types.js";
import { eventRow, HOOK_EVENTS } from "../../../src/wire/events.js";

const common = {
  session_id: "s1",
  transcript_path: "/tmp/t.jsonl",
  cwd: "/tmp",
  permission_mode: "default",
};

/** The one line an observed event gets in a timeline. */
function eventLine(input: HookInput): string {
  const entry: TimelineEntry = {
    at: 5,
    type: "event",
    event: { hookCallbackId: "cb", event: input.hook_event_name, input },
  };
  return formatTimeline([entry]);
}

describe("an observed event's line in a timeline", () => {
  it("shows the fields its row of the event table names, in order, after the event's name", () => {
    expect(eventLine({ ...common, hook_event_name: "SessionStart", source: "startup" })).toMatch(
      /event +SessionStart startup → cb$/,
    );
    expect(
      eventLine({
        ...common,
        hook_event_name: "PostToolUseFailure",
        tool_name: "Bash",
        tool_input: { command: "false" },
        tool_use_id: "call-1",
        error: "exit 1\nmore",
        is_interrupt: false,
        duration_ms: 3,
      }),
    ).toMatch(/event +PostToolUseFailure Bash call-1 exit 1 \(\+1 lines\) → cb$/);
  });

  it("counts a list, and leaves out a field the input does not carry", () => {
    const call = { tool_name: "Read", tool_input: {}, tool_use_id: "c" };
    expect(
      eventLine({ ...common, hook_event_name: "PostToolBatch", tool_calls: [call, call] }),
    ).toMatch(/event +PostToolBatch 2 tool_calls → cb$/);
    expect(
      eventLine({ ...common, hook_event_name: "ConfigChange", source: "user_settings" }),
    ).toMatch(/event +ConfigChange user_settings → cb$/);
  });

  it("is read from the table for every event: each summary field's value shows", () => {
    for (const event of HOOK_EVENTS) {
      const { summary } = eventRow(event);
      const values = Object.fromEntries(summary.map((field) => [field, `<${field}>`]));
      // A made-up input: only the summary's fields, each a marker string.
      const input = { ...common, hook_event_name: event, ...values } as unknown as HookInput;
      expect(eventLine(input), event).toContain(
        `${event} ${summary.map((f) => `<${f}>`).join(" ")} → cb`,
      );
    }
  });
});
