// A three-tool MCP server over stdio for the MCP scenarios: `secret` returns a token a hook
// should redact, `broken` reports a tool error, `ask` asks the user for a deploy target (MCP
// elicitation) and returns the answer it got.
import { Server } from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";

const server = new Server(
  { name: "conformance", version: "1.0.0" },
  { capabilities: { tools: {} } },
);
const noInput = { type: "object", properties: {} };
server.setRequestHandler("tools/list", () => ({
  tools: [
    { name: "secret", description: "Returns the deploy token.", inputSchema: noInput },
    { name: "broken", description: "Always fails.", inputSchema: noInput },
    { name: "ask", description: "Asks which target to deploy to.", inputSchema: noInput },
  ],
}));
const text = (t, isError = false) => ({ content: [{ type: "text", text: t }], isError });
server.setRequestHandler("tools/call", async (request, ctx) => {
  if (request.params.name === "secret") return text("TOKEN=MCP-SECRET-123");
  if (request.params.name !== "ask") return text("MCP-BROKEN", true);
  try {
    const answer = await ctx.mcpReq.elicitInput({
      mode: "form",
      message: "Which target should I deploy to?",
      requestedSchema: {
        type: "object",
        properties: { target: { type: "string", description: "Deploy target" } },
        required: ["target"],
      },
    });
    return text(`ELICIT=${answer.action} ${JSON.stringify(answer.content ?? null)}`);
  } catch (error) {
    return text(`ELICIT-ERROR ${error.message}`, true);
  }
});
await server.connect(new StdioServerTransport());
