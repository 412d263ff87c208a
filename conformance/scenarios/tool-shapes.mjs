// Scenarios of the built-in tools' `tool_input` and `tool_response` as hooks read them,
// field by field against Claude Code.

const done = { text: "Finished." };
const read = (file_path, extra = {}) => ({ tool: "Read", input: { file_path, ...extra } });
const all = { PreToolUse: [{ hooks: [{}] }], PostToolUse: [{ hooks: [{}] }] };
const post = { PostToolUse: [{ hooks: [{}] }] };
/** Written in this order, so the newest file is c.md. */
const TREE = { "src/a.ts": "alpha\nbeta\n", "src/b.ts": "beta\n", "c.md": "beta gamma\n" };

export const TOOL_SHAPE_SCENARIOS = [
  {
    name: "shapes: Write of a new file and of an existing one",
    files: { "old.txt": "one\ntwo\nthree\n" },
    hooks: all,
    turns: [
      { tool: "Write", input: { file_path: "$CWD/new.txt", content: "fresh\n" } },
      read("$CWD/old.txt"),
      { tool: "Write", input: { file_path: "$CWD/old.txt", content: "one\n2\nthree\n" } },
      done,
    ],
    values: ["PostToolUse.tool_response", "PreToolUse.tool_input"],
  },
  {
    name: "shapes: Edit, once and replace_all",
    files: { "e.txt": "a\nold\nb\nold\nc\n" },
    hooks: all,
    turns: [
      read("$CWD/e.txt"),
      {
        tool: "Edit",
        input: { file_path: "$CWD/e.txt", old_string: "a\nold", new_string: "a\nnew" },
      },
      {
        tool: "Edit",
        input: { file_path: "$CWD/e.txt", old_string: "old", new_string: "NEW", replace_all: true },
      },
      done,
    ],
    values: ["PostToolUse.tool_response", "PreToolUse.tool_input", "PostToolUse.tool_input"],
  },
  {
    name: "shapes: Glob",
    files: TREE,
    hooks: post,
    turns: [{ tool: "Glob", input: { pattern: "**/*.ts" } }, done],
    // Every field but durationMs, which is a measurement.
    values: ["filenames", "numFiles", "truncated", "totalMatches", "countIsComplete"].map(
      (f) => `PostToolUse.tool_response/${f}`,
    ),
  },
  {
    name: "shapes: Grep in each output mode",
    files: TREE,
    hooks: post,
    turns: [
      { tool: "Grep", input: { pattern: "beta" } },
      { tool: "Grep", input: { pattern: "beta", output_mode: "content" } },
      { tool: "Grep", input: { pattern: "beta", output_mode: "count" } },
      done,
    ],
    values: ["PostToolUse.tool_response"],
  },
];
