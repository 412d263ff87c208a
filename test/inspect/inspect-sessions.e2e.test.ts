// Sessions in one page: each keeps its own cards, the page switches between them, Export
// holds each session's calls under it, and Load draws the loaded session anew.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { toolLine } from "../../src/client/kit/index.js";
import { GATE_ID, addRule, browserPages, inspectHere, newSession, send } from "./browser-kit.js";

/** HOOKGATE_INSPECT_SCREENSHOTS=docs saves the listed sessions for docs/inspect.md. */
const SCREENSHOTS = process.env.HOOKGATE_INSPECT_SCREENSHOTS;
const RM = toolLine("Bash", { command: "rm -rf build" });

async function deny(page: Page, reason: string): Promise<void> {
  const dialog = page.getByRole("alertdialog", { name: /Gate/ });
  await dialog.getByRole("textbox", { name: "Reason" }).fill(reason);
  await dialog.getByRole("button", { name: "Deny" }).click();
}

interface Exported {
  sessions: {
    sessionId: string;
    toolCalls: { hooks: { hookCallbackId: string; reason?: string }[] }[];
  }[];
}

describe("sessions in the inspector page", () => {
  const open = browserPages();

  it("a second session's call with the same tool call id gets its own card; the page switches between sessions; Export keeps each session's calls; Load draws the loaded session's cards", async () => {
    const run = await inspectHere({ "build/keep.txt": "precious\n" });
    try {
      const page = await open(run.url);
      await addRule(page, "Bash", "rm");
      const card = () => page.getByRole("article", { name: "Bash: rm -rf build" });
      await send(page, RM);
      await deny(page, "no deleting build dirs");
      await card().getByText("Hook denied: no deleting build dirs").waitFor();

      // The scripted model starts its tool call ids again in a new session.
      await newSession(page);
      await send(page, RM);
      await deny(page, "second session says no");
      await card().getByText("Hook denied: second session says no").waitFor();
      expect(await card().count()).toBe(1);

      // Each session is a button that shows its view: title, calls and denies.
      const sessions = page
        .getByRole("navigation", { name: "Sessions in this page" })
        .getByRole("button");
      expect(await sessions.count()).toBe(2);
      await sessions.first().click();
      await card().getByText("Hook denied: no deleting build dirs").waitFor();
      await card().getByRole("listitem").filter({ hasText: GATE_ID }).getByText("denied").waitFor();
      expect(
        await card()
          .getByText(/second session/)
          .count(),
      ).toBe(0);
      expect(await sessions.first().textContent()).toMatch(/^\/tool Bash .*1 call, 1 denied$/);

      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: "Export hook record" }).click(),
      ]);
      const saved = join(run.cwd, "record.json");
      await download.saveAs(saved);
      const record = JSON.parse(readFileSync(saved, "utf8")) as Exported;
      const reasons = record.sessions.map(
        (s) =>
          s.toolCalls.flatMap((c) => c.hooks).find((h) => h.hookCallbackId.endsWith(":browser"))
            ?.reason,
      );
      expect(reasons).toEqual(["no deleting build dirs", "second session says no"]);

      // Load draws the session from its replay, as it looked live, hooks included.
      const firstId = record.sessions[0]?.sessionId ?? "";
      await page.getByRole("button", { name: "List sessions" }).click();
      await page.getByRole("button", { name: `Load session ${firstId}` }).click();
      const loaded = page.getByRole("region", { name: `Loaded session ${firstId}` });
      const replayed = loaded.getByRole("article", { name: "Bash: rm -rf build" });
      await replayed.getByText("Hook denied: no deleting build dirs").waitFor();
      await replayed
        .getByRole("listitem")
        .filter({ hasText: GATE_ID })
        .getByText("denied")
        .waitFor();
      expect(await page.getByRole("article").count()).toBe(1);
    } finally {
      await run.stop();
    }
  }, 180_000);

  it("List sessions tells persisted sessions apart by title, start time, calls and denies, and Load switches the view to the one chosen", async () => {
    const first = await inspectHere(
      { "build/keep.txt": "precious\n" },
      { agent: ["--permission-mode", "bypassPermissions"] },
    );
    let cwd: string;
    try {
      cwd = first.cwd;
      const page = await open(first.url);
      await addRule(page, "Bash", "rm");
      await send(page, RM);
      await deny(page, "no deleting build dirs");
      await page.getByText("turn ended: end_turn").waitFor();
      await send(page, toolLine("Bash", { command: "ls" }));
      await page.getByText("turn ended: end_turn").nth(1).waitFor();
      await newSession(page);
      await send(page, "hello there");
      await page.getByText("turn ended: end_turn").nth(2).waitFor();
    } finally {
      await first.stop();
    }

    const second = await inspectHere({ cwd });
    try {
      const page = await open(second.url);
      await page.getByRole("button", { name: "List sessions" }).click();
      const listed = page.getByRole("list", { name: "Sessions" }).getByRole("listitem");
      const rm = listed.filter({ hasText: "rm -rf build" });
      const hello = listed.filter({ hasText: "hello there" });
      const started = /started \d{1,2}\/\d{1,2}\/\d{4}, \d\d:\d\d:\d\d/;
      expect(await rm.textContent()).toMatch(started);
      expect(await rm.textContent()).toContain("2 calls, 1 denied");
      expect(await hello.textContent()).toMatch(started);
      expect(await hello.textContent()).toContain("0 calls, 0 denied");
      if (SCREENSHOTS) {
        await page
          .getByRole("region", { name: "Session" })
          .screenshot({ path: join(SCREENSHOTS, "inspect-sessions.png") });
      }

      // Load shows the chosen session's view, and only that one.
      await rm.getByRole("button", { name: /^Load session / }).click();
      const views = page.getByRole("region", { name: /^Loaded session / });
      await views.getByRole("article", { name: "Bash: rm -rf build" }).waitFor();
      await hello.getByRole("button", { name: /^Load session / }).click();
      await views.getByText("You said: hello there").waitFor();
      expect(await views.count()).toBe(1);
      expect(await page.getByRole("article", { name: "Bash: rm -rf build" }).count()).toBe(0);
    } finally {
      await second.stop();
    }
  }, 180_000);
});
