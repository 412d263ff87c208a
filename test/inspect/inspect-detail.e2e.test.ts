// Finding out why: a hook row or a tool call, selected by keyboard or click, shows what it
// holds in the detail pane (the exact `_hooks/run` request and reply, the outcome and what it
// means, the timings); and a call's hooks are drawn on one time axis with tick labels.
// HOOKGATE_INSPECT_SCREENSHOTS=docs saves the pane and the waterfall for docs/inspect.md.
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
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

const SCREENSHOTS = process.env.HOOKGATE_INSPECT_SCREENSHOTS;
const COMMAND_ID = "project:.claude/settings.json#PreToolUse[0].hooks[0]";

const hook = (command: string) => ({ type: "command", command });
/**
 * A project whose Bash calls also pass two command hooks that let them through, of very
 * different lengths.
 */
const PROJECT = {
  "build/keep.txt": "precious\n",
  ".claude/settings.json": JSON.stringify({
    hooks: {
      PreToolUse: [{ matcher: "Bash", hooks: [hook("cat >/dev/null"), hook("sleep 0.4")] }],
    },
  }),
};

async function denyRm(page: Page, view: Locator): Promise<void> {
  await addRule(page, "Bash", "rm");
  await send(page, toolLine("Bash", { command: "rm -rf build" }));
  const dialog = page.getByRole("alertdialog", { name: /Gate/ });
  await dialog.getByRole("textbox", { name: "Reason" }).fill("build/ holds the release");
  await dialog.getByRole("button", { name: "Deny" }).click();
  await view.getByText("turn ended: end_turn").waitFor();
}

describe("the inspector page's detail pane and waterfall", () => {
  const open = browserPages();

  describe("in a project with two command hooks on Bash, one inspector for its tests", () => {
    const shared = sharedInspector(PROJECT, { agent: ["--setting-sources", "project"] });

    it("a hook row selected by keyboard shows its _hooks/run request and reply, its outcome's meaning and timings, linked to Traffic; a command hook shows its input; a call shows input, output and the model's hook text", async () => {
      const page = await open(shared().link());
      await denyRm(page, await newSession(page));
      const card = page.getByRole("article", { name: "Bash: rm -rf build" });
      const details = page.getByRole("region", { name: "Details" });

      // By keyboard: the hook's id is a control; Enter selects it.
      await card.getByRole("button", { name: GATE_ID }).focus();
      await page.keyboard.press("Enter");
      await details.getByRole("heading", { name: `Hook ${GATE_ID}` }).waitFor();
      await details.getByText(/blocked at once and never ran/).waitFor();
      await details
        .getByText(/^took \d+\.\d ms; started at 0\.0 ms on the axis; the gate took/)
        .waitFor();
      const request = details.locator("pre").first();
      expect(await request.textContent()).toContain('"method": "_hooks/run"');
      expect(await request.textContent()).toContain(`"hookCallbackId": "${GATE_ID}"`);
      expect(await request.textContent()).toContain('"command": "rm -rf build"');
      const reply = details.locator("pre").nth(1);
      expect(await reply.textContent()).toContain('"decision": "deny"');
      expect(await reply.textContent()).toContain('"reason": "build/ holds the release"');
      await details.getByText(/^Asked at \d\d:\d\d:\d\d\.\d{3}, answered \d+ ms later/).waitFor();
      if (SCREENSHOTS) {
        await details.screenshot({ path: join(SCREENSHOTS, "inspect-detail.png") });
      }

      // The request's row in Traffic: the panel opens with the focus on it.
      await details.getByRole("link", { name: "Request in Traffic" }).click();
      const focused = page.getByRole("log", { name: "Traffic" }).locator("li:focus");
      expect(await focused.textContent()).toMatch(
        /^from agent .*"method":"_hooks\/run".*rm -rf build/,
      );

      // A click on the command hook's row: the input it was given on stdin.
      await card.getByRole("listitem").filter({ hasText: COMMAND_ID }).getByText("command").click();
      await details.getByRole("heading", { name: `Hook ${COMMAND_ID}` }).waitFor();
      await details.getByText(/^proceeded$/).waitFor();
      await details.getByRole("heading", { name: "Input (on the command's stdin)" }).waitFor();
      expect(await details.locator("pre").first().textContent()).toContain(
        '"hook_event_name": "PreToolUse"',
      );

      // The call itself: input, output, and the text the model was given.
      await card.getByRole("button", { name: "Call details" }).click();
      await details.getByRole("heading", { name: "Call Bash: rm -rf build" }).waitFor();
      const [input, output, told] = await details.locator("pre").allTextContents();
      expect(input).toContain('"command": "rm -rf build"');
      expect(output).toBe("Hook denied: build/ holds the release");
      expect(told).toBe(`Hook ${GATE_ID} denied this Bash call: build/ holds the release`);
    }, 120_000);

    it("a call's hooks, the gate's total, the permission step and the PostToolUse hooks are bars on one axis with tick labels, each at its start and length", async () => {
      // The project's two command hooks of very different lengths beside the page's callback.
      const page = await open(shared().link());
      const view = await newSession(page);
      await send(page, toolLine("Bash", { command: "echo hi" }));
      // The default mode asks before Bash: the permission step sits on the call's axis.
      await page
        .getByRole("alertdialog", { name: /Permission/ })
        .getByRole("button", { name: "Allow", exact: true })
        .click();
      await view.getByText("turn ended: end_turn").waitFor();
      const card = page.getByRole("article", { name: "Bash: echo hi" });
      const post = card.getByRole("list", { name: /^PostToolUse hooks/ });
      await post.getByRole("listitem").first().waitFor();

      const axis = card.getByLabel(/^time axis, 0 to/);
      expect(await axis.getByText("0 ms", { exact: true }).count()).toBe(1);
      expect((await axis.allTextContents())[0]).toMatch(/(\d+ ms.*){3}/);

      const row = (name: RegExp) => card.getByRole("listitem").filter({ hasText: name });
      const box = async (name: RegExp) => {
        const bar = await row(name).locator(".bar").boundingBox();
        const ms = Number((await row(name).locator(".ms").textContent())?.replace(" ms", ""));
        if (!bar) throw new Error(`no bar for ${name}`);
        return { left: bar.x, right: bar.x + bar.width, width: bar.width, ms };
      };
      // Each bar is as long as its hook took, on one scale: lengths in proportion to the ms.
      const fast = await box(/hooks\[0\]/);
      const slow = await box(/hooks\[1\]/);
      const gate = await box(/^gate \(total\)/);
      const pxPerMs = gate.width / gate.ms;
      for (const bar of [fast, slow]) expect(bar.width).toBeCloseTo(bar.ms * pxPerMs, -0.5);
      expect(slow.left).toBeCloseTo(gate.left, 0);
      // Then the permission step, the tool's run and the PostToolUse hooks, along the same axis.
      const permission = await box(/^permission/);
      await row(/^permission/)
        .getByText("allow_once")
        .waitFor();
      expect(permission.left).toBeGreaterThanOrEqual(gate.right - 1);
      const ran = await box(/^tool ran/);
      expect(ran.left).toBeGreaterThanOrEqual(permission.right - 1);
      const observer = await box(/PostToolUse:0:0:observe/);
      expect(observer.left).toBeGreaterThanOrEqual(ran.right - 1);

      // A turn's hooks get an axis too.
      const turn = view.locator(".turn-hooks").first();
      await turn
        .getByLabel(/^time axis, 0 to/)
        .getByText("0 ms", { exact: true })
        .waitFor();
      if (SCREENSHOTS) await card.screenshot({ path: join(SCREENSHOTS, "inspect-waterfall.png") });
    }, 120_000);
  });

  it("a command hook's row shows its exit code, stdout and stderr, as the agent reported them", async () => {
    const guard = "echo 'looked at rm -rf build'; echo 'no deleting build dirs' >&2; exit 2";
    const settings = {
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: guard }] }] },
    };
    const run = await inspectHere(
      { ".claude/settings.json": JSON.stringify(settings) },
      { agent: ["--setting-sources", "project"] },
    );
    try {
      const page = await open(run.url);
      await send(page, toolLine("Bash", { command: "rm -rf build" }));
      await page.getByText("turn ended: end_turn").waitFor();
      const card = page.getByRole("article", { name: "Bash: rm -rf build" });
      await card.getByRole("listitem").filter({ hasText: COMMAND_ID }).getByText("command").click();
      const details = page.getByRole("region", { name: "Details" });
      await details.getByRole("heading", { name: `Hook ${COMMAND_ID}` }).waitFor();
      await details.getByText(/^denied$/).waitFor();
      await details.getByText("Exit code 2.", { exact: true }).waitFor();
      const stdout = details.getByLabel("stdout");
      expect(await stdout.textContent()).toBe("looked at rm -rf build\n");
      expect(await details.getByLabel("stderr").textContent()).toBe("no deleting build dirs\n");
    } finally {
      await run.stop();
    }
  }, 120_000);
});
