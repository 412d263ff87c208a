// The first minute, without the docs: the page says what to type, offers examples, asks
// before a rule that gates every call, and says what is wrong once.
import { describe, expect, it } from "vitest";
import { browserPages, inspectHere } from "./browser-kit.js";

describe("the inspector page's first minute", () => {
  const open = browserPages();

  it("the empty Prompt says what to type and examples fill it; an empty rule asks first; a bad matcher is said once; placeholders read as examples", async () => {
    const run = await inspectHere({});
    try {
      const page = await open(run.url);
      const prompt = page.getByRole("textbox", { name: "Prompt" });
      expect(await prompt.getAttribute("placeholder")).toContain('/tool Bash {"command":');
      const examples = page.getByRole("group", { name: "Example prompts" }).getByRole("button");
      expect(await examples.count()).toBeGreaterThanOrEqual(2);
      await examples.first().click();
      expect(await prompt.inputValue()).toMatch(/^\/tool Bash \{"command":/);

      // Placeholders cannot pass for values: each reads as an example.
      for (const name of ["Matcher", "Input contains"]) {
        const field = page.getByRole("textbox", { name });
        expect(await field.inputValue()).toBe("");
        expect(await field.getAttribute("placeholder")).toMatch(/^e\.g\. /);
      }

      // Empty fields gate every call: the page asks before it adds that rule.
      await page.getByRole("button", { name: "Add rule" }).click();
      const ask = page.getByRole("alertdialog", { name: /every tool call/ });
      await ask.getByRole("button", { name: "Cancel" }).click();
      expect(await page.getByRole("list", { name: "Rules" }).getByRole("listitem").count()).toBe(0);
      await page.getByRole("button", { name: "Add rule" }).click();
      await ask.getByRole("button", { name: "Add it anyway" }).click();
      await page.getByRole("list", { name: "Rules" }).getByText("PreToolUse *").waitFor();

      // A bad matcher: what is wrong, said once.
      await page.getByRole("textbox", { name: "Matcher" }).fill("(");
      await page.getByRole("button", { name: "Add rule" }).click();
      const error = page.getByRole("alert").filter({ hasText: "not a valid matcher" });
      await error.waitFor();
      const text = (await error.textContent()) ?? "";
      expect(text).not.toMatch(/\b400\b/);
      expect(text.match(/matcher/gi)).toHaveLength(2);
      await page.close();
    } finally {
      await run.stop();
    }
  }, 120_000);
});
