import { z } from "zod";
import { numberLines } from "./text.js";

/**
 * What a PostToolUse hook's `updatedToolOutput` must look like for a built-in tool (the tool's
 * own `tool_response` shape, as Claude Code's) and how the model reads a replacement in that
 * shape. A value that does not fit is refused and the original output kept, as Claude Code
 * does ("does not match Bash's output shape").
 */
export interface OutputShape {
  readonly schema: z.ZodType;
  /** The model's text for a replacement that fits `schema`. */
  render(value: unknown): string;
}

const bash = z.looseObject({ stdout: z.string(), stderr: z.string(), interrupted: z.boolean() });
const read = z.looseObject({
  type: z.literal("text"),
  file: z.looseObject({ filePath: z.string(), content: z.string(), startLine: z.int().optional() }),
});
const write = z.looseObject({
  type: z.enum(["create", "update"]),
  filePath: z.string(),
  content: z.string(),
});
const edit = z.looseObject({ filePath: z.string(), oldString: z.string(), newString: z.string() });
const glob = z.looseObject({ filenames: z.array(z.string()) });
const grep = z.looseObject({
  mode: z.enum(["content", "files_with_matches", "count"]),
  filenames: z.array(z.string()),
  content: z.string().optional(),
});

const nonEmpty = (...parts: string[]) =>
  parts.map((p) => p.replace(/\s+$/, "")).filter((p) => p !== "");

/** The built-in tools' output shapes, by tool name. */
export const OUTPUT_SHAPES: Readonly<Record<string, OutputShape>> = {
  Bash: {
    schema: bash,
    render: (v) => {
      const { stdout, stderr } = bash.parse(v);
      return nonEmpty(stdout, stderr).join("\n") || "(no output)";
    },
  },
  Read: {
    schema: read,
    render: (v) => {
      const { file } = read.parse(v);
      return file.content === ""
        ? "The file exists but is empty."
        : numberLines(file.content.replace(/\n$/, "").split("\n"), file.startLine ?? 1);
    },
  },
  Write: {
    schema: write,
    render: (v) => {
      const { type, filePath } = write.parse(v);
      return type === "create"
        ? `File created successfully at: ${filePath}`
        : `The file ${filePath} has been updated successfully.`;
    },
  },
  Edit: {
    schema: edit,
    render: (v) => `The file ${edit.parse(v).filePath} has been updated.`,
  },
  Glob: {
    schema: glob,
    render: (v) => {
      const { filenames } = glob.parse(v);
      return filenames.length === 0 ? "No files found" : filenames.join("\n");
    },
  },
  Grep: {
    schema: grep,
    render: (v) => {
      const { mode, filenames, content } = grep.parse(v);
      if (mode !== "files_with_matches") return content ?? "No matches found";
      return filenames.length === 0 ? "No files found" : filenames.join("\n");
    },
  },
};
