import { readFileSync } from "node:fs";
import { expect, it } from "vitest";

it("the README's test-kit example is readme-example.test.ts, verbatim", () => {
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  const example = readFileSync(new URL("./readme-example.test.ts", import.meta.url), "utf8");
  expect(readme).toContain("```ts\n" + example + "```\n");
});
