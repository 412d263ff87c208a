import { describe, expect, it } from "vitest";
import { z } from "zod";
import { providerCase, replayPerTest, startAgent, stream } from "../model/providers/setup.js";
import { Fixture, openWithMcp } from "./helpers.js";

const replay = replayPerTest();

const requestSchema = z.object({
  tools: z.array(z.object({ function: z.object({ name: z.string(), parameters: z.unknown() }) })),
  messages: z.array(z.object({ role: z.string(), content: z.unknown() })),
});

describe("MCP tools as a real model sees them", () => {
  it("are sent beside the built-ins with the server's JSON Schema, and the system prompt lists them", async () => {
    const fixture = new Fixture();
    try {
      const c = providerCase("openai");
      replay.server.queue(stream(c, "text"));
      const s = await replay.track(startAgent(c, replay.server.url));
      const { sessionId } = await openWithMcp(s, [fixture.stdio()]);
      await s.prompt(sessionId, "Say hello");
      const request = requestSchema.parse(replay.server.requests[0]?.body);
      const names = request.tools.map((t) => t.function.name);
      expect(names.slice(0, 6)).toEqual(["Bash", "Read", "Write", "Edit", "Glob", "Grep"]);
      expect(names).toContain("mcp__fixture__echo");
      expect(names).toContain("mcp__fixture__a_b_2");
      const echo = request.tools.find((t) => t.function.name === "mcp__fixture__echo");
      expect(echo?.function.parameters).toMatchObject({
        type: "object",
        properties: { text: { type: "string", maxLength: 100 } },
        required: ["text"],
      });
      const system = String(request.messages.find((m) => m.role === "system")?.content);
      expect(system).toContain("- mcp__fixture__echo: Echoes text back.");
    } finally {
      fixture.cleanup();
    }
  });
});
