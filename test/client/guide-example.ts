import {
  client,
  methods,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
} from "@agentclientprotocol/sdk";
import {
  HookRouter,
  spawnHookgate,
  type HookContext,
  type HookInputFor,
  type PreToolUseCallback,
  type PreToolUseResult,
} from "hookgate/client";

// What the IDE brings: its UI, and the session's directory.
declare const ui: {
  warn(message: string): void;
  render(update: unknown): void;
  ask(request: RequestPermissionRequest): Promise<RequestPermissionResponse>;
  refresh(toolInput: unknown): void;
  turnEnded(stopReason: string): void;
};
declare const cwd: string;

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
await agent.connection.agent.request(methods.agent.session.prompt, {
  sessionId,
  prompt: [{ type: "text", text: "tidy up the build directory" }],
});
await agent.connection.agent.request(methods.agent.session.close, { sessionId });
hooks.dispose(); // the session is gone: forget its callbacks
