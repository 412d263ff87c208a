// Scenarios of project instructions (CLAUDE.md files, `@path` imports, InstructionsLoaded) and
// custom commands (`.claude/commands/*.md`, UserPromptExpansion).

const done = { text: "Finished." };
const on = (event, matcher, ...actions) => ({ [event]: [{ matcher, hooks: actions }] });
const MD_MARKERS = [
  "USER-MD-1",
  "PARENT-MD-1",
  "PROJECT-MD-1",
  "IMPORTED-MD-1",
  "DOT-CLAUDE-MD-1",
  "LOCAL-MD-1",
];
const REVIEW =
  "---\ndescription: Review a file\nargument-hint: <file> <focus>\n---\nREVIEW-CMD $1 then $2; all: $ARGUMENTS\n";

export const INSTRUCTION_SCENARIOS = [
  {
    name: "instructions: CLAUDE.md files reach the model",
    homeFiles: { ".claude/CLAUDE.md": "USER-MD-1\n" },
    parentFiles: { "CLAUDE.md": "PARENT-MD-1\n" },
    files: {
      "CLAUDE.md": "PROJECT-MD-1\n@docs/extra.md\n",
      "docs/extra.md": "IMPORTED-MD-1\n",
      ".claude/CLAUDE.md": "DOT-CLAUDE-MD-1\n",
      "CLAUDE.local.md": "LOCAL-MD-1\n",
    },
    hooks: on("InstructionsLoaded", undefined, {}),
    // One InstructionsLoaded per file: the model answers once all six hooks have logged.
    awaitHookLogs: MD_MARKERS.length,
    turns: [done],
    markers: MD_MARKERS,
    ordered: true,
    fields: ["InstructionsLoaded"],
    deviation: "hookgate keeps permission_mode, common to every hookgate input",
    deviates: ["fields InstructionsLoaded"],
  },
  {
    name: "instructions: InstructionsLoaded matcher include selects imports",
    files: { "CLAUDE.md": "PROJECT-MD-3 @notes.md\n", "notes.md": "NOTES-MD-3\n" },
    hooks: on("InstructionsLoaded", "include", {}),
    awaitHookLogs: 1,
    turns: [done],
    markers: ["PROJECT-MD-3", "NOTES-MD-3"],
    values: ["InstructionsLoaded.load_reason", "InstructionsLoaded.memory_type"],
  },
  {
    name: "instructions: @imports in code and outside the workspace are skipped",
    parentFiles: { "outside.md": "OUTSIDE-MD-4\n" },
    files: {
      "CLAUDE.md": "PROJECT-MD-4\n`@inline.md`\n\n```\n@fenced.md\n```\n@../outside.md\n",
      "inline.md": "INLINE-MD-4\n",
      "fenced.md": "FENCED-MD-4\n",
    },
    turns: [done],
    markers: ["PROJECT-MD-4", "INLINE-MD-4", "FENCED-MD-4", "OUTSIDE-MD-4"],
  },
  {
    name: "instructions: beside SessionStart and UserPromptSubmit context",
    files: { "CLAUDE.md": "PROJECT-MD-2\n" },
    hooks: {
      ...on("SessionStart", undefined, {
        out: {
          hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "SS-CONTEXT-9" },
        },
      }),
      ...on("UserPromptSubmit", undefined, {
        out: {
          hookSpecificOutput: {
            hookEventName: "UserPromptSubmit",
            additionalContext: "UPS-CONTEXT-9",
          },
        },
      }),
    },
    turns: [done],
    markers: ["PROJECT-MD-2", "SS-CONTEXT-9", "UPS-CONTEXT-9"],
    ordered: true,
  },
  {
    name: "commands: a project command expands into the prompt",
    files: { ".claude/commands/review.md": REVIEW },
    homeFiles: { ".claude/commands/greet.md": "GREET-CMD\n" },
    prompt: "/review a.txt speed",
    hooks: {
      ...on("UserPromptSubmit", undefined, {}),
      ...on("UserPromptExpansion", undefined, {}),
    },
    turns: [done],
    markers: ["REVIEW-CMD"],
    fields: ["UserPromptExpansion", "UserPromptSubmit"],
  },
  {
    name: "commands: a user command without placeholders gets ARGUMENTS appended",
    homeFiles: { ".claude/commands/greet.md": "GREET-CMD\n" },
    prompt: "/greet the team",
    hooks: on("UserPromptExpansion", undefined, {}),
    turns: [done],
    markers: ["GREET-CMD", "ARGUMENTS: the team"],
    values: [
      "UserPromptExpansion.command_source",
      "UserPromptExpansion.command_args",
      "UserPromptExpansion.prompt",
    ],
  },
  {
    name: "commands: UserPromptExpansion additionalContext",
    files: { ".claude/commands/review.md": REVIEW },
    prompt: "/review a.txt",
    hooks: on("UserPromptExpansion", "review", {
      out: {
        hookSpecificOutput: {
          hookEventName: "UserPromptExpansion",
          additionalContext: "UPE-CONTEXT-1",
        },
      },
    }),
    turns: [done],
    markers: ["UPE-CONTEXT-1", "REVIEW-CMD"],
    ordered: true,
  },
  {
    name: "commands: UserPromptExpansion matcher names another command",
    files: { ".claude/commands/review.md": REVIEW },
    prompt: "/review a.txt",
    hooks: on("UserPromptExpansion", "deploy", { code: 2, err: "NOT-FOR-REVIEW" }),
    turns: [done],
  },
  {
    name: "commands: UserPromptExpansion exit 2 blocks",
    files: { ".claude/commands/review.md": REVIEW },
    prompt: "/review a.txt speed",
    hooks: on("UserPromptExpansion", "review", { code: 2, err: "EXPANSION-BLOCKED" }),
    turns: [done],
  },
];
