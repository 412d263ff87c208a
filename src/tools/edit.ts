import { z } from "zod";
import { readCurrentText, writeText } from "./file-access.js";
import { resolveInRoots } from "./paths.js";
import { structuredPatch } from "./structured-patch.js";
import { numberLines } from "./text.js";
import { ToolError, type Tool, type ToolContext } from "./types.js";

/** Lines of context shown around an edit in the model's result. */
const SNIPPET_CONTEXT = 4;
/** Edits spanning more lines than this get no snippet. */
const SNIPPET_MAX_LINES = 60;

const EditInput = z.object({
  file_path: z
    .string()
    .min(1)
    .describe(
      "The absolute path to the file to modify (a path relative to the working directory also works)",
    ),
  old_string: z
    .string()
    .describe(
      "The exact text to replace, including whitespace and indentation; empty to create a new file",
    ),
  new_string: z.string().describe("The text to replace it with (must differ from old_string)"),
  // Defaulted, so hooks read `replace_all: false` as Claude Code gives it; still optional for the model.
  replace_all: z
    .boolean()
    .default(false)
    .describe("Replace every occurrence of old_string (default false: it must occur exactly once)"),
});

type EditInput = z.infer<typeof EditInput>;

/** Start indices of the non-overlapping occurrences of `needle` in `text`. */
function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) {
    found.push(i);
  }
  return found;
}

/** The new text around the first replacement, numbered, so the model can check its work. */
function snippet(newText: string, at: number, inserted: string): string {
  const lines = newText.split(/\r?\n/);
  const first = newText.slice(0, at).split("\n").length;
  const last = first + inserted.split("\n").length - 1;
  if (last - first + 1 > SNIPPET_MAX_LINES) return "";
  const from = Math.max(1, first - SNIPPET_CONTEXT);
  const to = Math.min(lines.length, last + SNIPPET_CONTEXT);
  return `\nThe result around the edit:\n${numberLines(lines.slice(from - 1, to), from)}`;
}

/** Works out the new file text, or says precisely why the edit cannot apply. */
function applyEdit(p: string, oldText: string | null, input: EditInput): [string, number[]] {
  const { old_string: oldString, new_string: newString } = input;
  if (oldString === newString) {
    throw new ToolError("old_string and new_string are identical; there is nothing to change");
  }
  if (oldString === "") {
    if (oldText === null || oldText === "") return [newString, [0]];
    throw new ToolError(
      `old_string is empty but ${p} already has content; give the exact text to replace, or use Write to replace the whole file`,
    );
  }
  if (oldText === null) throw new ToolError(`File does not exist: ${p}`);
  const found = occurrences(oldText, oldString);
  if (found.length === 0) {
    throw new ToolError(
      `old_string was not found in ${p}. It must match the file exactly, including whitespace and indentation; Read the file to check`,
    );
  }
  if (found.length > 1 && input.replace_all !== true) {
    throw new ToolError(
      `old_string occurs ${found.length} times in ${p}. Add surrounding context to make it unique, or set replace_all to true to replace every occurrence`,
    );
  }
  const at = found[0] ?? 0;
  const newText =
    input.replace_all === true
      ? oldText.split(oldString).join(newString)
      : oldText.slice(0, at) + newString + oldText.slice(at + oldString.length);
  return [newText, found];
}

/** Claude Code's Edit: exact string replacement in one file. */
export const editTool: Tool<typeof EditInput> = {
  name: "Edit",
  description:
    "Replaces exact text in a file. old_string must match the file exactly (whitespace and indentation included) " +
    "and occur exactly once, unless replace_all is true. Read the file first. An empty old_string creates a new file.",
  inputSchema: EditInput,
  kind: "edit",
  mutating: true,

  title(input: EditInput): string {
    return `Edit ${input.file_path}`;
  },

  locations(input: EditInput) {
    return [{ path: input.file_path }];
  },

  async execute(input: EditInput, ctx: ToolContext) {
    ctx.signal.throwIfAborted();
    const p = await resolveInRoots(input.file_path, ctx);
    const oldText = await readCurrentText(ctx, p);
    const [newText, found] = applyEdit(p, oldText, input);
    await writeText(ctx, p, newText);

    const count = found.length;
    const output =
      oldText === null
        ? `File created successfully at: ${p}`
        : count > 1
          ? `The file ${p} has been updated: ${count} occurrences replaced.`
          : `The file ${p} has been updated.${snippet(newText, found[0] ?? 0, input.new_string)}`;
    return {
      content: [{ type: "diff", path: p, oldText, newText }],
      output,
      response: {
        filePath: p,
        oldString: input.old_string,
        newString: input.new_string,
        originalFile: oldText ?? "",
        structuredPatch: structuredPatch(oldText ?? "", newText),
        userModified: false,
        replaceAll: input.replace_all === true,
      },
    };
  },
};
