// A two-tool MCP server over stdio for the MCP scenarios: `secret` returns a token a hook
// should redact, `broken` reports a tool error.
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
  ],
}));
server.setRequestHandler("tools/call", (request) =>
  request.params.name === "secret"
    ? { content: [{ type: "text", text: "TOKEN=MCP-SECRET-123" }] }
    : { content: [{ type: "text", text: "MCP-BROKEN" }], isError: true },
);
await server.connect(new StdioServerTransport());
