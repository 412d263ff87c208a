// Scenarios of MCP elicitation: the conformance server's `ask` tool asks for a deploy target;
// Elicitation hooks answer it (Claude Code in -p mode has no user to ask), ElicitationResult
// hooks see (and may change) the answer, Notification hooks hear of it.

const done = { text: "Finished." };
const ASK = { tool: "mcp__conf__ask", input: {} };
const answer = (event, out) => ({ out: { hookSpecificOutput: { hookEventName: event, ...out } } });
/**
 * Every elicitation event logged; `elicitation`: the Elicitation hook's action. The Stop hook
 * waits before it logs and after, so a Notification hook (never awaited, started a model
 * request earlier) has logged before it, and before the run ends.
 */
const hooksWith = (elicitation, result = {}) => ({
  Elicitation: [{ matcher: "conf", hooks: [{ tag: "ask", ...elicitation }] }],
  ElicitationResult: [{ hooks: [{ tag: "result", ...result }] }],
  Notification: [{ matcher: "elicitation_dialog|elicitation_response", hooks: [{ tag: "note" }] }],
  Stop: [{ hooks: [{ tag: "wait", logAfter: 1000, sleep: 1000 }] }],
});
const SEEN = {
  deviation: "hookgate keeps permission_mode, common to every hookgate input",
  deviates: ["fields Elicitation", "fields ElicitationResult", "fields Notification"],
  mcp: true,
  turns: [ASK, done],
  results: "text",
  fields: ["Elicitation", "ElicitationResult", "Notification"],
  values: [
    "Elicitation.mcp_server_name",
    "Elicitation.message",
    "Elicitation.mode",
    "Elicitation.requested_schema",
    "ElicitationResult.action",
    "ElicitationResult.content",
    "Notification.message",
    "Notification.notification_type",
  ],
};

export const ELICITATION_SCENARIOS = [
  {
    name: "elicitation: a hook accepts with content, the tool gets it",
    ...SEEN,
    hooks: hooksWith(answer("Elicitation", { action: "accept", content: { target: "staging" } })),
  },
  {
    name: "elicitation: a hook declines",
    ...SEEN,
    hooks: hooksWith(answer("Elicitation", { action: "decline" })),
  },
  {
    name: "elicitation: a hook cancels",
    ...SEEN,
    hooks: hooksWith(answer("Elicitation", { action: "cancel" })),
  },
  {
    name: "elicitation: exit 2 declines",
    ...SEEN,
    hooks: hooksWith({ code: 2, err: "NO-ELICIT" }),
  },
  {
    name: "elicitation: no hook answers, nobody to ask",
    ...SEEN,
    hooks: hooksWith({}),
  },
  {
    name: "elicitation: ElicitationResult changes the answer",
    ...SEEN,
    hooks: hooksWith(
      {},
      answer("ElicitationResult", { action: "accept", content: { target: "prod" } }),
    ),
  },
  {
    name: "elicitation: ElicitationResult exit 2 declines",
    ...SEEN,
    hooks: hooksWith({}, { code: 2, err: "NO-RESULT" }),
  },
  {
    name: "elicitation: matcher selects by server name",
    mcp: true,
    turns: [ASK, done],
    results: "text",
    hooks: {
      Elicitation: ["conf", "other", "*"].map((m) => ({ matcher: m, hooks: [{ tag: m }] })),
    },
  },
];
