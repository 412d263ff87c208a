import { describe, expect, it } from "vitest";
import type { CustomCommand } from "../../src/instructions/commands.js";
import {
  commandMessageTexts,
  expandTemplate,
  matchCustomCommand,
  splitWords,
} from "../../src/instructions/expand.js";

const review: CustomCommand = {
  name: "review",
  description: "Review",
  body: "Review $0 for $1.\n",
  path: "/repo/.claude/commands/review.md",
  source: "projectSettings",
};

describe("filling a custom command's template", () => {
  it("puts the whole text in $ARGUMENTS and the words, 0-based, in $0, $1 and $ARGUMENTS[n]", () => {
    expect(expandTemplate("$0|$1|$ARGUMENTS[1]|$ARGUMENTS", "a.txt speed")).toBe(
      "a.txt|speed|speed|a.txt speed",
    );
  });

  it("leaves a placeholder with no word as written, and \\$ as a dollar", () => {
    expect(expandTemplate("$0 $2 $ARGUMENTS[5] \\$1 $1x", "one two")).toBe(
      "one $2 $ARGUMENTS[5] $1 $1x",
    );
  });

  it("never reads a filled-in value as a placeholder", () => {
    expect(expandTemplate("$0 / $1", "$1 done")).toBe("$1 / done");
  });

  it("appends ARGUMENTS: when the template has no placeholder, and nothing without arguments", () => {
    expect(expandTemplate("Greet.\n", "the team")).toBe("Greet.\n\n\nARGUMENTS: the team");
    expect(expandTemplate("Greet.\n", "")).toBe("Greet.\n");
  });

  it("groups quoted words as a shell does", () => {
    expect(splitWords(`a "b c" 'd "e"' f\\ g ""`)).toEqual(["a", "b c", 'd "e"', "f g", ""]);
  });
});

describe("a prompt that uses a custom command", () => {
  it("is matched on its first word, exactly, and keeps the rest as arguments", () => {
    expect(matchCustomCommand("/review  a.txt speed ", [review])).toEqual({
      command: review,
      args: "a.txt speed",
    });
    expect(matchCustomCommand("/Review a.txt", [review])).toBeUndefined();
    expect(matchCustomCommand("please /review", [review])).toBeUndefined();
  });

  it("reads for the model as Claude Code sends it: the command's tags, then the filled template", () => {
    expect(commandMessageTexts({ command: review, args: "a.txt speed" })).toEqual([
      "<command-message>review</command-message>\n<command-name>/review</command-name>\n<command-args>a.txt speed</command-args>\n",
      "Review a.txt for speed.\n",
    ]);
    expect(commandMessageTexts({ command: review, args: "" })[0]).toBe(
      "<command-message>review</command-message>\n<command-name>/review</command-name>\n",
    );
  });
});
