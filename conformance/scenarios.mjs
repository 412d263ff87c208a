// The scenarios: a settings file's hooks (each handler is an action for hook.mjs), the
// model's scripted turns, and which optional facets to compare. Names say what is pinned.

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
];
