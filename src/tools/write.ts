import { z } from "zod";
import { readCurrentText, writeText } from "./file-access.js";
import { resolveInRoots } from "./paths.js";
import { structuredPatch } from "./structured-patch.js";
import type { Tool, ToolContext } from "./types.js";

const WriteInput = z.object({
  file_path: z
    .string()
    .min(1)
    .describe(
      "The absolute path to the file to write (a path relative to the working directory also works)",
    ),
  content: z.string().describe("The complete new content of the file"),
});

type WriteInput = z.infer<typeof WriteInput>;

/** Claude Code's Write: creates a file or replaces its whole content. */
export const writeTool: Tool<typeof WriteInput> = {
  name: "Write",
  description:
    "Writes a file in the workspace, creating it (and missing parent directories) or replacing all of its content. " +
    "For changes to part of an existing file prefer Edit. Paths outside the workspace are refused.",
  inputSchema: WriteInput,
  kind: "edit",
  mutating: true,

  title(input: WriteInput): string {
    return `Write ${input.file_path}`;
  },

  locations(input: WriteInput) {
    return [{ path: input.file_path }];
  },

  async execute(input: WriteInput, ctx: ToolContext) {
    ctx.signal.throwIfAborted();
    const p = await resolveInRoots(input.file_path, ctx);
    const oldText = await readCurrentText(ctx, p);
    await writeText(ctx, p, input.content);
    const created = oldText === null;
    return {
      content: [{ type: "diff", path: p, oldText, newText: input.content }],
      output: created
        ? `File created successfully at: ${p}`
        : `The file ${p} has been updated successfully.`,
      // Claude Code's shape: a new file has no patch and no original.
      response: {
        type: created ? "create" : "update",
        filePath: p,
        content: input.content,
        structuredPatch: created ? [] : structuredPatch(oldText, input.content),
        originalFile: oldText,
        userModified: false,
      },
    };
  },
};
