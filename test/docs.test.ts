import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as root from "../src/index.js";
import * as clientLib from "../src/client/index.js";
import * as testing from "../src/client/kit/index.js";
import { EVENT_TABLE, HOOK_EVENTS } from "../src/wire/events.js";

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), "utf8");
const pages = [
  "README.md",
  "CHANGELOG.md",
  ...readdirSync(new URL("../docs/", import.meta.url))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

describe("the documentation", () => {
  it.each(pages)("%s: every json block is JSON", (page) => {
    for (const [, block] of read(page).matchAll(/```json\n([\s\S]*?)```/g)) {
      expect(() => JSON.parse(block ?? ""), block).not.toThrow();
    }
  });

  it("the README stays a front door: at most 300 lines", () => {
    expect(read("README.md").split("\n").length).toBeLessThanOrEqual(300);
  });

  it("the README's test command is the one CI runs", () => {
    expect(read(".ci/run").trimEnd().split("\n").at(-1)).toBe("npm test");
    expect(read("README.md")).toMatch(/^npm test +#/m);
  });

  it("docs/hooks.md's table of input fields is the wire's event table, row for row", () => {
    const page = read("docs/hooks.md");
    const section = page.slice(page.indexOf("### Input fields"), page.indexOf("### PreCompact"));
    const names = (cell = "") => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    const rows = section
      .split("\n")
      .filter((line) => line.startsWith("| `"))
      .map((line) => line.split("|").map((cell) => cell.trim()));
    expect(rows.map((cells) => names(cells[1])[0])).toEqual([...HOOK_EVENTS]);
    for (const cells of rows) {
      const row = EVENT_TABLE[names(cells[1])[0] as (typeof HOOK_EVENTS)[number]];
      expect(names(cells[2])).toEqual(Object.keys(row.fields));
      expect(names(cells[3])).toEqual(row.matcher === null ? [] : [row.matcher]);
    }
  });

  it.each([
    ["hookgate", root],
    ["hookgate/client", clientLib],
    ["hookgate/testing", testing],
  ])("docs/client.md names every value %s exports", (_entry, exports) => {
    const page = read("docs/client.md");
    for (const name of Object.keys(exports)) expect(page, name).toContain(`\`${name}`);
  });
});
