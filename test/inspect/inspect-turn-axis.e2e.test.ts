// A turn on one time axis: its UserPromptSubmit hooks, each tool call's whole span (gate,
// permission, tool run, PostToolUse) and its Stop hooks are bars at their start and length,
// with tick labels, so a reader sees where the turn's time went.
// HOOKGATE_INSPECT_SCREENSHOTS=docs saves the figure for docs/inspect.md.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { toolLine } from "../../src/client/kit/index.js";
import { OBSERVER, browserPages, inspectHere } from "./browser-kit.js";

const SCREENSHOTS = process.env.HOOKGATE_INSPECT_SCREENSHOTS;

/**
 * Command hooks that take a while at the turn's edges, beside the page's own observers; Bash
 * allowed, so no permission dialog waits on the test.
 */
const SETTINGS = {
  permissions: { allow: ["Bash"] },
  hooks: {
    UserPromptSubmit: [{ hooks: [{ type: "command", command: "sleep 0.2" }] }],
    Stop: [{ hooks: [{ type: "command", command: "sleep 0.3" }] }],
  },
};

describe("the inspector page's turn axis", () => {
  const open = browserPages();

  it("a turn's UserPromptSubmit hooks, its two tool calls and its Stop hooks sit in order on one axis, each bar as long as its reported time", async () => {
    const run = await inspectHere(
      { ".claude/settings.json": JSON.stringify(SETTINGS) },
      { agent: ["--setting-sources", "project"] },
    );
    try {
      const page = await open(run.url);
      // Two calls in one turn: Shift+Enter starts the Prompt's second line, Enter sends.
      const prompt = page.getByRole("textbox", { name: "Prompt" });
      await prompt.fill(toolLine("Bash", { command: "echo one" }));
      await prompt.press("Shift+Enter");
      await prompt.pressSequentially(toolLine("Bash", { command: "echo two" }));
      await prompt.press("Enter");
      await page.getByText("turn ended: end_turn").waitFor();

      const figure = page.getByRole("figure", { name: /^Turn on one time axis: \d+\.\d ms$/ });
      const axis = figure.getByLabel(/^time axis, 0 to/);
      expect(await axis.getByText("0 ms", { exact: true }).count()).toBe(1);
      expect((await axis.allTextContents())[0]).toMatch(/(\d+ ms.*){3}/);

      const rows = figure.getByRole("list", { name: /^Turn steps/ }).getByRole("listitem");
      const names = await rows.locator(".id").allTextContents();
      expect(names).toEqual([
        "UserPromptSubmit hooks",
        "Bash: echo one",
        "Bash: echo two",
        "Stop hooks",
      ]);
      // The text says what the bars draw: where each step starts and how long it took.
      const bars = [];
      for (let i = 0; i < names.length; i++) {
        const row = rows.nth(i);
        await row.getByText(/^at \d+\.\d ms$/).waitFor();
        const ms = Number((await row.locator(".ms").textContent())?.replace(" ms", ""));
        const box = await row.locator(".bar").boundingBox();
        if (!box) throw new Error(`no bar for ${names[i]}`);
        bars.push({ left: box.x, right: box.x + box.width, width: box.width, ms });
      }
      const [prompted, first, second, stopped] = bars as [
        (typeof bars)[0],
        (typeof bars)[0],
        (typeof bars)[0],
        (typeof bars)[0],
      ];
      // The hooks' reported times: the command hooks' sleeps, and the page's observers beside them.
      expect(prompted.ms).toBeGreaterThanOrEqual(200);
      expect(stopped.ms).toBeGreaterThanOrEqual(300);
      // In order along the axis: the calls after the prompt's hooks began, Stop after both
      // calls began. Ends are not ordered: each hooks row includes the page's observer, which
      // nothing awaits, so its reported end can fall after the turn has moved on.
      expect(first.left).toBeGreaterThan(prompted.left);
      expect(second.left).toBeGreaterThan(first.left);
      expect(stopped.left).toBeGreaterThan(second.left);
      // One scale: every bar's width in proportion to its milliseconds.
      const pxPerMs = stopped.width / stopped.ms;
      for (const bar of bars) expect(bar.width).toBeCloseTo(bar.ms * pxPerMs, -0.5);

      // The turn's own rows are still listed by event, the page's observer among them.
      await page
        .getByRole("list", { name: /^Stop hooks/ })
        .getByRole("listitem")
        .filter({ hasText: OBSERVER("Stop") })
        .waitFor();
      if (SCREENSHOTS) await figure.screenshot({ path: join(SCREENSHOTS, "inspect-turn.png") });
    } finally {
      await run.stop();
    }
  }, 120_000);
});
