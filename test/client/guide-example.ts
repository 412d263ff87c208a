import {
  client,
  methods,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
} from "@agentclientprotocol/sdk";
import {
  HookRouter,
  spawnHookgate,
  type HookContext,
  type HookInputFor,
  type PreToolUseCallback,
  type PreToolUseResult,
} from "hookgate/client";

// What the IDE brings: its UI (here, the terminal), and the session's directory.
const ui = {
  warn: (message: string) => console.error(`warning: ${message}`),
  render: ({ update }: SessionNotification) => {
    if (update.sessionUpdate === "agent_message_chunk" && update.content.type === "text") {
      console.log(update.content.text);
    }
  },
  ask: async (request: RequestPermissionRequest): Promise<RequestPermissionResponse> => {
    console.log(`allowing ${request.toolCall.title ?? "a tool call"} once`);
    return { outcome: { outcome: "selected", optionId: "allow_once" } };
  },
  refresh: (toolInput: unknown) => console.log("edited:", toolInput),
  turnEnded: (stopReason: string) => console.log(`turn ended: ${stopReason}`),
};
const cwd = process.cwd();

// Gate: deny `rm -rf` in any Bash command.
const noRmRf: PreToolUseCallback = (input) =>
  JSON.stringify(input.tool_input).includes("rm -rf")
    ? { decision: "deny", reason: "rm -rf is blocked by policy" }
    : {};

// Gate: ask a policy service; the signal aborts the fetch when the agent cancels the call.
async function policy(
  input: HookInputFor<"PreToolUse">,
  toolUseID: string | undefined,
  { signal }: HookContext,
): Promise<PreToolUseResult> {
  const res = await fetch("http://localhost:7777/check", {
    method: "POST",
    body: JSON.stringify(input),
    signal,
  });
  if (!res.ok) throw new Error(`policy service answered ${res.status}`);
  return (await res.json()) as PreToolUseResult; // checked before it is sent
}

const router = new HookRouter({
  onError: (error, info) => ui.warn(`${info.hookCallbackId}: ${error}`),
});
const app = router.install(
  client({ name: "my-ide" })
    .onNotification(methods.client.session.update, ({ params }) => ui.render(params))
    .onRequest(methods.client.session.requestPermission, ({ params }) => ui.ask(params)),
);
const agent = spawnHookgate(app, { args: ["--log-level", "info"] }); // or spawn it yourself
await agent.connection.agent.request(methods.agent.initialize, {
  protocolVersion: 1,
});

const hooks = router.register({
  PreToolUse: [
    { matcher: "Bash", timeout: 5, hooks: [noRmRf] },
    { timeout: 2, onFailure: "deny", hooks: [policy] }, // must fail closed
  ],
  PostToolUse: [{ matcher: "Edit|Write", hooks: [(input) => ui.refresh(input.tool_input)] }],
  Stop: [{ hooks: [async (input) => ui.turnEnded(input.stop_reason)] }],
});
const { sessionId } = await agent.connection.agent.request(methods.agent.session.new, {
  cwd,
  mcpServers: [],
  _meta: hooks.meta,
});
// The default scripted model turns each `/tool <Name> <json>` line into a tool call.
await agent.connection.agent.request(methods.agent.session.prompt, {
  sessionId,
  prompt: [{ type: "text", text: '/tool Bash {"command": "rm -rf build"}' }],
});
await agent.connection.agent.request(methods.agent.session.close, { sessionId });
await router.idle(); // the Stop observer has run
hooks.dispose(); // the session is gone: forget its callbacks
await agent.close();
