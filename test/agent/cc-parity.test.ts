import { methods } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import { startInProcess, type Session } from "./setup.js";

let s: Session | undefined;
afterEach(async () => {
  await s?.h.close();
  s = undefined;
});

describe("matchers on events without a tool select as in Claude Code", () => {
  it("a SessionStart group matching resume stays silent on a fresh start", async () => {
    s = await startInProcess();
    const { sessionId } = await s.newSession({
      hooks: {
        SessionStart: [
          { matcher: "resume", hookCallbackIds: ["resume-only"] },
          { matcher: "startup", hookCallbackIds: ["startup-only"] },
          { matcher: "startup|resume", hookCallbackIds: ["either"] },
          { matcher: "^(clear|compact)$", hookCallbackIds: ["regex-other"] },
        ],
        SessionEnd: [
          { matcher: "close", hookCallbackIds: ["end-close"] },
          { matcher: "logout", hookCallbackIds: ["end-logout"] },
        ],
      },
    });
    await eventually(() => s!.seen.events.length >= 2);
    await s.h.agent.request(methods.agent.session.close, { sessionId });
    await eventually(() => s!.seen.events.some((e) => e.input.hook_event_name === "SessionEnd"));
    expect(s.seen.events.map((e) => `${e.input.hook_event_name}:${e.hookCallbackId}`)).toEqual([
      "SessionStart:startup-only",
      "SessionStart:either",
      "SessionEnd:end-close",
    ]);
  });
});
