import { readFileSync } from "node:fs";
import { expect, it } from "vitest";

const page = readFileSync(new URL("../../docs/client.md", import.meta.url), "utf8");
const file = (name: string) => readFileSync(new URL(`./${name}`, import.meta.url), "utf8");

it("docs/client.md's test-kit example is readme-example.e2e.test.ts, verbatim", () => {
  expect(page).toContain("```ts\n" + file("readme-example.e2e.test.ts") + "```\n");
});

it("docs/client.md's integration guide is guide-example.ts, verbatim (the typecheck compiles it)", () => {
  expect(page).toContain("```ts\n" + file("guide-example.ts") + "```\n");
});
