import { rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { killQuietly, provesAlive, RawAgent } from "../helpers/raw-stdio.js";
import { workspace } from "./setup.js";

let agent: RawAgent | undefined;
let cwd: string | undefined;
afterEach(() => {
  if (agent) killQuietly(agent.child);
  if (cwd) rmSync(cwd, { recursive: true, force: true });
  agent = cwd = undefined;
});

const errorCode = (frame: Record<string, unknown>): unknown =>
  typeof frame.error === "object" && frame.error !== null && "code" in frame.error
    ? frame.error.code
    : undefined;

describe("hostile frames on the real binary", () => {
  it("a frame nested 6,000 deep gets an error reply and the agent keeps serving", async () => {
    agent = new RawAgent(["--log-level", "warn"]);
    cwd = workspace();
    const depth = 6_000;
    const frame = `{"jsonrpc":"1.0","id":1,"method":"foo","x":${"[".repeat(depth)}${"]".repeat(depth)}}\n`;
    expect(frame.length).toBeGreaterThan(12_000);
    await agent.write(frame);
    // The SDK answers an invalid request with id null: it does not trust the frame's id.
    const reply = await agent.waitFor((f) => f.id === null, 30_000, "the -32600 reply");
    expect(errorCode(reply)).toBe(-32600);
    await provesAlive(agent, cwd, 100);
    expect(agent.problems).toEqual([]);
    expect(agent.alive).toBe(true);
  });
});
