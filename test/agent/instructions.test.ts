import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { LanguageModelV3, LanguageModelV3CallOptions } from "@ai-sdk/provider";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { createScriptedModel } from "../../src/model/scripted.js";
import { commands } from "../helpers/slash.js";
import { waitUntil } from "../helpers/wait.js";
import { startInProcess, type ClientScript, type Session } from "./setup.js";
import { chunks } from "../helpers/updates.js";

let s: Session | undefined;
let root: string | undefined;
afterEach(async () => {
  await s?.h.close();
  if (root) rmSync(root, { recursive: true, force: true });
  s = undefined;
  root = undefined;
});

/** The scripted model, recording the prompt of every request. */
function recordingModel() {
  const scripted = createScriptedModel();
  const prompts: LanguageModelV3CallOptions["prompt"][] = [];
  const model: LanguageModelV3 = {
    specificationVersion: "v3",
    provider: scripted.provider,
    modelId: scripted.modelId,
    supportedUrls: {},
    doGenerate: (options) => scripted.doGenerate(options),
    doStream: (options) => {
      prompts.push(options.prompt);
      return scripted.doStream(options);
    },
  };
  return { model, prompts };
}

/** The texts of the user-role messages of one request, in order. */
const userTexts = (prompt: LanguageModelV3CallOptions["prompt"]) =>
  prompt.flatMap((m) =>
    m.role === "user" ? m.content.flatMap((p) => (p.type === "text" ? [p.text] : [])) : [],
  );

/** An agent whose HOME and workspace hold `files` (paths from a temp root: `home/…`, `work/…`). */
async function start(files: Record<string, string>, script: ClientScript = {}, extra = {}) {
  root = mkdtempSync(join(tmpdir(), "hookgate-instr-agent-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const cwd = join(root, "work");
  mkdirSync(cwd, { recursive: true });
  const { model, prompts } = recordingModel();
  s = await startInProcess(script, { model, home: join(root, "home"), ...extra });
  return { s, cwd, prompts };
}

describe("project instructions", () => {
  it("reach the model once, right before the first prompt, and fire InstructionsLoaded per file", async () => {
    const { s, cwd, prompts } = await start({
      "home/.claude/CLAUDE.md": "USER-RULE",
      "work/CLAUDE.md": "PROJECT-RULE @more.md",
      "work/more.md": "IMPORTED-RULE",
    });
    const hooks = { InstructionsLoaded: [{ hookCallbackIds: ["seen"] }] };
    const { sessionId } = await s.newSession({ hooks }, cwd);
    await s.prompt(sessionId, "hello");
    await s.prompt(sessionId, "again");

    const first = userTexts(prompts[0] ?? []);
    expect(first.at(-1)).toBe("hello");
    const reminder = first.at(-2) ?? "";
    expect(reminder).toMatch(/^<system-reminder>\nCodebase and user instructions are shown below/);
    expect(reminder).toContain(
      `Contents of ${join(root!, "home/.claude/CLAUDE.md")} (user's private global instructions for all projects):\n\nUSER-RULE`,
    );
    expect(reminder.indexOf("PROJECT-RULE")).toBeLessThan(reminder.indexOf("IMPORTED-RULE"));
    const second = userTexts(prompts.at(-1) ?? []);
    expect(second.filter((t) => t.includes("USER-RULE"))).toHaveLength(1);

    await waitUntil("three InstructionsLoaded events", () => s.seen.events.length === 3);
    const inputs = s.seen.events.map((e) => e.input as Record<string, unknown>);
    expect(inputs.map((i) => [i.memory_type, i.load_reason, i.parent_file_path])).toEqual([
      ["User", "session_start", undefined],
      ["Project", "session_start", undefined],
      ["Project", "include", join(cwd, "CLAUDE.md")],
    ]);
    expect(inputs[0]).not.toHaveProperty("prompt_id");
  });

  it("are not read from a place instructionSources leaves out", async () => {
    const { s, cwd, prompts } = await start(
      { "home/.claude/CLAUDE.md": "USER-RULE", "work/CLAUDE.md": "PROJECT-RULE" },
      {},
      { instructionSources: ["user"] },
    );
    const { sessionId } = await s.newSession(undefined, cwd);
    await s.prompt(sessionId, "hello");
    const text = userTexts(prompts[0] ?? []).join("\n");
    expect(text).toContain("USER-RULE");
    expect(text).not.toContain("PROJECT-RULE");
  });
});

const advertised = (updates: SessionUpdate[]) =>
  updates.flatMap((u) => (u.sessionUpdate === "available_commands_update" ? [u] : []));

describe("custom commands", () => {
  const REVIEW = "---\ndescription: Review a file\nargument-hint: <file>\n---\nReview $0 now.\n";

  it("are advertised after the config's commands and the built-in /compact, one a config command shadows left out", async () => {
    const { s, cwd } = await start(
      { "work/.claude/commands/review.md": REVIEW, "home/.claude/commands/report.md": "Report" },
      {},
      { commands: commands({ report: "./report.sh" }) },
    );
    const { sessionId } = await s.newSession(undefined, cwd);
    await waitUntil(
      "the commands advertised",
      () => advertised(s.h.sessionUpdates(sessionId)).length === 1,
    );
    expect(advertised(s.h.sessionUpdates(sessionId))[0]?.availableCommands).toEqual([
      { name: "report", description: "./report.sh" },
      expect.objectContaining({ name: "compact" }),
      { name: "review", description: "Review a file", input: { hint: "<file>" } },
    ]);
  });

  it("expand into the prompt the model reads, after UserPromptExpansion hooks saw it", async () => {
    const { s, cwd, prompts } = await start({ "work/.claude/commands/review.md": REVIEW });
    const hooks = { UserPromptExpansion: [{ matcher: "review", hookCallbackIds: ["seen"] }] };
    const { sessionId } = await s.newSession({ hooks }, cwd);
    expect(await s.prompt(sessionId, "/review a.txt")).toBe("end_turn");
    expect(userTexts(prompts[0] ?? []).slice(-2)).toEqual([
      "<command-message>review</command-message>\n<command-name>/review</command-name>\n<command-args>a.txt</command-args>\n",
      "Review a.txt now.\n",
    ]);
    await waitUntil("the UserPromptExpansion event", () => s.seen.events.length === 1);
    expect(s.seen.events[0]?.input).toMatchObject({
      hook_event_name: "UserPromptExpansion",
      expansion_type: "slash_command",
      command_name: "review",
      command_args: "a.txt",
      command_source: "projectSettings",
      prompt: "/review a.txt",
    });
  });

  it("blocked by a UserPromptExpansion hook never reach the model, and the user reads why", async () => {
    const { s, cwd, prompts } = await start(
      { "work/.claude/commands/review.md": REVIEW },
      { hooks: { gate: () => ({ decision: "block", reason: "no reviews today" }) } },
    );
    const hooks = { UserPromptExpansion: [{ hookCallbackIds: ["gate"], blocking: true }] };
    const { sessionId } = await s.newSession({ hooks }, cwd);
    expect(await s.prompt(sessionId, "/review a.txt")).toBe("end_turn");
    expect(prompts).toHaveLength(0);
    const said = chunks(s.h.sessionUpdates(sessionId), "agent_message_chunk");
    expect(said).toContain(
      "UserPromptExpansion operation blocked by hook:\nno reviews today\n\nOriginal prompt: /review a.txt",
    );
  });
});
