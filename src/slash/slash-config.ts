import { z } from "zod";

/** Names hookgate keeps for itself: `/tool` lines drive the scripted model. */
export const RESERVED_COMMAND_NAMES: readonly string[] = Object.freeze(["tool", "compact"]);

/** A slash command's timeout when the config gives none. */
export const DEFAULT_COMMAND_TIMEOUT_S = 15;

/** What a command name must look like once lower-cased. */
const NAME = /^[a-z0-9][a-z0-9_-]*$/;

/**
 * A command that could be followed by the arguments hookgate appends (` "$@"`) only at the
 * cost of running them: `report.sh;` would become `report.sh; "$@"`, which executes the
 * first argument. Refused at load, where the author can fix it.
 */
const DANGLING = /[;&|({\\]$/;

const commandText = z
  .string()
  .transform((text) => text.trimEnd())
  .pipe(
    z
      .string()
      .min(1, "must not be empty")
      .refine(
        (text) => !DANGLING.test(text),
        'must not end in ; & | ( { or \\: the arguments are appended as "$@" and would run as a command',
      ),
  );

const commandObject = z.strictObject(
  {
    command: commandText,
    description: z.string().min(1).optional(),
    /** Seconds; fractions allowed. */
    timeout: z.number().gt(0).max(300).optional(),
    /** Shown by the client as the argument placeholder; its presence advertises an input. */
    hint: z.string().min(1).optional(),
  },
  {
    error: (issue) =>
      issue.code === "invalid_type"
        ? "must be a shell command or { command, description?, timeout?, hint? }"
        : undefined,
  },
);

/** One configured slash command, normalized. */
export interface SlashCommand {
  /** Lower-case name, without the slash. */
  readonly name: string;
  /** The shell command; the arguments are appended as `"$@"`. */
  readonly command: string;
  readonly description: string;
  readonly timeoutMs: number;
  /** Present when the command advertises that it takes arguments. */
  readonly hint?: string;
}

/**
 * The config's `commands` field: `{ "<name>": "<shell command>" }` or
 * `{ "<name>": { command, description?, timeout?, hint? } }`. Names are lower-cased; a bad
 * name, two names that meet after lower-casing, or a reserved name is an issue at
 * `commands.<name as written>`.
 */
export const slashCommandsSchema = z
  .record(
    z.string(),
    // The string form is the object form's `command`, so both report errors the same way.
    z.preprocess((spec) => (typeof spec === "string" ? { command: spec } : spec), commandObject),
  )
  .superRefine((record, ctx) => {
    const seen = new Map<string, string>();
    for (const written of Object.keys(record)) {
      const name = written.toLowerCase();
      const issue = (message: string) => ctx.addIssue({ code: "custom", path: [written], message });
      if (!NAME.test(name)) {
        issue("a command name must match [a-z0-9][a-z0-9_-]* (case is ignored)");
      } else if (RESERVED_COMMAND_NAMES.includes(name)) {
        issue(`/${name} is reserved by hookgate`);
      } else if (seen.has(name)) {
        issue(`collides with commands.${seen.get(name)} (names are case-insensitive)`);
      }
      seen.set(name, written);
    }
  })
  .transform((record): SlashCommand[] =>
    Object.entries(record).map(([written, entry]) => {
      return {
        name: written.toLowerCase(),
        command: entry.command,
        description: entry.description ?? entry.command,
        timeoutMs: (entry.timeout ?? DEFAULT_COMMAND_TIMEOUT_S) * 1000,
        ...(entry.hint !== undefined && { hint: entry.hint }),
      };
    }),
  );
