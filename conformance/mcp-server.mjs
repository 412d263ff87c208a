// The MCP scenarios' server over stdio: `secret` returns a token a hook should redact, `broken`
// reports a tool error, `ask` asks the user for a deploy target (MCP elicitation) and returns
// the answer it got, and `policy` is what `mcp_tool` hooks call. `policy`'s arguments carry
// `log` (the scenario's hook log), `action` (base64 JSON: { tag?, out?, isError?, image?,
// sleep?, onlyIf? }, `onlyIf`: argument values that must contain the given text) and whatever
// else the handler's `input` filled in; it logs those, then answers as the action says.
import { Buffer } from "node:buffer";
import { appendFileSync } from "node:fs";
import { setTimeout } from "node:timers";
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
    { name: "policy", description: "Judges a hook's event.", inputSchema: noInput },
    { name: "ask", description: "Asks which target to deploy to.", inputSchema: noInput },
  ],
}));
const text = (t, isError = false) => ({ content: [{ type: "text", text: t }], isError });
/** `ask`: elicits a deploy target, answers with what it got. */
async function ask(ctx) {
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
}
server.setRequestHandler("tools/call", async (request, ctx) => {
  const { name } = request.params;
  if (name === "secret") return { content: [{ type: "text", text: "TOKEN=MCP-SECRET-123" }] };
  if (name === "ask") return ask(ctx);
  if (name !== "policy") return { content: [{ type: "text", text: "MCP-BROKEN" }], isError: true };
  const { log, action: encoded, event, ...args } = request.params.arguments ?? {};
  const action = JSON.parse(Buffer.from(encoded ?? "", "base64").toString("utf8") || "{}");
  const entry = { tag: action.tag, input: { hook_event_name: event }, mcpArgs: args };
  if (log) appendFileSync(log, `${JSON.stringify(entry)}\n`);
  const applies = Object.entries(action.onlyIf ?? {}).every(([k, v]) =>
    String(args[k] ?? "").includes(v),
  );
  if (action.sleep) await new Promise((r) => setTimeout(r, action.sleep));
  if (!applies) return { content: [] };
  const { out } = action;
  const text = out === undefined ? [] : [typeof out === "string" ? out : JSON.stringify(out)];
  return {
    content: [
      ...text.map((t) => ({ type: "text", text: t })),
      ...(action.image ? [{ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }] : []),
    ],
    ...(action.isError && { isError: true }),
  };
});
await server.connect(new StdioServerTransport());
