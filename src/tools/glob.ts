import { z } from "zod";
import { textContent } from "./text.js";
import type { Tool, ToolContext } from "./types.js";
import { realRoots, relativeToCwd } from "./paths.js";
import { listFiles, newestFirst, readable, resolveSearchBase } from "./walk.js";

/** Most file names Glob returns; the rest are counted in a note. */
export const MAX_GLOB_RESULTS = 100;

const GlobInput = z.object({
  pattern: z
    .string()
    .min(1)
    .describe('The glob pattern to match files against, e.g. "**/*.ts" or "src/**/*.{js,jsx}"'),
  path: z
    .string()
    .optional()
    .describe(
      "The directory to search in (default: the working directory). Omit it to use the default",
    ),
});

type GlobInput = z.infer<typeof GlobInput>;

/** Claude Code's Glob: file names matching a pattern, most recently modified first. */
export const globTool: Tool<typeof GlobInput> = {
  name: "Glob",
  description:
    'Finds files by glob pattern (e.g. "**/*.js", "src/**/*.{ts,tsx}") and returns their absolute paths, ' +
    `most recently modified first, at most ${MAX_GLOB_RESULTS}. node_modules and .git are skipped; ` +
    "symbolic links are followed only while they lead inside the workspace. Use Grep to search file contents.",
  inputSchema: GlobInput,
  kind: "search",
  mutating: false,

  title(input: GlobInput): string {
    return input.path === undefined
      ? `Find ${input.pattern}`
      : `Find ${input.pattern} in ${input.path}`;
  },

  locations(input: GlobInput) {
    return input.path === undefined ? [] : [{ path: input.path }];
  },

  async execute(input: GlobInput, ctx: ToolContext) {
    const started = Date.now();
    ctx.signal.throwIfAborted();
    const base = await resolveSearchBase(input.path, ctx, false);
    const roots = await realRoots(ctx);
    const listed = await listFiles(base.path, input.pattern, roots, ctx.signal);
    const files = await newestFirst(readable(listed, ctx));
    ctx.signal.throwIfAborted();

    const shown = files.slice(0, MAX_GLOB_RESULTS).map((f) => f.path);
    const truncated = files.length > shown.length;
    let output = shown.length === 0 ? "No files found" : shown.join("\n");
    if (truncated) {
      output +=
        `\n[Results truncated: showing the ${shown.length} most recently modified of ${files.length} files. ` +
        "Use a more specific path or pattern.]";
    }
    return {
      content: [textContent(output)],
      output,
      // Claude Code's shape: paths relative to the cwd, oldest first (its ripgrep order).
      response: {
        filenames: shown.map((f) => relativeToCwd(ctx.cwd, f)).reverse(),
        durationMs: Date.now() - started,
        numFiles: shown.length,
        truncated,
        totalMatches: files.length,
        countIsComplete: true,
      },
    };
  },
};
