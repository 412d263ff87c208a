import { describe, expect, it } from "vitest";
import { planReply } from "../../src/model/scripted-reply.js";

const user = (text: string) => [
  { role: "user" as const, content: [{ type: "text" as const, text }] },
];

describe("the scripted model's /answer lines", () => {
  it("are answered verbatim and alone, so a prompt hook's verdict is scripted offline", () => {
    const text = 'Block curl.\n/answer {"ok": false, "reason": "curl"}\n{"tool_name":"Bash"}';
    expect(planReply(user(text))).toEqual({ text: '{"ok": false, "reason": "curl"}', calls: [] });
  });

  it("win over /tool lines in the same message", () => {
    expect(planReply(user('/tool Bash {"command":"ls"}\n/answer done'))).toEqual({
      text: "done",
      calls: [],
    });
  });
});
