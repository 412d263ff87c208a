import { readFileSync } from "node:fs";
import { expect, it } from "vitest";

it("docs/client.md's test-kit example is readme-example.test.ts, verbatim", () => {
  const page = readFileSync(new URL("../../docs/client.md", import.meta.url), "utf8");
  const example = readFileSync(new URL("./readme-example.test.ts", import.meta.url), "utf8");
  expect(page).toContain("```ts\n" + example + "```\n");
});
