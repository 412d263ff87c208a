import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolLine } from "../../src/client/kit/index.js";
import {
  GATE_ID,
  OBSERVER,
  addRule,
  alive,
  browserPages,
  childrenOf,
  descendantsOf,
  inspect,
  inspectHere,
  newSession,
  openAgain,
  send,
  sharedInspector,
  type Running,
} from "./browser-kit.js";

/** Where a run saves the denied call's screenshot (docs/inspect-deny.png), when set. */
const SCREENSHOT = process.env.HOOKGATE_INSPECT_SCREENSHOT;

describe("hookgate inspect in a real browser", () => {
  const open = browserPages();

  describe("with a rule on every Bash call, one inspector for its tests", () => {
    const shared = sharedInspector({ "build/keep.txt": "precious\n" }, {}, (here) =>
      here.act({ type: "addRule", rule: { event: "PreToolUse", matcher: "Bash", contains: "" } }),
    );

    it("Allow lets the call run; the steering events' hooks are drawn; Events, Traffic (also for a later page) and Export", async () => {
      const run = shared();
      const page = await open(run.link());
      await newSession(page);
      await send(page, toolLine("Bash", { command: "echo made > made.txt" }));
      await page.getByRole("alertdialog").getByRole("button", { name: "Allow" }).click();

      const card = page.getByRole("article", { name: /Bash/ });
      await card.filter({ hasText: "status: completed" }).waitFor();
      await card.filter({ hasText: GATE_ID }).filter({ hasText: "proceeded" }).waitFor();
      // The steering events' hooks are drawn too: PostToolUse on the call's card, the turn's
      // other events in the conversation, the page's own observer a row in each.
      const after = card.getByRole("list", { name: /^PostToolUse hooks/ });
      await after
        .getByRole("listitem")
        .filter({ hasText: OBSERVER("PostToolUse") })
        .waitFor();
      await after.getByText("proceeded").waitFor();
      for (const event of ["SessionStart", "UserPromptSubmit", "Stop"]) {
        const rows = page.getByRole("list", { name: new RegExp(`^${event} hooks`) });
        await rows
          .getByRole("listitem")
          .filter({ hasText: OBSERVER(event) })
          .waitFor();
      }
      const events = page.getByRole("log", { name: "Events" });
      await events.getByText("PostToolUse Bash").waitFor();
      await events.getByText(/^Stop/).waitFor();
      expect(readFileSync(join(run.cwd, "made.txt"), "utf8")).toBe("made\n");

      // Filtered by event, the log keeps only that event's entries.
      await page.getByRole("combobox", { name: "Show only" }).selectOption("Stop");
      await events.getByText("PostToolUse Bash").waitFor({ state: "hidden" });
      await events.getByText(/^Stop/).waitFor();

      // Traffic: the gate's request as it crossed the wire, also for a page opened later (in
      // the same browser: the one-time link is spent, its cookie signs the new tab in).
      const later = await openAgain(page);
      for (const p of [page, later]) {
        await p.getByText(/Raw JSON-RPC frames/).click();
        const traffic = p.getByRole("log", { name: "Traffic" });
        await traffic
          .getByText(/"method":"_hooks\/run"/)
          .first()
          .waitFor();
      }
      await later.close();

      // Export: the session's hook record as JSON.
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: "Export hook record" }).click(),
      ]);
      const saved = join(run.cwd, "record.json");
      await download.saveAs(saved);
      const record = JSON.parse(readFileSync(saved, "utf8")) as {
        complete: boolean;
        toolCalls: { toolName: string; status: string; hooks: { hookCallbackId: string }[] }[];
        turnHooks: { event: string; hookCallbackId: string }[];
        events: { event: string }[];
      };
      expect(record.complete).toBe(true);
      expect(record.toolCalls).toMatchObject([
        {
          toolName: "Bash",
          status: "completed",
          hooks: [
            { hookCallbackId: GATE_ID, matcher: "*", outcome: "proceeded" },
            { event: "PostToolUse", hookCallbackId: OBSERVER("PostToolUse") },
          ],
        },
      ]);
      expect(record.turnHooks).toContainEqual(
        expect.objectContaining({ event: "Stop", hookCallbackId: OBSERVER("Stop") }),
      );
      expect(record.events.map((e) => e.event)).toContain("PostToolUse");
    }, 120_000);

    it("Cancel turn while a gate is pending cancels the call; nothing runs", async () => {
      const run = shared();
      const page = await open(run.link());
      const view = await newSession(page);
      await send(page, toolLine("Bash", { command: "rm -rf build" }));
      await page.getByRole("alertdialog").getByText("rm -rf build").waitFor();
      await page.getByRole("button", { name: "Cancel turn" }).click();
      await view.getByText("turn ended: cancelled").waitFor();
      await page.getByRole("alertdialog").waitFor({ state: "detached" });
      expect(existsSync(join(run.cwd, "build", "keep.txt"))).toBe(true);
    }, 120_000);

    it("agent output is text: markup in a command's output is shown, never rendered", async () => {
      const page = await open(shared().link());
      const view = await newSession(page);
      await send(page, toolLine("Bash", { command: "echo '<img src=x><b>bold</b>'" }));
      await page.getByRole("alertdialog").getByRole("button", { name: "Allow" }).click();
      const card = view.getByRole("article", { name: /Bash/ });
      await card.filter({ hasText: "status: completed" }).waitFor();
      await card.getByText("<img src=x><b>bold</b>").first().waitFor();
      expect(await card.locator("img, b").count()).toBe(0);
    }, 120_000);
  });

  it("a project command hook shows beside the browser's, with its reply's warning; a persisted session loads with its cards", async () => {
    // The hook's reply has a typo: it lets the call through (as in Claude Code), and says so.
    const command = `cat >/dev/null; echo '{"decison":"deny"}'`;
    const settings = {
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command }] }] },
    };
    const files = {
      "build/keep.txt": "precious\n",
      ".claude/settings.json": JSON.stringify(settings),
    };
    const project = ["--setting-sources", "project"];
    const first = await inspectHere(files, { agent: project });
    const commandId = "project:.claude/settings.json#PreToolUse[0].hooks[0]";
    try {
      const page = await open(first.url);
      await addRule(page, "Bash", "rm");
      await send(page, toolLine("Bash", { command: "rm -rf build" }));
      const dialog = page.getByRole("alertdialog");
      await dialog.getByRole("textbox", { name: "Reason" }).fill("build/ holds the release");
      await dialog.getByRole("button", { name: "Deny" }).click();
      const card = page.getByRole("article", { name: /Bash/ });
      await card.filter({ hasText: "status: failed" }).waitFor();
      const hooks = card.getByRole("list", { name: /Hooks/ });
      await hooks.getByRole("listitem").filter({ hasText: GATE_ID }).getByText("denied").waitFor();
      const commandRow = hooks.getByRole("listitem").filter({ hasText: commandId });
      await commandRow.getByText("command", { exact: true }).waitFor();
      await commandRow.getByText("matcher Bash").waitFor();
      await commandRow.getByText(/⚠ unknown field "decison".*did you mean decision\?/).waitFor();
      await page.getByText("turn ended: end_turn").waitFor();
      if (SCREENSHOT) await page.screenshot({ path: SCREENSHOT, fullPage: true });
    } finally {
      await first.stop();
    }

    const second = await inspectHere({ cwd: first.cwd }, { agent: project });
    try {
      const page = await open(second.url);
      await page.getByRole("button", { name: "List sessions" }).click();
      await page
        .getByRole("button", { name: /^Load session / })
        .first()
        .click();
      await page.getByText(/Loaded session/).waitFor();
      // The replay names the tool as the live call did (`_meta.claudeCode.toolName`).
      const card = page.getByRole("article", { name: "Bash: rm -rf build" });
      await card.filter({ hasText: "status: failed" }).waitFor();
      await card.filter({ hasText: "Hook denied" }).waitFor();
      await card.filter({ hasText: GATE_ID }).filter({ hasText: "denied" }).waitFor();
    } finally {
      await second.stop();
    }
  }, 120_000);

  // The command itself, as a user starts it (its own process, its agent a child of it): one
  // for a whole deny through it, then for what stopping it ends. bypassPermissions: the rule
  // alone stands between the `rm` and the workspace, and the last test's command runs unasked.
  describe("one hookgate inspect process", () => {
    let running: Running | undefined;
    beforeAll(async () => {
      running = await inspect(
        { "build/keep.txt": "precious\n" },
        { agent: ["--permission-mode", "bypassPermissions"] },
      );
    });
    afterAll(async () => {
      await running?.stop();
    });
    const command = (): Running => {
      if (!running) throw new Error("hookgate inspect did not start");
      return running;
    };

    it("a rule on Bash fires, the dialog shows the command, Deny (by keyboard) blocks it and the card shows the deny", async () => {
      const run = command();
      const page = await open(run.url);
      await addRule(page, "Bash", "rm");
      // By keyboard: Enter sends the prompt; the focus stays in the Prompt (a dialog never
      // takes it from a text field); Tab passes Send and reaches the dialog's Reason, then Deny.
      await page
        .getByRole("textbox", { name: "Prompt" })
        .fill(toolLine("Bash", { command: "rm -rf build" }));
      await page.keyboard.press("Enter");

      const dialog = page.getByRole("alertdialog");
      await dialog.getByText("rm -rf build").waitFor();
      await dialog.getByText("Bash").first().waitFor();
      await page.keyboard.press("Tab");
      await page.keyboard.press("Tab");
      const reason = dialog.getByRole("textbox", { name: "Reason" });
      await reason.and(page.locator(":focus")).waitFor();
      await page.keyboard.type("build/ holds the release");
      await page.keyboard.press("Tab");
      await dialog.getByRole("button", { name: "Deny" }).and(page.locator(":focus")).waitFor();
      await page.keyboard.press("Enter");

      const card = page.getByRole("article", { name: /Bash/ });
      await card.filter({ hasText: "status: failed" }).waitFor();
      await card.filter({ hasText: GATE_ID }).filter({ hasText: "denied" }).waitFor();
      await card.getByText("Hook denied: build/ holds the release").waitFor();
      // The row says what the agent reported: the matcher of the page's group and the reason.
      const row = card.getByRole("listitem").filter({ hasText: GATE_ID });
      await row.getByText("build/ holds the release", { exact: true }).waitFor();
      await row.getByText("matcher *").waitFor();
      await page.getByText("turn ended: end_turn").waitFor();
      expect(await dialog.count()).toBe(0);
      expect(existsSync(join(run.cwd, "build", "keep.txt"))).toBe(true);
    }, 120_000);

    it("stopping the inspector ends the agent and the command it is running", async () => {
      const run = command();
      const agents = childrenOf(run.child.pid ?? 0);
      expect(agents).toHaveLength(1);
      const page = await open(run.url);
      await send(page, toolLine("Bash", { command: "echo started > started.txt; sleep 1000" }));
      await expect
        .poll(() => existsSync(join(run.cwd, "started.txt")), { timeout: 60_000 })
        .toBe(true);
      const started = descendantsOf(agents[0] ?? 0);
      expect(started.length).toBeGreaterThan(0);
      await page.close();
      await run.stop();
      for (const pid of [...agents, ...started]) {
        await expect.poll(() => alive(pid), { timeout: 60_000 }).toBe(false);
      }
    }, 120_000);
  });
});
