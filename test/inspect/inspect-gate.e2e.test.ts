// The page's gate and a person: focus that no timed call can steal, Escape that denies, and a
// rule that fails closed when nobody answers.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { toolLine } from "../../src/client/kit/index.js";
import {
  GATE_ID,
  addRule,
  browserPages,
  inspectHere,
  newSession,
  send,
  sharedInspector,
} from "./browser-kit.js";

const RM = toolLine("Bash", { command: "rm -rf build" });

describe("the page's gate and a person", () => {
  const open = browserPages();
  const focused = (page: Page) => page.locator(":focus");
  // One inspector for the dialogs' tests, each in a session of its own, with a rule on `rm`.
  const shared = sharedInspector({ "build/keep.txt": "precious\n" }, {}, (here) =>
    here.act({ type: "addRule", rule: { event: "PreToolUse", matcher: "Bash", contains: "rm" } }),
  );

  it("a gate dialog that opens while the Prompt is typed in leaves the focus there: a space types, it never presses Allow; Escape in the dialog denies", async () => {
    const run = shared();
    const page = await open(run.link());
    await newSession(page);
    const prompt = page.getByRole("textbox", { name: "Prompt" });
    await prompt.fill(RM);
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("alertdialog", { name: /Gate/ });
    await dialog.getByText("rm -rf build").waitFor();

    // It says what silence does: a rule is a person asking to be asked.
    await dialog.getByText(/denied when the time runs out/).waitFor();
    // The user goes on typing the next prompt: the dialog must not have taken these keys.
    await page.keyboard.type("ls -la ");
    expect(await prompt.inputValue()).toBe("ls -la ");
    await prompt.and(focused(page)).waitFor();
    expect(await dialog.count()).toBe(1);

    // A deliberate move into the dialog, then Escape: Deny, with the reason typed.
    await dialog.getByRole("textbox", { name: "Reason" }).click();
    await page.keyboard.type("keep build");
    await page.keyboard.press("Escape");
    const card = page.getByRole("article", { name: /Bash/ });
    await card.getByText("Hook denied: keep build").waitFor();
    await card.getByRole("listitem").filter({ hasText: GATE_ID }).getByText("denied").waitFor();
    expect(existsSync(join(run.cwd, "build", "keep.txt"))).toBe(true);
  }, 120_000);

  it("with no text field in use a gate dialog takes the focus on Reason: typing there is safe, Tab reaches Deny before Allow, Enter in Reason denies", async () => {
    const run = shared();
    const page = await open(run.link());
    await newSession(page);
    // A click on Send leaves the focus on a button, not on a text field.
    await send(page, RM);
    const dialog = page.getByRole("alertdialog", { name: /Gate/ });
    const reason = dialog.getByRole("textbox", { name: "Reason" });
    await reason.and(focused(page)).waitFor();
    await page.keyboard.type("not now ");
    await page.keyboard.press("Tab");
    await dialog.getByRole("button", { name: "Deny" }).and(focused(page)).waitFor();
    await page.keyboard.press("Shift+Tab");
    await reason.and(focused(page)).waitFor();
    await page.keyboard.press("Enter");

    const card = page.getByRole("article", { name: /Bash/ });
    await card.getByText("Hook denied: not now").waitFor();
    expect(existsSync(join(run.cwd, "build", "keep.txt"))).toBe(true);
  }, 120_000);

  it("a permission dialog takes the focus on its safe option (Reject, never Always allow), and Escape rejects", async () => {
    const run = shared();
    const page = await open(run.link());
    const view = await newSession(page);
    // A call no rule stops: the permission step asks.
    await send(page, toolLine("Bash", { command: "echo made > made.txt" }));
    const dialog = page.getByRole("alertdialog", { name: /Permission/ });
    await dialog.getByRole("button", { name: "Reject", exact: true }).and(focused(page)).waitFor();
    await page.keyboard.press("Escape");

    const card = page.getByRole("article", { name: /Bash/ });
    await card.filter({ hasText: "status: failed" }).waitFor();
    await view.getByText("turn ended: end_turn").waitFor();
    expect(existsSync(join(run.cwd, "made.txt"))).toBe(false);
  }, 120_000);

  it("a rule nobody answers denies the call when the time runs out, even in bypassPermissions (timed_out, no permission step)", async () => {
    const run = await inspectHere(
      { "build/keep.txt": "precious\n" },
      {
        gateTimeout: 1,
        agent: ["--permission-mode", "bypassPermissions"],
      },
    );
    try {
      const page = await open(run.url);
      await addRule(page, "Bash", "");
      await send(page, RM);
      const card = page.getByRole("article", { name: /Bash/ });
      await card.filter({ hasText: "status: failed" }).waitFor();
      const row = card.getByRole("listitem").filter({ hasText: GATE_ID });
      await row.filter({ hasText: "timed_out" }).waitFor();
      await row.getByText(`hook ${GATE_ID} timed out after 1000 ms on Bash`).waitFor();
      await card.getByText(/^Hook denied: /).waitFor();
      await page.getByText("turn ended: end_turn").waitFor();
      expect(await page.getByRole("alertdialog").count()).toBe(0);
      expect(existsSync(join(run.cwd, "build", "keep.txt"))).toBe(true);
    } finally {
      await run.stop();
    }
  }, 120_000);
});
