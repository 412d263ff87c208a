import { describe, expect, it } from "vitest";
import {
  EVENT_TABLE,
  hasMatcher,
  HOOK_EVENTS,
  matcherField,
  TOOL_EVENTS,
} from "../../src/wire/events.js";
import { hookInputSchemas } from "../../src/wire/hook-input.js";

const common = {
  session_id: "s1",
  transcript_path: "/tmp/t.jsonl",
  cwd: "/tmp",
  permission_mode: "default",
};

describe("the event table: one row per event, everything else read from it", () => {
  it("lists the events in the table's order", () => {
    expect(HOOK_EVENTS).toEqual(Object.keys(EVENT_TABLE));
    expect(HOOK_EVENTS.slice(0, 3)).toEqual(["PreToolUse", "PostToolUse", "PostToolUseFailure"]);
  });

  it("tool events are the events whose matcher selects on tool_name", () => {
    expect([...TOOL_EVENTS]).toEqual([
      "PreToolUse",
      "PostToolUse",
      "PostToolUseFailure",
      "PermissionRequest",
      "PermissionDenied",
    ]);
  });

  it("names the input field each event's matcher is tested against, none where it is ignored", () => {
    const fields = Object.fromEntries(
      HOOK_EVENTS.filter((e) => !TOOL_EVENTS.has(e)).map((e) => [e, matcherField(e)]),
    );
    expect(fields).toEqual({
      UserPromptSubmit: undefined,
      Notification: "notification_type",
      Stop: undefined,
      SessionStart: "source",
      SessionEnd: "reason",
      PreCompact: "trigger",
      UserPromptExpansion: "command_name",
      InstructionsLoaded: "load_reason",
      PostToolBatch: undefined,
      StopFailure: "error",
      FileChanged: "file_path",
      PostCompact: "trigger",
      PreModelSwitch: "to_model",
      PostModelSwitch: "to_model",
      Elicitation: "mcp_server_name",
      ElicitationResult: "mcp_server_name",
      ConfigChange: "source",
    });
    expect(HOOK_EVENTS.filter((e) => !hasMatcher(e))).toEqual([
      "UserPromptSubmit",
      "Stop",
      "PostToolBatch",
    ]);
  });

  it("builds each event's input schema from its row: its fields are required, its name fixed", () => {
    const input = { ...common, hook_event_name: "SessionEnd", reason: "other" };
    expect(hookInputSchemas.SessionEnd.parse(input)).toEqual(input);
    expect(() => hookInputSchemas.SessionEnd.parse({ ...input, reason: undefined })).toThrow(
      /reason/,
    );
    expect(() => hookInputSchemas.Stop.parse(input)).toThrow(/hook_event_name/);
  });
});
