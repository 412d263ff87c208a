// The page's views as a person reads them: the Events log with decisions, and screenshots of
// each view for docs/ (set HOOKGATE_INSPECT_SCREENSHOTS=docs to regenerate them).
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { toolLine } from "../../src/client/kit/index.js";
import { GATE_ID, addRule, browserPages, inspectHere, send } from "./browser-kit.js";

const SCREENSHOTS = process.env.HOOKGATE_INSPECT_SCREENSHOTS;

describe("the inspector page's views", () => {
  const open = browserPages();

  it("Events shows each event's time, session, tool and decision, PreToolUse included, with a count per outcome; hook rows have column headers and one-line ids", async () => {
    const run = await inspectHere(
      { "build/keep.txt": "precious\n" },
      { agent: ["--permission-mode", "bypassPermissions"] },
    );
    try {
      const page = await open(run.url);
      await addRule(page, "Bash", "rm");
      await send(page, toolLine("Bash", { command: "rm -rf build" }));
      const dialog = page.getByRole("alertdialog", { name: /Gate/ });
      await dialog.getByRole("textbox", { name: "Reason" }).fill("build/ holds the release");
      if (SCREENSHOTS) await dialog.screenshot({ path: join(SCREENSHOTS, "inspect-gate.png") });
      await dialog.getByRole("button", { name: "Deny" }).click();
      await page.getByText("turn ended: end_turn").waitFor();
      await send(page, toolLine("Bash", { command: "ls" }));
      await page.getByText("turn ended: end_turn").nth(1).waitFor();

      const sessionId = (await page.locator("#current").textContent()) ?? "";
      const events = page.getByRole("log", { name: "Events" });
      const gates = events.getByRole("listitem").filter({ hasText: "PreToolUse Bash" });
      const denied = gates.filter({ hasText: "denied" });
      await denied.waitFor();
      await gates.filter({ hasText: "proceeded" }).waitFor();
      expect(await denied.locator("time").textContent()).toMatch(/^\d\d:\d\d:\d\d$/);
      expect(await denied.textContent()).toContain(sessionId.slice(0, 8));
      const counts = page.getByLabel("Count per outcome");
      expect(await counts.textContent()).toMatch(/denied 1/);
      expect(await counts.textContent()).toMatch(/proceeded 1/);

      // The card's hook rows have column headers, and an id is one line, whole on hover.
      const card = page.getByRole("article", { name: "Bash: rm -rf build" });
      for (const column of ["hook", "kind", "matcher", "outcome", "reason", "time"]) {
        await card.getByText(column, { exact: true }).waitFor();
      }
      const id = card.getByText(GATE_ID, { exact: true });
      expect(await id.getAttribute("title")).toBe(GATE_ID);
      const whiteSpace = await id.evaluate(
        (node) => node.ownerDocument.defaultView?.getComputedStyle(node).whiteSpace,
      );
      expect(whiteSpace).toBe("nowrap");

      await page.getByRole("combobox", { name: "Show only" }).selectOption("PreToolUse");
      await events.getByText(/^Stop/).first().waitFor({ state: "hidden" });
      expect(await events.getByRole("listitem").count()).toBe(2);
      if (SCREENSHOTS) {
        await page
          .getByRole("region", { name: "Events" })
          .screenshot({ path: join(SCREENSHOTS, "inspect-events.png") });
        await page
          .getByRole("article", { name: "Bash: rm -rf build" })
          .screenshot({ path: join(SCREENSHOTS, "inspect-card.png") });
        await page.screenshot({ path: join(SCREENSHOTS, "inspect-page.png"), fullPage: true });
      }
      await page.close();
    } finally {
      await run.stop();
    }
  }, 120_000);
});
