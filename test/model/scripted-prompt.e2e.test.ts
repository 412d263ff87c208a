import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { describe, expect, it, onTestFinished } from "vitest";
import {
  makeWorkspace,
  removeWorkspace,
  spawnAgent,
  toolLine,
} from "../../src/client/kit/index.js";
import { planReply } from "../../src/model/scripted-reply.js";

const BASH = toolLine("Bash", { command: "echo hi" });
const CONTEXT = '<hook-context event="UserPromptSubmit" hook="ctx">\nuse pnpm\n</hook-context>';
const REMINDER =
  "<system-reminder>\nUserPromptSubmit hook additional context: use pnpm\n</system-reminder>";
const mark = { hookgate: { hookContext: { event: "UserPromptSubmit", hookCallbackIds: ["ctx"] } } };

function user(...texts: string[]): LanguageModelV3Prompt[number] {
  return { role: "user", content: texts.map((text) => ({ type: "text" as const, text })) };
}

describe("the scripted model reads the user's own prompt, whatever hooks added around it", () => {
  const placements: [string, LanguageModelV3Prompt][] = [
    [
      "context as a marked message after the prompt",
      [user(BASH), { ...user(CONTEXT), providerOptions: mark }],
    ],
    ["context as an unmarked hook-context message after the prompt", [user(BASH), user(CONTEXT)]],
    ["a system-reminder message before the prompt", [user(REMINDER), user(BASH)]],
    ["a system-reminder part before the prompt in one message", [user(REMINDER, BASH)]],
    [
      "a marked part before the prompt in one message",
      [
        {
          role: "user",
          content: [
            { type: "text", text: "use pnpm", providerOptions: mark },
            { type: "text", text: BASH },
          ],
        },
      ],
    ],
    ["a system-reminder block in the same text as the prompt", [user(`${REMINDER}\n${BASH}`)]],
  ];
  it.each(placements)(
    "%s: the /tool line is a call and the hook text is not echoed",
    (_, prompt) => {
      const reply = planReply(prompt);
      expect(reply.calls).toEqual([{ toolName: "Bash", input: '{"command":"echo hi"}' }]);
      expect(reply.text).toBe("");
    },
  );

  it("a prompt made only of hook text (a Stop hook's feedback) makes no call and says what the hook said", () => {
    const feedback =
      '<hook-feedback event="Stop" hook="again">\nKEEP-GOING: run the tests\n</hook-feedback>';
    const reply = planReply([
      user("hi"),
      { role: "assistant", content: [{ type: "text", text: "You said: hi" }] },
      user(feedback),
    ]);
    expect(reply).toEqual({ text: "A hook said: KEEP-GOING: run the tests", calls: [] });
  });

  it("a context-adding UserPromptSubmit hook plus a /tool Bash line still runs the gate", async () => {
    const cwd = makeWorkspace();
    onTestFinished(() => removeWorkspace(cwd));
    const settings = join(cwd, "settings.json");
    writeFileSync(
      settings,
      JSON.stringify({
        hooks: {
          UserPromptSubmit: [
            { hooks: [{ type: "command", command: "echo 'the build uses pnpm'" }] },
          ],
          PreToolUse: [
            {
              matcher: "Bash",
              hooks: [{ type: "command", command: "echo 'no shell here' >&2; exit 2" }],
            },
          ],
        },
      }),
    );
    const run = await spawnAgent({ cwd, args: ["--settings", settings], prompt: BASH });
    expect(run.toolCalls).toMatchObject([
      { status: "failed", hooks: [{ kind: "command", outcome: "denied" }] },
    ]);
    expect(run.agentText).toMatch(/Bash was denied: ".*no shell here"/);
    expect(run.agentText).not.toMatch(/You said/);
  });
});
