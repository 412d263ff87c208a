// The scenarios: a settings file's hooks (each handler is an action for hook.mjs), the
// model's scripted turns, and which optional facets to compare. Names say what is pinned.
import { COMPACTION_SCENARIOS } from "./scenarios/compaction.mjs";
import { CONFIG_CHANGE_SCENARIOS } from "./scenarios/config-change.mjs";
import { FILE_CHANGED_SCENARIOS } from "./scenarios/file-changed.mjs";
import { ELICITATION_SCENARIOS } from "./scenarios/elicitation.mjs";
import { INSTRUCTION_SCENARIOS } from "./scenarios/instructions.mjs";
import { MCP_TOOL_SCENARIOS } from "./scenarios/mcp-tool.mjs";
import { MODEL_SWITCH_SCENARIOS } from "./scenarios/model-switch.mjs";
import { TOOL_SHAPE_SCENARIOS } from "./scenarios/tool-shapes.mjs";

const bash = (command) => ({ tool: "Bash", input: { command, description: "conformance step" } });
const write = (file_path, content) => ({ tool: "Write", input: { file_path, content } });
const done = { text: "Finished." };
/** One group for `event`, its handlers given as hook.mjs actions. */
const on = (event, matcher, ...actions) => ({ [event]: [{ matcher, hooks: actions }] });
const pre = (out, extra = {}) => ({
  out: { hookSpecificOutput: { hookEventName: "PreToolUse", ...out } },
  ...extra,
});
const post = (out) => ({ out: { hookSpecificOutput: { hookEventName: "PostToolUse", ...out } } });
const MAKE_A = bash("echo made > a.txt && echo ok");
/** An action done by the shared http hook server; `handler`: more fields of the handler. */
const viaHttp = (action, handler = {}) => ({ ...action, http: { handler } });
const HTTP_SHOW = ["hooks", "files", "results", "http"];

// Wording hookgate keeps on purpose (docs/hooks.md, "Where hookgate differs"): only the
// `line` facet (the words around the marker) may differ for these.
const DENY_TEXT = {
  deviation: "the model's deny text names the hook that denied",
  deviates: ["line"],
};
const ASK_TEXT = {
  deviation: "the refusal after an ask names the hook that asked",
  deviates: ["line"],
};
const MODE_FIELD = "hookgate keeps permission_mode, common to every hookgate input";
/** Input fields hookgate keeps that Claude Code 2.1.332 does not send. */
const KEPT_FIELDS = {
  Stop: "hookgate keeps stop_reason: how the turn ended, for observers",
  SessionStart: MODE_FIELD,
  SessionEnd: MODE_FIELD,
};

export const SCENARIOS = [
  // PreToolUse: exit codes
  {
    name: "pre: exit 0, no output, tool runs",
    hooks: on("PreToolUse", "Bash", {}),
    turns: [MAKE_A, done],
  },
  {
    name: "pre: exit 2 blocks, stderr reaches the model",
    ...DENY_TEXT,
    hooks: on("PreToolUse", "Bash", { code: 2, err: "BLOCKED-BY-EXIT2" }),
    turns: [MAKE_A, done],
    markers: ["BLOCKED-BY-EXIT2"],
  },
  {
    name: "pre: exit 1 is a non-blocking error",
    hooks: on("PreToolUse", "Bash", { code: 1, err: "EXIT1-STDERR" }),
    turns: [MAKE_A, done],
    markers: ["EXIT1-STDERR"],
  },
  {
    name: "pre: exit 2 ignores JSON allow on stdout",
    hooks: on("PreToolUse", "Bash", {
      code: 2,
      err: "EXIT2-WINS",
      ...pre({ permissionDecision: "allow" }),
    }),
    turns: [MAKE_A, done],
  },
  {
    name: "pre: exit 1 with JSON deny on stdout",
    hooks: on("PreToolUse", "Bash", {
      code: 1,
      ...pre({ permissionDecision: "deny", permissionDecisionReason: "X1" }),
    }),
    turns: [MAKE_A, done],
  },
  {
    name: "pre: stdout starting with { that is not JSON",
    hooks: on("PreToolUse", "Bash", { out: "{not json" }),
    turns: [MAKE_A, done],
  },
  // Whitespace JSON does not allow (a BOM, a no-break space) before a JSON deny.
  ...[
    ["a BOM", "\uFEFF", "BOM-DENY"],
    ["a no-break space", "\u00A0", "NBSP-DENY"],
  ].map(([what, lead, marker]) => ({
    name: `pre: ${what} before a JSON deny on stdout`,
    ...DENY_TEXT,
    hooks: on("PreToolUse", "Bash", {
      out: `${lead}${JSON.stringify(pre({ permissionDecision: "deny", permissionDecisionReason: marker }).out)}`,
    }),
    turns: [MAKE_A, done],
    markers: [marker],
  })),
  // Fields Claude Code does not know: hookgate keeps its verdict and only warns.
  {
    name: "pre: unknown field permissionDecision one level too high",
    hooks: on("PreToolUse", "Bash", { out: { permissionDecision: "deny", reason: "TOO-HIGH" } }),
    turns: [MAKE_A, done],
    markers: ["TOO-HIGH"],
  },
  {
    name: "pre: unknown field decison (a typo)",
    hooks: on("PreToolUse", "Bash", { out: { decison: "block", reason: "TYPO" } }),
    turns: [MAKE_A, done],
    markers: ["TYPO"],
  },
  {
    name: "pre: unknown field beside a known deny",
    ...DENY_TEXT,
    hooks: on("PreToolUse", "Bash", {
      out: {
        extraTop: 1,
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "deny",
          permissionDecisionReason: "KNOWN-DENY",
          extra: 1,
        },
      },
    }),
    turns: [MAKE_A, done],
    markers: ["KNOWN-DENY"],
  },
  // PreToolUse: decision fields
  {
    name: "pre: permissionDecision deny + reason",
    ...DENY_TEXT,
    hooks: on(
      "PreToolUse",
      "Bash",
      pre({ permissionDecision: "deny", permissionDecisionReason: "DENY-REASON-1" }),
    ),
    turns: [MAKE_A, done],
    markers: ["DENY-REASON-1"],
  },
  {
    name: "pre: permissionDecision allow skips the prompt (default mode)",
    mode: "default",
    hooks: on("PreToolUse", "Bash", pre({ permissionDecision: "allow" })),
    turns: [MAKE_A, done],
  },
  {
    name: "pre: permissionDecision ask, refused, model gets the reason",
    ...ASK_TEXT,
    mode: "default",
    hooks: on(
      "PreToolUse",
      "Bash",
      pre({ permissionDecision: "ask", permissionDecisionReason: "ASK-REASON-1" }),
    ),
    turns: [MAKE_A, done],
    markers: ["ASK-REASON-1"],
  },
  {
    name: "pre: permissionDecision ask in bypassPermissions still asks",
    ...ASK_TEXT,
    hooks: on(
      "PreToolUse",
      "Bash",
      pre({ permissionDecision: "ask", permissionDecisionReason: "ASK-REASON-2" }),
    ),
    turns: [MAKE_A, done],
    markers: ["ASK-REASON-2"],
  },
  {
    name: "pre: a deny beats another hook's allow",
    ...DENY_TEXT,
    hooks: {
      PreToolUse: [
        { matcher: "Bash", hooks: [{ tag: "allow", ...pre({ permissionDecision: "allow" }) }] },
        {
          matcher: "Bash",
          hooks: [
            {
              tag: "deny",
              // hookgate ends the other hooks at the first deny: let the allow one finish.
              sleep: 1000,
              ...pre({ permissionDecision: "deny", permissionDecisionReason: "DENY-WINS" }),
            },
          ],
        },
      ],
    },
    turns: [MAKE_A, done],
    markers: ["DENY-WINS"],
  },
  {
    name: "pre: permissionDecision defer ends the turn",
    hooks: on("PreToolUse", "Bash", pre({ permissionDecision: "defer" })),
    turns: [MAKE_A, done],
  },
  {
    name: "pre: legacy decision block",
    ...DENY_TEXT,
    hooks: on("PreToolUse", "Bash", { out: { decision: "block", reason: "LEGACY-BLOCK" } }),
    turns: [MAKE_A, done],
    markers: ["LEGACY-BLOCK"],
  },
  {
    name: "pre: legacy decision approve (default mode)",
    mode: "default",
    hooks: on("PreToolUse", "Bash", { out: { decision: "approve" } }),
    turns: [MAKE_A, done],
  },
  {
    name: "pre: updatedInput rewrites the command",
    hooks: on(
      "PreToolUse",
      "Bash",
      pre({ permissionDecision: "allow", updatedInput: { command: "echo rewritten > b.txt" } }),
    ),
    turns: [MAKE_A, done],
  },
  {
    name: "pre: additionalContext reaches the model",
    hooks: on("PreToolUse", "Bash", pre({ additionalContext: "PRE-CONTEXT-1" })),
    turns: [MAKE_A, done],
    markers: ["PRE-CONTEXT-1"],
  },
  {
    name: "pre: systemMessage is for the user only",
    hooks: on("PreToolUse", "Bash", { out: { systemMessage: "SYSMSG-1" } }),
    turns: [MAKE_A, done],
    markers: ["SYSMSG-1"],
  },
  {
    name: "pre: continue false",
    deviation: "hookgate denies the call; CC runs it, then stops",
    hooks: on("PreToolUse", "Bash", { out: { continue: false, stopReason: "STOP-REASON-1" } }),
    turns: [MAKE_A, done],
  },
  {
    name: "pre: deny under a wrong hookEventName",
    deviation: "hookgate denies; CC reads a hook error and runs the tool",
    hooks: on("PreToolUse", "Bash", {
      out: {
        hookSpecificOutput: {
          hookEventName: "PostToolUse",
          permissionDecision: "deny",
          permissionDecisionReason: "WRONG-EVENT",
        },
      },
    }),
    turns: [MAKE_A, done],
  },
  {
    name: "pre: async hook's exit 2 does not block",
    hooks: on("PreToolUse", "Bash", { code: 2, err: "ASYNC-BLOCK", async: true }),
    turns: [MAKE_A, done],
  },
  // prompt hooks: both sides ask the fake model, which answers the question's /answer line
  {
    name: "prompt hook: ok false blocks the call and ends the turn",
    hooks: on("PreToolUse", "Bash", {
      prompt: 'Block file writes.\n/answer {"ok": false, "reason": "PROMPT-DENY"}',
    }),
    turns: [MAKE_A, done],
    markers: ["PROMPT-DENY"],
    show: ["files", "results", "requests", "end"],
  },
  {
    name: "prompt hook: ok true lets the call run",
    hooks: on("PreToolUse", "Bash", { prompt: '/answer {"ok": true, "reason": "fine"}' }),
    turns: [MAKE_A, done],
    show: ["files", "results"],
  },
  // agent hooks: both sides run a subagent on the fake model, which follows the /tool lines of
  // the hook's prompt one step each (a Read, then the StructuredOutput verdict)
  {
    name: "agent hook: a Read then ok false blocks the call, the turn goes on",
    ...DENY_TEXT,
    files: { "policy.md": "No new files.\n" },
    hooks: on("PreToolUse", "Bash", {
      agent: [
        "Follow policy.md. $ARGUMENTS",
        '/tool Read {"file_path": "$CWD/policy.md"}',
        '/tool StructuredOutput {"ok": false, "reason": "AGENT-DENY"}',
      ].join("\n"),
    }),
    turns: [MAKE_A, done],
    markers: ["AGENT-DENY"],
    show: ["files", "results", "requests", "end", "agent requests", "agent results"],
  },
  {
    name: "agent hook: ok true lets the call run",
    hooks: on("PreToolUse", "Bash", {
      agent: '/tool StructuredOutput {"ok": true, "reason": "fine"}',
    }),
    turns: [MAKE_A, done],
    show: ["files", "results", "agent requests"],
  },
  {
    name: "agent hook: no verdict after one reminder lets the call run",
    hooks: on("PreToolUse", "Bash", { agent: "Say something, decide nothing." }),
    turns: [MAKE_A, done],
    show: ["files", "results", "agent requests"],
  },
  {
    name: "agent hook: the subagent's own Read and the session's Read hook",
    deviation:
      "hookgate runs the subagent's read-only tools ungated: no hook is asked about them (no recursion)",
    deviates: ["hooks"],
    files: { "policy.md": "No new files.\n" },
    hooks: {
      PreToolUse: [
        {
          matcher: "Bash",
          hooks: [
            {
              agent: [
                "Follow policy.md.",
                '/tool Read {"file_path": "$CWD/policy.md"}',
                '/tool StructuredOutput {"ok": true}',
              ].join("\n"),
            },
          ],
        },
        { matcher: "Read", hooks: [{ tag: "read" }] },
      ],
    },
    turns: [MAKE_A, done],
    show: ["hooks", "files", "agent requests", "agent results"],
  },
  {
    name: "agent hook: on SessionStart it is not run",
    hooks: on("SessionStart", undefined, {
      agent: '/tool StructuredOutput {"ok": false, "reason": "SS-NO"}',
    }),
    turns: [MAKE_A, done],
    markers: ["SS-NO"],
    show: ["files", "agent requests"],
  },
  {
    name: "agent hook: ok false on Stop blocks the stop, the feedback alone",
    hooks: on("Stop", undefined, {
      agent: '/tool StructuredOutput {"ok": false, "reason": "STOP-NO"}',
    }),
    turns: [MAKE_A, done],
    markers: ["STOP-NO"],
    show: ["files", "agent requests", "requests", "end"],
  },
  {
    name: "agent hook: the subagent's system prompt",
    agentSystem: true,
    deviation:
      "hookgate's subagent reads only the workspace, so it is told there is no transcript file to read",
    deviates: ["agent system"],
    hooks: on("PreToolUse", "Bash", { agent: '/tool StructuredOutput {"ok": true}' }),
    turns: [MAKE_A, done],
    show: ["agent system"],
  },
  // http hooks: both sides POST to one local server (conformance/http-hook.mjs)
  {
    name: "http: empty 2xx body, tool runs",
    hooks: on("PreToolUse", "Bash", viaHttp({})),
    turns: [MAKE_A, done],
    show: HTTP_SHOW,
  },
  {
    name: "http: 2xx JSON deny blocks, reason reaches the model",
    ...DENY_TEXT,
    hooks: on(
      "PreToolUse",
      "Bash",
      viaHttp(pre({ permissionDecision: "deny", permissionDecisionReason: "HTTP-DENY" })),
    ),
    turns: [MAKE_A, done],
    markers: ["HTTP-DENY"],
    show: HTTP_SHOW,
  },
  {
    name: "http: legacy decision block in the body",
    ...DENY_TEXT,
    hooks: on("PreToolUse", "Bash", viaHttp({ out: { decision: "block", reason: "HTTP-BLOCK" } })),
    turns: [MAKE_A, done],
    markers: ["HTTP-BLOCK"],
    show: HTTP_SHOW,
  },
  {
    name: "http: a 500 with a deny body is a non-blocking error",
    hooks: on(
      "PreToolUse",
      "Bash",
      viaHttp({ status: 500, ...pre({ permissionDecision: "deny" }) }),
    ),
    turns: [MAKE_A, done],
    show: HTTP_SHOW,
  },
  {
    name: "http: a 2xx body that is not JSON is a non-blocking error",
    hooks: on("PreToolUse", "Bash", viaHttp({ out: "deny" })),
    turns: [MAKE_A, done],
    show: HTTP_SHOW,
  },
  {
    name: "http: a redirect is not followed",
    hooks: on("PreToolUse", "Bash", viaHttp({ status: 307, location: "/" })),
    turns: [MAKE_A, done],
    show: HTTP_SHOW,
  },
  {
    name: "http: a refused connection is a non-blocking error",
    hooks: on("PreToolUse", "Bash", { http: { url: "http://127.0.0.1:9/hook" } }),
    turns: [MAKE_A, done],
    show: HTTP_SHOW,
  },
  {
    name: "http: onFailure block turns a 500 into a block",
    hooks: on("PreToolUse", "Bash", viaHttp({ status: 500 }, { onFailure: "block" })),
    turns: [MAKE_A, done],
    show: HTTP_SHOW,
  },
  {
    name: "http: the timeout ends a slow server's exchange, tool runs",
    hooks: on("PreToolUse", "Bash", {
      ...viaHttp({ sleep: 4000, ...pre({ permissionDecision: "deny" }) }),
      timeout: 1,
    }),
    turns: [MAKE_A, done],
    show: HTTP_SHOW,
  },
  {
    name: "http: headers fill only allowedEnvVars",
    env: { CONF_POLICY: "policy-1", CONF_SECRET: "secret-1" },
    hooks: on(
      "PreToolUse",
      "Bash",
      viaHttp(
        {},
        {
          headers: { "X-Policy": "team $CONF_POLICY", "X-Secret": "${CONF_SECRET}" },
          allowedEnvVars: ["CONF_POLICY"],
        },
      ),
    ),
    turns: [MAKE_A, done],
    show: HTTP_SHOW,
  },
  {
    name: "http: PostToolUse additionalContext from the body",
    hooks: on("PostToolUse", "Bash", viaHttp(post({ additionalContext: "HTTP-CONTEXT" }))),
    turns: [MAKE_A, done],
    markers: ["HTTP-CONTEXT"],
    show: HTTP_SHOW,
  },
  {
    name: "http: UserPromptSubmit decision block",
    hooks: {
      UserPromptSubmit: [
        { hooks: [viaHttp({ out: { decision: "block", reason: "HTTP-PROMPT-BLOCK" } })] },
      ],
    },
    turns: [MAKE_A, done],
    show: HTTP_SHOW,
  },
  {
    name: "env: the model's API key does not reach hooks",
    deviation: "CC passes its own key to hooks; hookgate never passes model keys",
    hooks: on("PreToolUse", "Bash", { probe: ["ANTHROPIC_API_KEY", "CLAUDE_PROJECT_DIR"] }),
    turns: [MAKE_A, done],
  },
  {
    name: "env: Claude Code's session variables reach hooks",
    show: ["hook env"],
    hooks: on("PreToolUse", "Bash", {
      probe: ["CLAUDE_CODE_SESSION_ID=session_id", "CLAUDE_PROJECT_DIR=cwd", "CLAUDE_PID"],
    }),
    turns: [MAKE_A, done],
  },
  {
    name: "env: variables that name Claude Code itself",
    deviation:
      "hookgate is not Claude Code: no CLAUDECODE nor CLAUDE_CODE_ENTRYPOINT (docs/hooks.md)",
    deviates: ["hook env"],
    hooks: on("PreToolUse", "Bash", {
      probe: ["CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT", "AI_AGENT"],
    }),
    turns: [MAKE_A, done],
  },
  // Matchers
  {
    name: "matcher: exact name misses another tool",
    hooks: on("PreToolUse", "Bash", { code: 2, err: "NOT-FOR-WRITE" }),
    turns: [write("$CWD/w.txt", "written"), done],
  },
  {
    name: "matcher: list Edit|Write",
    hooks: on("PreToolUse", "Edit|Write", { code: 2, err: "LIST-MATCH" }),
    turns: [write("$CWD/w.txt", "written"), done],
  },
  {
    name: "matcher: regex ^Wr.*",
    hooks: on("PreToolUse", "^Wr.*", { code: 2, err: "REGEX-MATCH" }),
    turns: [write("$CWD/w.txt", "written"), done],
  },
  {
    name: "matcher: * matches every tool",
    hooks: on("PreToolUse", "*", { tag: "star" }),
    turns: [MAKE_A, write("$CWD/w.txt", "w"), done],
  },
  {
    name: "matcher: empty string matches",
    hooks: on("PreToolUse", "", { tag: "empty" }),
    turns: [MAKE_A, done],
  },
  {
    name: "matcher: absent matches",
    hooks: on("PreToolUse", undefined, { tag: "absent" }),
    turns: [MAKE_A, done],
  },
  {
    name: "matcher: case-sensitive (bash)",
    hooks: on("PreToolUse", "bash", { tag: "lower" }),
    turns: [MAKE_A, done],
  },
  {
    name: "dedup: one command in groups Bash and *",
    hooks: {
      PreToolUse: [
        { matcher: "Bash", hooks: [{ tag: "same" }] },
        { matcher: "*", hooks: [{ tag: "same" }] },
      ],
    },
    turns: [MAKE_A, done],
  },
  {
    name: "dedup: two different commands both run",
    hooks: {
      PreToolUse: [
        { matcher: "Bash", hooks: [{ tag: "one" }] },
        { matcher: "*", hooks: [{ tag: "two" }] },
      ],
    },
    turns: [MAKE_A, done],
  },
  // PostToolUse
  {
    name: "post: observer fires after the tool",
    hooks: on("PostToolUse", "Bash", {}),
    turns: [MAKE_A, done],
  },
  {
    name: "post: decision block + reason",
    hooks: on("PostToolUse", "Bash", { out: { decision: "block", reason: "POST-BLOCK-1" } }),
    turns: [MAKE_A, done],
    markers: ["POST-BLOCK-1"],
  },
  {
    name: "post: additionalContext",
    hooks: on("PostToolUse", "Bash", post({ additionalContext: "POST-CONTEXT-1" })),
    turns: [MAKE_A, done],
    markers: ["POST-CONTEXT-1"],
  },
  {
    name: "post: block reason and additionalContext from one hook",
    hooks: on("PostToolUse", "Bash", {
      out: {
        decision: "block",
        reason: "POST-BLOCK-2",
        hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "POST-CONTEXT-2" },
      },
    }),
    turns: [MAKE_A, done],
    markers: ["POST-BLOCK-2", "POST-CONTEXT-2"],
  },
  {
    name: "post: additionalContext from two hooks",
    hooks: on(
      "PostToolUse",
      "Bash",
      { tag: "one", ...post({ additionalContext: "POST-CONTEXT-3" }) },
      { tag: "two", ...post({ additionalContext: "POST-CONTEXT-4" }) },
    ),
    turns: [MAKE_A, done],
    markers: ["POST-CONTEXT-3", "POST-CONTEXT-4"],
  },
  {
    name: "pre and post: additionalContext on one call",
    hooks: {
      ...on("PreToolUse", "Bash", pre({ additionalContext: "PRE-CONTEXT-2" })),
      ...on("PostToolUse", "Bash", post({ additionalContext: "POST-CONTEXT-5" })),
    },
    turns: [MAKE_A, done],
    markers: ["PRE-CONTEXT-2", "POST-CONTEXT-5"],
  },
  {
    name: "post: additionalContext on two calls of one step",
    hooks: on("PostToolUse", "Bash", post({ additionalContext: "POST-CONTEXT-6" })),
    turns: [{ tools: [MAKE_A, bash("echo second")] }, done],
    markers: ["POST-CONTEXT-6"],
  },
  {
    name: "post: exit 2 stderr reaches the model",
    hooks: on("PostToolUse", "Bash", { code: 2, err: "POST-EXIT2" }),
    turns: [MAKE_A, done],
    markers: ["POST-EXIT2"],
  },
  {
    name: "post: updatedToolOutput string on Bash is rejected",
    hooks: on("PostToolUse", "Bash", post({ updatedToolOutput: "REPLACED-STRING" })),
    turns: [MAKE_A, done],
    results: "text",
  },
  {
    name: "post: updatedToolOutput in Bash's shape",
    hooks: on(
      "PostToolUse",
      "Bash",
      post({
        updatedToolOutput: {
          stdout: "REPLACED-STDOUT",
          stderr: "",
          interrupted: false,
          isImage: false,
        },
      }),
    ),
    turns: [MAKE_A, done],
    results: "text",
  },
  // Failures
  {
    name: "bash: non-zero exit is a tool error",
    hooks: {
      PostToolUse: [{ hooks: [{ tag: "post" }] }],
      PostToolUseFailure: [{ hooks: [{ tag: "failure" }] }],
    },
    turns: [bash("echo partial; exit 3"), done],
    results: "text",
  },
  {
    name: "failure: Read of a missing file",
    hooks: {
      PostToolUse: [{ hooks: [{ tag: "post" }] }],
      PostToolUseFailure: [
        {
          hooks: [
            {
              tag: "failure",
              out: {
                hookSpecificOutput: {
                  hookEventName: "PostToolUseFailure",
                  additionalContext: "FAIL-CONTEXT-1",
                },
              },
            },
          ],
        },
      ],
    },
    turns: [{ tool: "Read", input: { file_path: "$CWD/missing.txt" } }, done],
    markers: ["FAIL-CONTEXT-1"],
  },
  // UserPromptSubmit
  {
    name: "prompt: additionalContext JSON",
    hooks: on("UserPromptSubmit", undefined, {
      out: {
        hookSpecificOutput: {
          hookEventName: "UserPromptSubmit",
          additionalContext: "UPS-CONTEXT-1",
        },
      },
    }),
    turns: [done],
    markers: ["UPS-CONTEXT-1"],
  },
  {
    name: "prompt: plain stdout is context",
    hooks: on("UserPromptSubmit", undefined, { out: "UPS-PLAIN-1" }),
    turns: [done],
    markers: ["UPS-PLAIN-1"],
  },
  {
    name: "prompt: exit 2 blocks the prompt",
    hooks: on("UserPromptSubmit", undefined, { code: 2, err: "UPS-BLOCKED" }),
    turns: [MAKE_A, done],
  },
  {
    name: "prompt: decision block",
    hooks: on("UserPromptSubmit", undefined, {
      out: { decision: "block", reason: "UPS-BLOCK-JSON" },
    }),
    turns: [MAKE_A, done],
  },
  // Stop
  {
    name: "stop: block once, turn goes on",
    hooks: on("Stop", undefined, {
      out: { decision: "block", reason: "STOP-AGAIN-1" },
      onlyIf: { stop_hook_active: false },
    }),
    turns: [done, { text: "Really finished." }],
    markers: ["STOP-AGAIN-1"],
  },
  {
    name: "stop: exit 2 blocks once",
    hooks: on("Stop", undefined, {
      code: 2,
      err: "STOP-EXIT2",
      onlyIf: { stop_hook_active: false },
    }),
    turns: [done, { text: "Really finished." }],
    markers: ["STOP-EXIT2"],
  },
  {
    name: "stop: additionalContext continues the turn",
    hooks: on("Stop", undefined, {
      out: { hookSpecificOutput: { hookEventName: "Stop", additionalContext: "STOP-CONTEXT-1" } },
      onlyIf: { stop_hook_active: false },
    }),
    turns: [done, { text: "Really finished." }],
    markers: ["STOP-CONTEXT-1"],
  },
  {
    name: "stop: always blocking hits the cap",
    hooks: on("Stop", undefined, { out: { decision: "block", reason: "STOP-FOREVER" } }),
    turns: [done],
  },
  {
    name: "stop: continue false ends the turn",
    hooks: on("Stop", undefined, { out: { continue: false, stopReason: "STOP-CONTINUE-FALSE" } }),
    turns: [done, { text: "Never asked." }],
    markers: ["STOP-CONTINUE-FALSE"],
  },
  {
    name: "prompt: continue false keeps the prompt from the model",
    hooks: on("UserPromptSubmit", undefined, {
      out: { continue: false, stopReason: "UPS-STOPPED" },
    }),
    turns: [MAKE_A, done],
  },
  // SessionStart
  {
    name: "session start: additionalContext",
    hooks: on("SessionStart", undefined, {
      out: {
        hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "SS-CONTEXT-1" },
      },
    }),
    turns: [done],
    markers: ["SS-CONTEXT-1"],
  },
  {
    name: "session start: plain stdout",
    hooks: on("SessionStart", undefined, { out: "SS-PLAIN-1" }),
    turns: [done],
    markers: ["SS-PLAIN-1"],
  },
  {
    name: "session start: matchers select by source",
    hooks: {
      SessionStart: ["startup", "resume", "clear", "compact", "*"].map((m) => ({
        matcher: m,
        hooks: [{ tag: m }],
      })),
    },
    turns: [done],
  },
  {
    name: "session start: CLAUDE_ENV_FILE exports reach Bash",
    hooks: on("SessionStart", undefined, { env: "export CONF_VAR=from-env-file\n" }),
    turns: [bash('echo "$CONF_VAR" > env.txt'), done],
  },
  {
    name: "session start: initialUserMessage is a turn before the prompt",
    hooks: {
      ...on("SessionStart", undefined, {
        out: {
          hookSpecificOutput: {
            hookEventName: "SessionStart",
            initialUserMessage: "ISM-OPENING-1",
          },
        },
      }),
      ...on("UserPromptSubmit", undefined, { tag: "ups" }),
      ...on("Stop", undefined, { tag: "stop" }),
    },
    turns: [done, { text: "Second answer." }],
    markers: ["ISM-OPENING-1"],
  },
  // Turn-level events
  {
    name: "post tool batch: once after the step's calls, with each call",
    hooks: {
      ...on("PostToolUse", undefined, { tag: "post" }),
      ...on("PostToolBatch", undefined, { tag: "batch" }),
    },
    turns: [{ tools: [MAKE_A, bash("echo second")] }, done],
    fields: ["PostToolBatch"],
    // Not the ids: the fake server numbers them per run.
    values: [
      "PostToolBatch.tool_calls/0/tool_input",
      "PostToolBatch.tool_calls/0/tool_response",
      "PostToolBatch.tool_calls/1/tool_response",
    ],
  },
  {
    name: "post tool batch: additionalContext",
    hooks: on("PostToolBatch", undefined, {
      out: {
        hookSpecificOutput: { hookEventName: "PostToolBatch", additionalContext: "PTB-CONTEXT-1" },
      },
    }),
    turns: [MAKE_A, done],
    markers: ["PTB-CONTEXT-1"],
  },
  // SessionEnd
  {
    name: "session end: matchers select by reason",
    hooks: {
      SessionEnd: ["clear", "logout", "prompt_input_exit", "other", "*"].map((m) => ({
        matcher: m,
        hooks: [{ tag: m }],
      })),
    },
    turns: [done],
  },
  // MCP tools
  {
    name: "mcp: PreToolUse regex matcher denies an MCP tool",
    ...DENY_TEXT,
    mcp: true,
    hooks: on("PreToolUse", "mcp__conf__.*", { code: 2, err: "MCP-DENIED" }),
    turns: [{ tool: "mcp__conf__secret", input: {} }, done],
    markers: ["MCP-DENIED", "MCP-SECRET-123"],
  },
  {
    name: "mcp: PostToolUse updatedMCPToolOutput replaces what the model sees",
    mcp: true,
    hooks: on(
      "PostToolUse",
      "mcp__conf__secret",
      post({ updatedMCPToolOutput: [{ type: "text", text: "TOKEN=[REDACTED]" }] }),
    ),
    turns: [{ tool: "mcp__conf__secret", input: {} }, done],
    markers: ["MCP-SECRET-123", "[REDACTED]"],
  },
  {
    name: "mcp: updatedToolOutput beside updatedMCPToolOutput",
    mcp: true,
    hooks: on(
      "PostToolUse",
      "mcp__conf__secret",
      post({
        updatedMCPToolOutput: [{ type: "text", text: "FROM-MCP-FIELD" }],
        updatedToolOutput: "FROM-TOOL-FIELD",
      }),
    ),
    turns: [{ tool: "mcp__conf__secret", input: {} }, done],
    markers: ["MCP-SECRET-123", "FROM-MCP-FIELD", "FROM-TOOL-FIELD"],
  },
  {
    name: "mcp: a tool error fires PostToolUseFailure",
    mcp: true,
    hooks: {
      PostToolUse: [{ hooks: [{ tag: "post" }] }],
      PostToolUseFailure: [{ hooks: [{ tag: "failure" }] }],
    },
    turns: [{ tool: "mcp__conf__broken", input: {} }, done],
    results: "text",
  },
  // Permission step
  {
    name: "permission: default mode, nobody to ask, call refused",
    mode: "default",
    turns: [MAKE_A, done],
  },
  {
    name: "permission request: hook allows",
    mode: "default",
    hooks: on("PermissionRequest", "Bash", {
      out: {
        hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } },
      },
    }),
    turns: [MAKE_A, done],
  },
  {
    name: "permission request: hook denies with a message",
    mode: "default",
    hooks: on("PermissionRequest", "Bash", {
      out: {
        hookSpecificOutput: {
          hookEventName: "PermissionRequest",
          decision: { behavior: "deny", message: "PR-DENY-1" },
        },
      },
    }),
    turns: [MAKE_A, done],
    markers: ["PR-DENY-1"],
    results: "text",
  },
  {
    name: "permission request: hook allows with updatedInput",
    mode: "default",
    hooks: on("PermissionRequest", "Bash", {
      out: {
        hookSpecificOutput: {
          hookEventName: "PermissionRequest",
          decision: { behavior: "allow", updatedInput: { command: "echo changed > c.txt" } },
        },
      },
    }),
    turns: [MAKE_A, done],
  },
  {
    name: "permission request: deny with interrupt ends the turn",
    mode: "default",
    hooks: on("PermissionRequest", "Bash", {
      out: {
        hookSpecificOutput: {
          hookEventName: "PermissionRequest",
          decision: { behavior: "deny", message: "PR-INTERRUPT", interrupt: true },
        },
      },
    }),
    turns: [MAKE_A, done],
  },
  {
    name: "permission request: observer only",
    mode: "default",
    hooks: on("PermissionRequest", "Bash", {}),
    turns: [MAKE_A, done],
  },
  {
    name: "permission request: not asked in bypass mode",
    hooks: on("PermissionRequest", "*", {}),
    turns: [MAKE_A, done],
  },
  // File tools
  {
    name: "edit: hooks see Edit, file changes",
    files: { "e.txt": "old text\n" },
    hooks: {
      PreToolUse: [{ matcher: "Edit", hooks: [{ tag: "pre" }] }],
      PostToolUse: [{ matcher: "Edit", hooks: [{ tag: "post" }] }],
    },
    // Claude Code edits only a file read first in the session.
    turns: [
      { tool: "Read", input: { file_path: "$CWD/e.txt" } },
      { tool: "Edit", input: { file_path: "$CWD/e.txt", old_string: "old", new_string: "new" } },
      done,
    ],
  },
  // Hook input fields, one event at a time
  ...["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SessionStart", "SessionEnd"].map(
    (event) => ({
      name: `fields: ${event}`,
      hooks: on(event, undefined, {}),
      turns: [MAKE_A, done],
      fields: [event],
      ...(KEPT_FIELDS[event] && { deviation: KEPT_FIELDS[event], deviates: [`fields ${event}`] }),
    }),
  ),
  {
    name: "fields: PostToolUseFailure",
    hooks: on("PostToolUseFailure", undefined, {}),
    turns: [bash("exit 4"), done],
    fields: ["PostToolUseFailure"],
  },
  {
    name: "fields: PermissionRequest",
    mode: "default",
    hooks: on("PermissionRequest", undefined, {}),
    turns: [MAKE_A, done],
    fields: ["PermissionRequest"],
  },
  {
    name: "values: SessionStart source and mode, SessionEnd reason",
    deviation: MODE_FIELD,
    deviates: ["value SessionStart.permission_mode"],
    mode: "default",
    hooks: { SessionStart: [{ hooks: [{}] }], SessionEnd: [{ hooks: [{}] }] },
    turns: [done],
    values: ["SessionStart.source", "SessionStart.permission_mode", "SessionEnd.reason"],
  },
  {
    name: "values: Bash tool_response shape",
    hooks: on("PostToolUse", "Bash", {}),
    turns: [MAKE_A, done],
    values: ["PostToolUse.tool_response/stdout", "PostToolUse.tool_response/interrupted"],
  },
  {
    name: "values: Bash tool_response whitespace, stderr",
    hooks: on("PostToolUse", "Bash", {}),
    turns: [bash("printf '\\n  ok  \\n\\n'; printf '  warn  \\n\\n' >&2"), done],
    values: ["PostToolUse.tool_response/stdout", "PostToolUse.tool_response/stderr"],
  },
  ...INSTRUCTION_SCENARIOS,
  ...TOOL_SHAPE_SCENARIOS,
  ...ELICITATION_SCENARIOS,
  ...MCP_TOOL_SCENARIOS,
];

// Permission rules (`permissions.allow/ask/deny` in the settings file), modes and managed
// settings: the matrix of rules, modes and hooks.
const TOUCH = bash("touch a.txt");
const TOUCH_B = bash("touch b.txt");
const allowHook = (matcher = "Bash") =>
  on("PreToolUse", matcher, pre({ permissionDecision: "allow" }));
const askHook = on("PreToolUse", "Bash", pre({ permissionDecision: "ask" }));
const denyHook = on(
  "PreToolUse",
  "Bash",
  pre({ permissionDecision: "deny", permissionDecisionReason: "HOOK-DENY" }),
);
const rule = (behavior, ...rules) => ({ permissions: { [behavior]: rules } });
// docs/hooks.md, "Permission rules": the refusal of a file tool whose own path a rule denies.
const OWN_PATH_DENIED = {
  deviation:
    "CC's Read/Edit/Write refuse a denied path in their input check (File is in a directory that is denied ...); hookgate says Permission to read|edit <path> has been denied.",
  deviates: ["results"],
};
/** A PermissionRequest hook that allows, adding `rules` as the destination says. */
const grant = (destination, ...rules) =>
  on("PermissionRequest", "Bash", {
    out: {
      hookSpecificOutput: {
        hookEventName: "PermissionRequest",
        decision: {
          behavior: "allow",
          updatedPermissions: [{ type: "addRules", rules, behavior: "allow", destination }],
        },
      },
    },
  });
const ruleScenarios = [
  {
    name: "rules: deny prefix rule in bypass mode",
    ...rule("deny", "Bash(touch:*)"),
    turns: [TOUCH, done],
    results: "text",
  },
  {
    name: "rules: deny tool-wide Bash in bypass mode",
    ...rule("deny", "Bash"),
    turns: [TOUCH, done],
  },
  {
    name: "rules: deny rule beats a hook's allow",
    ...rule("deny", "Bash(touch:*)"),
    hooks: allowHook(),
    turns: [TOUCH, done],
  },
  {
    name: "rules: deny rule beats a hook's allow (default mode)",
    mode: "default",
    ...rule("deny", "Bash(touch:*)"),
    hooks: allowHook(),
    turns: [TOUCH, done],
  },
  { name: "rules: ask rule in bypass mode", ...rule("ask", "Bash(touch:*)"), turns: [TOUCH, done] },
  {
    name: "rules: ask rule beats a hook's allow",
    mode: "default",
    ...rule("ask", "Bash(touch:*)"),
    hooks: allowHook(),
    turns: [TOUCH, done],
  },
  {
    name: "rules: allow rule in default mode",
    mode: "default",
    ...rule("allow", "Bash(touch:*)"),
    turns: [TOUCH, done],
  },
  {
    name: "rules: allow rule, hook asks",
    mode: "default",
    ...rule("allow", "Bash(touch:*)"),
    hooks: askHook,
    turns: [TOUCH, done],
  },
  {
    name: "rules: allow rule, hook denies",
    mode: "default",
    ...rule("allow", "Bash"),
    hooks: denyHook,
    turns: [TOUCH, done],
  },
  {
    name: "rules: deny beats allow",
    mode: "default",
    permissions: { allow: ["Bash"], deny: ["Bash(touch:*)"] },
    turns: [TOUCH, done],
  },
  {
    name: "rules: ask beats allow",
    mode: "default",
    permissions: { allow: ["Bash"], ask: ["Bash(touch:*)"] },
    hooks: on("PermissionRequest", "Bash", {}),
    turns: [TOUCH, done],
  },
  {
    name: "rules: allow prefix does not cover a compound line",
    mode: "default",
    ...rule("allow", "Bash(echo:*)"),
    turns: [bash("echo ok && touch a.txt"), done],
  },
  {
    name: "rules: allow rules cover each part of a compound line",
    mode: "default",
    ...rule("allow", "Bash(echo:*)", "Bash(touch:*)"),
    turns: [bash("echo ok && touch a.txt"), done],
  },
  {
    name: "rules: deny prefix sees the second command",
    ...rule("deny", "Bash(touch:*)"),
    turns: [bash("echo ok && touch a.txt"), done],
  },
  { name: "rules: prefix ends at a word", ...rule("deny", "Bash(tou:*)"), turns: [TOUCH, done] },
  { name: "rules: wildcard rule", ...rule("deny", "Bash(touch *.txt)"), turns: [TOUCH, done] },
  {
    name: "rules: Read deny, path from the project",
    ...OWN_PATH_DENIED,
    results: "listing",
    files: { "secret.txt": "s\n" },
    ...rule("deny", "Read(./secret.txt)"),
    turns: [{ tool: "Read", input: { file_path: "$CWD/secret.txt" } }, done],
  },
  {
    name: "rules: Read deny by bare name in a subdirectory",
    ...OWN_PATH_DENIED,
    results: "listing",
    files: { "sub/secret.txt": "s\n" },
    ...rule("deny", "Read(secret.txt)"),
    turns: [{ tool: "Read", input: { file_path: "$CWD/sub/secret.txt" } }, done],
  },
  {
    name: "rules: Read deny by absolute path",
    ...OWN_PATH_DENIED,
    results: "listing",
    files: { "secret.txt": "s\n" },
    ...rule("deny", "Read(//**/secret.txt)"),
    turns: [{ tool: "Read", input: { file_path: "$CWD/secret.txt" } }, done],
  },
  {
    name: "rules: Edit deny covers Write",
    ...rule("deny", "Edit"),
    turns: [write("$CWD/w.txt", "w"), done],
  },
  {
    name: "rules: Edit path deny covers Write",
    ...OWN_PATH_DENIED,
    results: "listing",
    ...rule("deny", "Edit(w.txt)"),
    turns: [write("$CWD/w.txt", "w"), done],
  },
  {
    name: "rules: Read path deny covers Grep on that file",
    results: "listing",
    files: { "secret.txt": "s\n" },
    ...rule("deny", "Read(./secret.txt)"),
    turns: [{ tool: "Grep", input: { pattern: "s", path: "$CWD/secret.txt" } }, done],
  },
  {
    name: "rules: Read directory deny covers Glob in it",
    results: "listing",
    files: { "priv/a.txt": "a\n" },
    ...rule("deny", "Read(./priv/**)"),
    turns: [{ tool: "Glob", input: { pattern: "*", path: "$CWD/priv" } }, done],
  },
  {
    name: "rules: Read file deny, Grep on its directory",
    results: "listing",
    files: { "priv/secret.txt": "s\n", "priv/open.txt": "s\n" },
    ...rule("deny", "Read(./priv/secret.txt)"),
    turns: [{ tool: "Grep", input: { pattern: "s", path: "$CWD/priv" } }, done],
  },
  {
    name: "rules: Read directory deny, Glob pattern reaching into it",
    results: "listing",
    files: { "priv/a.txt": "a\n" },
    ...rule("deny", "Read(./priv/**)"),
    turns: [{ tool: "Glob", input: { pattern: "priv/*" } }, done],
  },
  {
    name: "rules: Read deny leaves Glob alone",
    results: "listing",
    ...rule("deny", "Read"),
    turns: [{ tool: "Glob", input: { pattern: "*" } }, done],
  },
  // What a search returns under a Read rule: the files it covers are left out of the results.
  {
    name: "rules: Read file deny, Grep content over the project",
    files: { "secret.txt": "TOPSECRET-VALUE\n", "open.txt": "TOPSECRET-NOT\n" },
    ...rule("deny", "Read(./secret.txt)"),
    results: "listing",
    turns: [{ tool: "Grep", input: { pattern: "TOPSECRET", output_mode: "content" } }, done],
  },
  {
    name: "rules: Read file deny, Grep glob naming it",
    files: { "secret.txt": "TOPSECRET-VALUE\n" },
    ...rule("deny", "Read(./secret.txt)"),
    results: "listing",
    turns: [
      { tool: "Grep", input: { pattern: "TOPSECRET", glob: "secret*", output_mode: "content" } },
      done,
    ],
  },
  {
    name: "rules: Read directory deny, Glob over the project",
    files: { "priv/a.txt": "a\n", "pub/b.txt": "b\n" },
    ...rule("deny", "Read(./priv/**)"),
    results: "listing",
    turns: [{ tool: "Glob", input: { pattern: "**/*.txt" } }, done],
  },
  {
    name: "rules: Read file ask, Grep over the project",
    files: { "secret.txt": "TOPSECRET-VALUE\n", "open.txt": "TOPSECRET-NOT\n" },
    ...rule("ask", "Read(./secret.txt)"),
    results: "listing",
    turns: [{ tool: "Grep", input: { pattern: "TOPSECRET", output_mode: "content" } }, done],
  },
  {
    name: "rules: Read directory ask, Glob over the project",
    files: { "priv/a.txt": "a\n", "pub/b.txt": "b\n" },
    ...rule("ask", "Read(./priv/**)"),
    results: "listing",
    turns: [{ tool: "Glob", input: { pattern: "**/*.txt" } }, done],
  },
  {
    name: "rules: Read tool-wide deny, Grep over the project",
    files: { "secret.txt": "TOPSECRET-VALUE\n" },
    ...rule("deny", "Read"),
    results: "listing",
    turns: [{ tool: "Grep", input: { pattern: "TOPSECRET", output_mode: "content" } }, done],
  },
  // A symbolic link does not dodge a path rule: the path is judged as written and as it really is.
  {
    name: "rules: symlink into a Read-denied directory, Read",
    files: { "priv/a.txt": "a\n" },
    ...rule("deny", "Read(./priv/**)"),
    results: "listing",
    links: { pub: "priv" },
    turns: [{ tool: "Read", input: { file_path: "$CWD/pub/a.txt" } }, done],
  },
  {
    name: "rules: symlink into a Read-denied directory, Grep on the link",
    files: { "priv/a.txt": "a\n" },
    ...rule("deny", "Read(./priv/**)"),
    results: "listing",
    links: { pub: "priv" },
    turns: [{ tool: "Grep", input: { pattern: "a", path: "$CWD/pub" } }, done],
  },
  {
    name: "rules: symlink to a Read-denied file, Grep over the project",
    files: { "priv/a.txt": "TOPSECRET-A\n" },
    ...rule("deny", "Read(./priv/**)"),
    results: "listing",
    links: { "link.txt": "priv/a.txt" },
    turns: [{ tool: "Grep", input: { pattern: "TOPSECRET", output_mode: "content" } }, done],
  },
  {
    name: "rules: symlink into an Edit-denied directory, Write",
    files: { "priv/a.txt": "a\n" },
    ...rule("deny", "Edit(./priv/**)"),
    results: "listing",
    links: { pub: "priv" },
    turns: [write("$CWD/pub/new.txt", "n"), done],
  },
  {
    name: "rules: symlink, Edit allowed on the link's name only",
    mode: "default",
    files: { "priv/a.txt": "a\n" },
    permissions: { allow: ["Edit(./pub/**)"] },
    links: { pub: "priv" },
    turns: [write("$CWD/pub/new.txt", "n"), done],
  },
  {
    name: "rules: symlink, Edit allowed on the real directory only",
    mode: "default",
    files: { "priv/a.txt": "a\n" },
    permissions: { allow: ["Edit(./priv/**)"] },
    links: { pub: "priv" },
    turns: [write("$CWD/pub/new.txt", "n"), done],
  },
  {
    name: "rules: mcp server rule",
    mcp: true,
    ...rule("deny", "mcp__conf"),
    turns: [{ tool: "mcp__conf__secret", input: {} }, done],
  },
  {
    name: "rules: mcp tool rule",
    mcp: true,
    ...rule("deny", "mcp__conf__secret"),
    turns: [{ tool: "mcp__conf__secret", input: {} }, done],
  },
  {
    name: "rules: mcp allow in default mode",
    mode: "default",
    mcp: true,
    ...rule("allow", "mcp__conf__secret"),
    turns: [{ tool: "mcp__conf__secret", input: {} }, done],
  },
  {
    name: "rules: deny rule, PermissionRequest hook not asked",
    mode: "default",
    ...rule("deny", "Bash"),
    hooks: on("PermissionRequest", "*", {}),
    turns: [TOUCH, done],
  },
  {
    name: "rules: ask rule, PermissionRequest hook allows",
    mode: "default",
    ...rule("ask", "Bash"),
    hooks: on("PermissionRequest", "Bash", {
      out: {
        hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } },
      },
    }),
    turns: [TOUCH, done],
  },
  {
    name: "rules: updatedPermissions adds a session rule",
    mode: "default",
    hooks: grant("session", { toolName: "Bash", ruleContent: "touch:*" }),
    turns: [TOUCH, TOUCH_B, done],
  },
  {
    name: "rules: updatedPermissions to localSettings",
    mode: "default",
    hooks: grant("localSettings", { toolName: "Bash", ruleContent: "touch:*" }),
    turns: [TOUCH, TOUCH_B, done],
  },
  {
    name: "rules: defaultMode acceptEdits from settings",
    mode: null,
    permissions: { defaultMode: "acceptEdits" },
    turns: [write("$CWD/w.txt", "w"), bash("mkfifo p"), done],
  },
  {
    name: "rules: --permission-mode beats defaultMode",
    mode: "default",
    permissions: { defaultMode: "bypassPermissions" },
    turns: [TOUCH, done],
  },
  // dontAsk: nothing that is not pre-approved runs, nobody is asked.
  {
    name: "dontAsk: Bash without a rule is denied",
    mode: "dontAsk",
    hooks: {
      PermissionRequest: [{ hooks: [{ tag: "request" }] }],
      PermissionDenied: [{ hooks: [{ tag: "denied" }] }],
    },
    turns: [TOUCH, done],
  },
  {
    name: "dontAsk: an allow rule runs",
    mode: "dontAsk",
    ...rule("allow", "Bash(touch:*)"),
    turns: [TOUCH, done],
  },
  {
    name: "dontAsk: a hook's allow runs",
    mode: "dontAsk",
    hooks: allowHook(),
    turns: [TOUCH, done],
  },
  {
    name: "dontAsk: Read runs",
    mode: "dontAsk",
    files: { "r.txt": "r\n" },
    turns: [{ tool: "Read", input: { file_path: "$CWD/r.txt" } }, done],
  },
  { name: "dontAsk: Write is denied", mode: "dontAsk", turns: [write("$CWD/w.txt", "w"), done] },
  {
    name: "dontAsk: an ask rule is denied",
    mode: "dontAsk",
    ...rule("ask", "Bash"),
    hooks: allowHook(),
    turns: [TOUCH, done],
  },
  // Managed settings: the system file, above --settings.
  {
    name: "managed: a deny rule beats --settings' allow",
    mode: "default",
    ...rule("allow", "Bash"),
    managed: rule("deny", "Bash(touch:*)"),
    turns: [TOUCH, done],
  },
  {
    name: "managed: allowManagedPermissionRulesOnly drops --settings' rules",
    mode: "default",
    ...rule("allow", "Bash"),
    managed: { settings: { allowManagedPermissionRulesOnly: true } },
    turns: [TOUCH, done],
  },
  {
    name: "managed: managed allow rules still apply under allowManagedPermissionRulesOnly",
    mode: "default",
    managed: { ...rule("allow", "Bash"), settings: { allowManagedPermissionRulesOnly: true } },
    turns: [TOUCH, done],
  },
  {
    name: "managed: allowManagedHooksOnly",
    hooks: on("PreToolUse", "Bash", { tag: "flag" }),
    managed: {
      hooks: on("PreToolUse", "Bash", { tag: "managed" }),
      settings: { allowManagedHooksOnly: true },
    },
    turns: [TOUCH, done],
  },
  {
    name: "managed: hooks of both run",
    hooks: on("PreToolUse", "Bash", { tag: "flag" }),
    managed: { hooks: on("PreToolUse", "Bash", { tag: "managed" }) },
    turns: [TOUCH, done],
  },
  {
    name: "managed: disableAllHooks is absolute",
    hooks: on("PreToolUse", "Bash", { tag: "flag" }),
    managed: {
      hooks: on("PreToolUse", "Bash", { tag: "managed" }),
      settings: { disableAllHooks: true },
    },
    turns: [TOUCH, done],
  },
  {
    name: "managed: --settings' disableAllHooks leaves managed hooks on",
    hooks: on("PreToolUse", "Bash", { tag: "flag" }),
    settings: { disableAllHooks: true },
    managed: { hooks: on("PreToolUse", "Bash", { tag: "managed" }) },
    turns: [TOUCH, done],
  },
];
// `if` rules are read by the same judge as permission rules.
ruleScenarios.push(
  {
    name: "rules: if prefix ends at a word",
    hooks: {
      PreToolUse: [
        {
          hooks: [
            { tag: "tou", if: "Bash(tou:*)" },
            { tag: "touch", if: "Bash(touch:*)" },
          ],
        },
      ],
    },
    turns: [TOUCH, done],
  },
  {
    name: "rules: if Read path rule on Grep",
    files: { "secret.txt": "s\n" },
    hooks: {
      PreToolUse: [
        {
          hooks: [
            { tag: "path", if: "Read(./secret.txt)" },
            { tag: "any", if: "Read" },
          ],
        },
      ],
    },
    turns: [{ tool: "Grep", input: { pattern: "s", path: "$CWD/secret.txt" } }, done],
  },
  {
    name: "rules: if Edit path rule on Write",
    hooks: {
      PreToolUse: [
        {
          hooks: [
            { tag: "edit", if: "Edit(w.txt)" },
            { tag: "any", if: "Edit" },
          ],
        },
      ],
    },
    turns: [write("$CWD/w.txt", "w"), done],
  },
);
SCENARIOS.push(...ruleScenarios);
SCENARIOS.push(...COMPACTION_SCENARIOS);
SCENARIOS.push(...MODEL_SWITCH_SCENARIOS);
SCENARIOS.push(...CONFIG_CHANGE_SCENARIOS);
SCENARIOS.push(...FILE_CHANGED_SCENARIOS);
