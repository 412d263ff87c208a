import { execFile } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, it, onTestFinished } from "vitest";
import { makeWorkspace, removeWorkspace } from "../../src/client/kit/index.js";

const README = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

/** The README's integration example, the first `ts` block after its heading. */
function integrationExample(): string {
  const section = README.slice(README.indexOf("## Integrating it"));
  const block = /```ts\n([\s\S]*?)```\n/.exec(section)?.[1];
  if (block === undefined) throw new Error("the README has no integration example");
  return block;
}

it("the README's integration example is at most about 20 lines", () => {
  expect(integrationExample().trimEnd().split("\n").length).toBeLessThanOrEqual(32);
});

it("the README's integration example runs as written, and its gate blocks rm -rf", async () => {
  const cwd = makeWorkspace({ "important/keep.txt": "precious" });
  onTestFinished(() => removeWorkspace(cwd));
  // The example has no type annotations, so it runs as JavaScript, from a file inside this
  // package so that "hookgate/client" resolves as it would for a user (to the built dist/).
  const script = [
    integrationExample(),
    // Without the gate, nothing would stop the rm -rf in this mode.
    'await acp.request(methods.agent.session.setMode, { sessionId, modeId: "bypassPermissions" });',
    "const { stopReason } = await acp.request(methods.agent.session.prompt, {",
    "  sessionId,",
    `  prompt: [{ type: "text", text: '/tool Bash {"command": "rm -rf important"}' }],`,
    "});",
    "console.log(stopReason);",
    "await agent.close();",
  ].join("\n");
  const file = fileURLToPath(new URL(`./.readme-example-${process.pid}.mjs`, import.meta.url));
  writeFileSync(file, script);
  onTestFinished(() => rmSync(file, { force: true }));
  const { stdout } = await promisify(execFile)(process.execPath, [file], {
    cwd,
    timeout: 30_000,
  });
  expect(stdout.trim()).toBe("end_turn");
  expect(existsSync(join(cwd, "important", "keep.txt"))).toBe(true);
});
