// Scenarios of model switching: one session, a prompt, a switch to `switchModel`, a second
// prompt. Claude Code gets the SDK's `set_model` control request over stream-json; hookgate
// gets `session/set_config_option` (`model`). Model ids necessarily differ (Claude Code's
// `claude-…`, hookgate's `anthropic:claude-…`), so the ids in hook inputs are not compared:
// the fields present, the other values, which hooks ran and which model each request went to.

const around = {
  UserPromptSubmit: [{ hooks: [{ tag: "ups" }] }],
};
const TO = "claude-opus-4-5";
const FIELDS = ["PreModelSwitch", "PostModelSwitch"];
const KEPT_MODE = "hookgate keeps permission_mode, common to every hookgate input";

export const MODEL_SWITCH_SCENARIOS = [
  {
    name: "model switch: PreModelSwitch fires with its fields before the switch, PostModelSwitch after; the next request goes to the new model",
    deviation: `${KEPT_MODE}; hookgate keeps no price table (estimated_cache_write_usd 0, pricing "default")`,
    deviates: ["fields PreModelSwitch", "fields PostModelSwitch", "value"],
    switchModel: TO,
    hooks: {
      // In Claude Code the PostModelSwitch hook can still be starting when the next prompt's
      // UserPromptSubmit hook runs; logging that one late keeps the log in the order of events.
      UserPromptSubmit: [{ hooks: [{ tag: "ups", logAfter: 1000 }] }],
      PreModelSwitch: [{ hooks: [{ tag: "pre" }] }],
      PostModelSwitch: [{ hooks: [{ tag: "post" }] }],
    },
    turns: [],
    fields: FIELDS,
    values: [
      "PreModelSwitch.source",
      "PreModelSwitch.context_tokens",
      "PreModelSwitch.prompt_cache_warm",
      "PreModelSwitch.cache_ttl",
      "PreModelSwitch.pricing",
      "PreModelSwitch.estimated_cache_write_usd",
      "PostModelSwitch.source",
      "PostModelSwitch.context_tokens",
    ],
    show: ["hooks", "models"],
  },
  {
    name: "model switch: PreModelSwitch exit 2 refuses the switch: no PostModelSwitch, the next request stays on the old model",
    switchModel: TO,
    hooks: {
      ...around,
      PreModelSwitch: [{ hooks: [{ tag: "pre", code: 2, err: "no switching" }] }],
      PostModelSwitch: [{ hooks: [{ tag: "post" }] }],
    },
    turns: [],
    show: ["hooks", "models"],
  },
  {
    name: "model switch: permissionDecision deny refuses the switch",
    switchModel: TO,
    hooks: {
      PreModelSwitch: [
        {
          hooks: [
            {
              tag: "pre",
              out: {
                hookSpecificOutput: {
                  hookEventName: "PreModelSwitch",
                  permissionDecision: "deny",
                  permissionDecisionReason: "not now",
                },
              },
            },
          ],
        },
      ],
      PostModelSwitch: [{ hooks: [{ tag: "post" }] }],
    },
    turns: [],
    show: ["hooks", "models"],
  },
  {
    name: "model switch: permissionDecision ask refuses in a session that cannot ask",
    switchModel: TO,
    hooks: {
      PreModelSwitch: [
        {
          hooks: [
            {
              tag: "pre",
              out: {
                hookSpecificOutput: { hookEventName: "PreModelSwitch", permissionDecision: "ask" },
              },
            },
          ],
        },
      ],
      PostModelSwitch: [{ hooks: [{ tag: "post" }] }],
    },
    turns: [],
    show: ["hooks", "models"],
  },
  {
    name: "model switch: matchers select on to_model",
    switchModel: TO,
    hooks: {
      PreModelSwitch: [
        { matcher: ".*opus.*", hooks: [{ tag: "pre-opus" }] },
        { matcher: ".*haiku.*", hooks: [{ tag: "pre-haiku" }] },
      ],
      PostModelSwitch: [
        { matcher: ".*opus.*", hooks: [{ tag: "post-opus" }] },
        { matcher: ".*haiku.*", hooks: [{ tag: "post-haiku" }] },
      ],
    },
    turns: [],
    show: ["hooks", "models"],
  },
  {
    name: "model switch: PostModelSwitch additionalContext reaches the next request",
    switchModel: TO,
    hooks: {
      PostModelSwitch: [
        {
          hooks: [
            {
              tag: "post",
              out: {
                hookSpecificOutput: {
                  hookEventName: "PostModelSwitch",
                  additionalContext: "SWITCH-CONTEXT-1",
                },
              },
            },
          ],
        },
      ],
    },
    turns: [],
    markers: ["SWITCH-CONTEXT-1"],
    show: ["hooks", "models", "where SWITCH-CONTEXT-1"],
  },
  {
    name: "model switch: PostModelSwitch plain stdout reaches the next request",
    switchModel: TO,
    hooks: { PostModelSwitch: [{ hooks: [{ tag: "post", out: "SWITCH-STDOUT-1" }] }] },
    turns: [],
    markers: ["SWITCH-STDOUT-1"],
    show: ["hooks", "models", "where SWITCH-STDOUT-1"],
  },
];
