import { describe, expect, it } from "vitest";
import { builtinTools, toolByName, toolDefinitionsForModel } from "../../src/tools/index.js";

describe("the built-in tool registry", () => {
  it("holds Claude Code's tools under their names", () => {
    expect(builtinTools.map((t) => t.name)).toEqual([
      "Bash",
      "Read",
      "Write",
      "Edit",
      "Glob",
      "Grep",
    ]);
    expect(toolByName("Edit")?.kind).toBe("edit");
    expect(toolByName("edit")).toBeUndefined();
  });

  it("marks exactly Bash, Write and Edit as mutating", () => {
    expect(builtinTools.filter((t) => t.mutating).map((t) => t.name)).toEqual([
      "Bash",
      "Write",
      "Edit",
    ]);
  });

  it("describes each tool's input as a JSON schema with described fields", () => {
    const defs = toolDefinitionsForModel();
    const grep = defs.find((d) => d.name === "Grep");
    expect(grep?.jsonSchema).toMatchObject({
      type: "object",
      required: ["pattern"],
      properties: {
        "-i": { type: "boolean" },
        output_mode: { enum: ["content", "files_with_matches", "count"] },
      },
    });
    const edit = defs.find((d) => d.name === "Edit");
    expect(edit?.jsonSchema).toMatchObject({
      required: ["file_path", "old_string", "new_string"],
    });
    for (const def of defs) {
      expect(def.description.length).toBeGreaterThan(20);
      const properties = Object.values(
        (def.jsonSchema as { properties: Record<string, { description?: string }> }).properties,
      );
      for (const property of properties) expect(property.description).toBeTruthy();
    }
  });
});
