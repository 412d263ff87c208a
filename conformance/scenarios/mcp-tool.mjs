// Scenarios of `mcp_tool` hooks: both sides call the `policy` tool of the MCP scenarios' server
// (conformance/mcp-server.mjs), which logs its arguments and answers as the action says.

const bash = (command) => ({ tool: "Bash", input: { command, description: "conformance step" } });
const done = { text: "Finished." };
const MAKE_A = bash("echo made > a.txt && echo ok");
const on = (event, matcher, ...actions) => ({ [event]: [{ matcher, hooks: actions }] });
const pre = (out) => ({ hookSpecificOutput: { hookEventName: "PreToolUse", ...out } });
/** An action the `policy` tool does; `mcpTool`: { server?, tool?, input?, handler? }. */
const viaMcp = (action, mcpTool = {}) => ({ ...action, mcpTool });
const SHOW = ["hooks", "files", "results", "mcp args"];
const DENY_TEXT = {
  deviation: "the model's deny text names the hook that denied",
  deviates: ["line"],
};

export const MCP_TOOL_SCENARIOS = [
  {
    name: "mcp_tool: a policy tool denies rm and lets echo run",
    ...DENY_TEXT,
    mcp: true,
    hooks: on(
      "PreToolUse",
      "Bash",
      viaMcp({
        onlyIf: { command: "rm " },
        out: pre({ permissionDecision: "deny", permissionDecisionReason: "MCP-POLICY-NO-RM" }),
      }),
    ),
    turns: [MAKE_A, bash("rm a.txt && echo removed"), done],
    markers: ["MCP-POLICY-NO-RM"],
    show: SHOW,
  },
  {
    name: "mcp_tool: arguments fill ${path} from the hook input at any depth",
    mcp: true,
    hooks: on(
      "PreToolUse",
      "Bash",
      viaMcp(
        {},
        {
          input: {
            tool: "${tool_name}",
            whole: "${tool_input}",
            missing: "[${no.such.path}]",
            nested: { list: ["${tool_input.description}", 7, true, null], kept: "$tool_name" },
            mixed: "cmd=${tool_input.command};id=${hook_event_name}",
          },
        },
      ),
    ),
    turns: [MAKE_A, done],
    show: SHOW,
  },
  {
    name: "mcp_tool: no input sends no arguments",
    mcp: true,
    hooks: on("PreToolUse", "Bash", viaMcp({}, { input: {} })),
    turns: [MAKE_A, done],
    show: SHOW,
  },
  {
    name: "mcp_tool: legacy decision block in the answer",
    ...DENY_TEXT,
    mcp: true,
    hooks: on("PreToolUse", "Bash", viaMcp({ out: { decision: "block", reason: "MCP-BLOCK" } })),
    turns: [MAKE_A, done],
    markers: ["MCP-BLOCK"],
    show: SHOW,
  },
  ...[{}, { onFailure: "block" }].map((handler) => ({
    name: `mcp_tool: ${handler.onFailure ? "onFailure block, " : ""}a BOM before a JSON deny in the answer`,
    ...DENY_TEXT,
    mcp: true,
    hooks: on(
      "PreToolUse",
      "Bash",
      viaMcp(
        { out: `\uFEFF${JSON.stringify({ decision: "block", reason: "MCP-BOM-BLOCK" })}` },
        { handler },
      ),
    ),
    turns: [MAKE_A, done],
    markers: ["MCP-BOM-BLOCK"],
    show: SHOW,
  })),
  {
    name: "mcp_tool: a plain text answer, tool runs",
    mcp: true,
    hooks: on("PreToolUse", "Bash", viaMcp({ out: "looks fine to me" })),
    turns: [MAKE_A, done],
    show: SHOW,
  },
  {
    name: "mcp_tool: isError with a deny in its text is a non-blocking error",
    mcp: true,
    hooks: on(
      "PreToolUse",
      "Bash",
      viaMcp({ isError: true, out: pre({ permissionDecision: "deny" }) }),
    ),
    turns: [MAKE_A, done],
    show: SHOW,
  },
  {
    name: "mcp_tool: a server the session lacks is a non-blocking error",
    mcp: true,
    hooks: on("PreToolUse", "Bash", viaMcp({}, { server: "absent" })),
    turns: [MAKE_A, done],
    show: SHOW,
  },
  {
    name: "mcp_tool: onFailure block turns a missing server into a block",
    mcp: true,
    hooks: on(
      "PreToolUse",
      "Bash",
      viaMcp({}, { server: "absent", handler: { onFailure: "block" } }),
    ),
    turns: [MAKE_A, done],
    show: SHOW,
  },
  {
    name: "mcp_tool: onFailure block turns isError into a block",
    mcp: true,
    hooks: on("PreToolUse", "Bash", viaMcp({ isError: true }, { handler: { onFailure: "block" } })),
    turns: [MAKE_A, done],
    show: SHOW,
  },
  {
    name: "mcp_tool: onFailure block needs a verdict, plain text blocks",
    mcp: true,
    hooks: on("PreToolUse", "Bash", viaMcp({ out: "fine" }, { handler: { onFailure: "block" } })),
    turns: [MAKE_A, done],
    show: SHOW,
  },
  {
    name: "mcp_tool: onFailure block with an empty answer, tool runs",
    mcp: true,
    hooks: on("PreToolUse", "Bash", viaMcp({}, { handler: { onFailure: "block" } })),
    turns: [MAKE_A, done],
    show: SHOW,
  },
  {
    name: "mcp_tool: onFailure block, an image answer blocks",
    mcp: true,
    hooks: on("PreToolUse", "Bash", viaMcp({ image: true }, { handler: { onFailure: "block" } })),
    turns: [MAKE_A, done],
    show: SHOW,
  },
  {
    name: "mcp_tool: plain text on UserPromptSubmit is not context",
    mcp: true,
    hooks: on("UserPromptSubmit", undefined, viaMcp({ out: "MCP-UPS-CONTEXT" }, { input: {} })),
    turns: [MAKE_A, done],
    markers: ["MCP-UPS-CONTEXT"],
    show: ["hooks", "files", "where MCP-UPS-CONTEXT", "line MCP-UPS-CONTEXT"],
  },
  {
    name: "mcp_tool: a SessionEnd hook never reaches the server",
    mcp: true,
    hooks: on("SessionEnd", undefined, viaMcp({ tag: "END" }, { input: {} })),
    turns: [done],
    show: ["hooks", "mcp args"],
  },
  {
    name: "mcp_tool: the timeout ends a slow tool, tool runs",
    mcp: true,
    hooks: on("PreToolUse", "Bash", {
      ...viaMcp({ sleep: 4000, out: pre({ permissionDecision: "deny" }) }),
      timeout: 1,
    }),
    turns: [MAKE_A, done],
    show: SHOW,
  },
];
