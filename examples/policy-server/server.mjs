// A small policy server for hookgate's (and Claude Code's) `http` hooks: every agent of a
// team POSTs its PreToolUse input here and gets a decision from one rules file.
// Usage: npm run policy-server -- --rules rules.json [--port 8787] [--host 127.0.0.1]
import { Buffer } from "node:buffer";
import { createServer } from "node:http";
import process from "node:process";
import { parseArgs } from "node:util";
import { z } from "zod";
import { decide, loadRules } from "./rules.mjs";

/** Largest request body read; a hook input past it is refused (413). */
const MAX_BODY_BYTES = 1024 * 1024;

/** The parts of a hook input the server reads; the rest passes. */
const hookInputSchema = z.looseObject({
  hook_event_name: z.string(),
  session_id: z.string().optional(),
  tool_name: z.string().optional(),
  tool_input: z.unknown().optional(),
});

const { values } = parseArgs({
  options: {
    rules: { type: "string" },
    port: { type: "string", default: "8787" },
    host: { type: "string", default: "127.0.0.1" },
  },
});
if (!values.rules) {
  process.stderr.write("usage: policy-server --rules <rules.json> [--port N] [--host H]\n");
  process.exit(2);
}
let rules;
try {
  rules = loadRules(values.rules);
} catch (error) {
  process.stderr.write(`policy-server: ${error.message}\n`);
  process.exit(2);
}

/** One JSON line per decision on stderr: what was asked, what was answered, which rule. */
function logDecision(fields) {
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), ...fields })}\n`);
}

function answer(input) {
  if (input.hook_event_name !== "PreToolUse" || input.tool_name === undefined) return undefined;
  const rule = decide(rules, input.tool_name, input.tool_input);
  logDecision({
    session: input.session_id,
    tool: input.tool_name,
    decision: rule?.decision ?? "continue",
    ...(rule && { rule: rule.index }),
    ...(rule?.reason !== undefined && { reason: rule.reason }),
  });
  if (!rule) return undefined;
  return {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: rule.decision,
      ...(rule.reason !== undefined && { permissionDecisionReason: rule.reason }),
    },
  };
}

const server = createServer((req, res) => {
  if (req.method !== "POST") {
    res.writeHead(405, { allow: "POST" }).end();
    return;
  }
  const chunks = [];
  let size = 0;
  req.on("data", (chunk) => {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  });
  req.on("end", () => {
    if (size > MAX_BODY_BYTES) {
      res.writeHead(413).end();
      return;
    }
    let input;
    try {
      input = hookInputSchema.parse(JSON.parse(Buffer.concat(chunks).toString("utf8")));
    } catch {
      res.writeHead(400).end();
      return;
    }
    const reply = answer(input);
    // An empty 2xx body: no decision, the call goes on.
    res.writeHead(200, { "content-type": "application/json" });
    res.end(reply === undefined ? "" : JSON.stringify(reply));
  });
});

server.listen(Number(values.port), values.host, () => {
  const { address, port } = server.address();
  process.stderr.write(
    `policy-server: ${rules.length} rules from ${values.rules}, listening on http://${address}:${port}/\n`,
  );
});
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    server.close();
    server.closeAllConnections();
  });
}
