// A local stand-in for the Anthropic Messages API: each reply comes from the scenario's
// script, chosen by how many assistant turns the request already holds, so a retried or
// repeated request gets the same answer. Every request is recorded for comparison.
import { createServer } from "node:http";

/**
 * A script is a list of model turns: `{ text }` ends the turn, `{ tool, input }` asks for one
 * tool call (`tools: [...]` for several at once).
 */
export function startFakeAnthropic() {
  let script = [];
  let requests = [];
  /** Resolves when the scenario lets the model answer (see `use`). */
  let ready = () => undefined;
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      let parsed = {};
      try {
        parsed = JSON.parse(body || "{}");
      } catch {
        // A body that is not JSON is recorded as empty.
      }
      const path = (req.url ?? "").split("?")[0];
      if (path.endsWith("/count_tokens")) return json(res, { input_tokens: 100 });
      if (!path.endsWith("/messages")) return json(res, {}, 404);
      requests.push(parsed);
      const message = reply(script, parsed);
      Promise.resolve(ready()).then(() =>
        parsed.stream ? stream(res, message) : json(res, message),
      );
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      resolve({
        url: `http://127.0.0.1:${port}`,
        /**
         * Starts a scenario: a fresh script and an empty request log. `holdReplies`: every
         * reply waits until the promise it returns settles.
         */
        use(next, { holdReplies = () => undefined } = {}) {
          script = next;
          requests = [];
          ready = holdReplies;
        },
        requests: () => requests,
        close: () => new Promise((done) => server.close(done)),
      });
    });
  });
}

let ids = 0;

/** The text of an `/answer <text>` line in the request's last message (a prompt hook's question). */
function scriptedAnswer(request) {
  const last = (request.messages ?? []).at(-1);
  const content = last?.content ?? "";
  const text =
    typeof content === "string" ? content : content.map((part) => part.text ?? "").join("\n");
  return /^\s*\/answer (.*)$/m.exec(text)?.[1];
}

/** A request from an agent hook's subagent: it is offered the StructuredOutput verdict tool. */
export function isAgentHookRequest(request) {
  return (request.tools ?? []).some((t) => t.name === "StructuredOutput");
}

/**
 * An agent hook's subagent follows the `/tool <Name> <json>` lines of its prompt, one call per
 * step (as hookgate's scripted model reads them, one step for all); past them it ends with text.
 */
function agentStep(request, turn) {
  const prompt = (request.messages ?? []).find((m) => m.role === "user");
  const content = prompt?.content ?? "";
  const text =
    typeof content === "string" ? content : content.map((part) => part.text ?? "").join("\n");
  const lines = [...text.matchAll(/^\s*\/tool (\S+)(?: (.*))?$/gm)];
  const line = lines[turn];
  return line ? { tool: line[1], input: JSON.parse(line[2] || "{}") } : { text: "Done." };
}

function reply(script, request) {
  const turn = (request.messages ?? []).filter((m) => m.role === "assistant").length;
  // A prompt hook's question is answered as the scripted model answers it: its /answer line.
  const answer = scriptedAnswer(request);
  const step = isAgentHookRequest(request)
    ? agentStep(request, turn)
    : answer !== undefined
      ? { text: answer }
      : (script[turn] ?? { text: "Done." });
  const calls = step.tools ?? (step.tool ? [{ tool: step.tool, input: step.input }] : []);
  const content = calls.length
    ? calls.map((c) => ({ type: "tool_use", id: `toolu_${++ids}`, name: c.tool, input: c.input }))
    : [{ type: "text", text: step.text ?? "Done." }];
  return {
    id: `msg_${++ids}`,
    type: "message",
    role: "assistant",
    model: request.model ?? "claude-sonnet-4-5",
    content,
    stop_reason: calls.length ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 10 },
  };
}

function json(res, value, status = 200) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(value));
}

function stream(res, message) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const send = (type, data) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  send("message_start", { message: { ...message, content: [], stop_reason: null } });
  message.content.forEach((block, index) => {
    if (block.type === "text") {
      send("content_block_start", { index, content_block: { type: "text", text: "" } });
      send("content_block_delta", { index, delta: { type: "text_delta", text: block.text } });
    } else {
      send("content_block_start", { index, content_block: { ...block, input: {} } });
      const partial_json = JSON.stringify(block.input);
      send("content_block_delta", { index, delta: { type: "input_json_delta", partial_json } });
    }
    send("content_block_stop", { index });
  });
  send("message_delta", {
    delta: { stop_reason: message.stop_reason, stop_sequence: null },
    usage: { output_tokens: 10 },
  });
  send("message_stop", {});
  res.end();
}
