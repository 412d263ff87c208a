import { RE2JS } from "re2js";

/**
 * Most instructions a pattern's RE2 program may have. RE2 matches in time linear in the input
 * but proportional to the program too, and building a program of thousands of instructions
 * (`(a{1,30}){1,30}` has 1,863) takes a tenth of a second or more: such a pattern makes the
 * schema unusable, as one RE2 cannot run at all does.
 */
export const MAX_PATTERN_INSTRUCTIONS = 500;

/**
 * Matching work one validation may do, in program instructions times characters matched
 * (RE2's bound on its work). A unit costs 12 to 20 ns (more on a loaded machine), so a call's
 * validation stays under 50 ms: a 64 KiB argument against a 30-instruction pattern, 4 KiB
 * against the largest allowed.
 */
export const MATCH_BUDGET = 2_000_000;

/** A validation whose patterns would cost more than {@link MATCH_BUDGET} to match. */
export class MatchBudgetError extends Error {}

/** A pattern as Ajv's `code.regExp` wants it; `toString` keys Ajv's cache, so it names the pattern. */
export interface LinearRegExp {
  test(text: string): boolean;
  toString(): string;
}

/**
 * The patterns of one MCP server, each compiled by RE2 once (when its schema is checked) and
 * reused by every validation after, so a call never pays for a compile the listing made.
 */
export class LinearPatterns {
  private readonly compiled = new Map<string, LinearRegExp | Error>();
  /**
   * What the validation under way may still spend; unbounded outside one. Validations are
   * synchronous, so one runs at a time over these patterns.
   */
  private readonly budget: Budget = { left: undefined };

  /** Ajv's `code.regExp`: throws why a pattern cannot be used, as Ajv expects. */
  readonly regExp = Object.assign((pattern: string): LinearRegExp => this.compile(pattern), {
    // Ajv names the engine in code it generates for standalone use, which hookgate never does.
    code: "linearRegExp",
  });

  /**
   * Runs one validation under {@link MATCH_BUDGET}: a test of these patterns that would
   * overspend it throws {@link MatchBudgetError} before matching, so a call's validation is
   * bounded whatever the server's patterns and the model's arguments.
   */
  withinBudget<T>(validate: () => T): T {
    const outer = this.budget.left;
    this.budget.left = MATCH_BUDGET;
    try {
      return validate();
    } finally {
      this.budget.left = outer;
    }
  }

  /** Why RE2 cannot run a pattern within the bounds above, or undefined when it can. */
  unusable(pattern: string): string | undefined {
    try {
      this.compile(pattern);
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  private compile(pattern: string): LinearRegExp {
    let found = this.compiled.get(pattern);
    if (found === undefined) {
      found = build(pattern, this.budget);
      this.compiled.set(pattern, found);
    }
    if (found instanceof Error) throw found;
    return found;
  }
}

interface Budget {
  left: number | undefined;
}

/** A JSON Schema `pattern` as RE2 runs it (an unanchored search), or why it cannot be. */
function build(pattern: string, budget: Budget): LinearRegExp | Error {
  let re: RE2JS;
  try {
    re = RE2JS.compile(RE2JS.translateRegExp(pattern));
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
  const size = re.programSize();
  if (size > MAX_PATTERN_INSTRUCTIONS) {
    return new Error(
      `pattern ${JSON.stringify(pattern)} is too large to match in bounded time (${size} RE2 instructions, at most ${MAX_PATTERN_INSTRUCTIONS})`,
    );
  }
  return {
    test(text) {
      const { left } = budget;
      if (left !== undefined) {
        const cost = size * (text.length + 1);
        if (cost > left) {
          throw new MatchBudgetError(
            `matching ${text.length} characters against pattern ${JSON.stringify(pattern)} would exceed hookgate's validation budget`,
          );
        }
        budget.left = left - cost;
      }
      return re.test(text);
    },
    toString: () => `re2:${pattern}`,
  };
}
