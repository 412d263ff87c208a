// Scenarios of compaction: a first prompt, then `/compact` continuing the same conversation
// (Claude Code: a second `-p` run with `-c`; hookgate: a second prompt in the session). The
// model's second reply is the summary. Only events both sides fire once per conversation are
// registered (not SessionStart/SessionEnd: Claude Code's second run is a second process).

const done = { text: "Finished." };
const SUMMARY = {
  text: "<analysis>COMPACT-ANALYSIS-1</analysis>\n<summary>COMPACT-SUMMARY-1</summary>",
};
const FIRST = "Run the conformance scenario.";
const around = {
  UserPromptSubmit: [{ hooks: [{ tag: "ups" }] }],
  Stop: [{ hooks: [{ tag: "stop" }] }],
};
const FIELDS = ["PreCompact", "PostCompact"];

export const COMPACTION_SCENARIOS = [
  {
    name: "compact: /compact fires PreCompact (manual, its instructions), then PostCompact with the summary; no UserPromptSubmit or Stop",
    deviation: "hookgate keeps permission_mode, common to every hookgate input",
    deviates: ["fields PreCompact", "fields PostCompact"],
    prompts: [FIRST, "/compact keep the names"],
    hooks: {
      ...around,
      PreCompact: [{ hooks: [{ tag: "pre" }] }],
      PostCompact: [{ hooks: [{ tag: "post" }] }],
    },
    turns: [done, SUMMARY],
    fields: FIELDS,
    values: [
      "PreCompact.trigger",
      "PreCompact.custom_instructions",
      "PostCompact.trigger",
      "PostCompact.compact_summary",
    ],
  },
  {
    name: "compact: /compact without instructions gives custom_instructions null",
    prompts: [FIRST, "/compact"],
    hooks: { PreCompact: [{ hooks: [{ tag: "pre" }] }] },
    turns: [done, SUMMARY],
    values: ["PreCompact.custom_instructions"],
  },
  {
    name: "compact: matchers select by trigger (manual fires, auto does not)",
    prompts: [FIRST, "/compact"],
    hooks: {
      PreCompact: [
        { matcher: "auto", hooks: [{ tag: "pre-auto" }] },
        { matcher: "manual", hooks: [{ tag: "pre-manual" }] },
      ],
      PostCompact: [
        { matcher: "auto", hooks: [{ tag: "post-auto" }] },
        { matcher: "manual", hooks: [{ tag: "post-manual" }] },
      ],
    },
    turns: [done, SUMMARY],
  },
  {
    name: "compact: PreCompact exit 2 blocks: no summary request, no PostCompact",
    prompts: [FIRST, "/compact"],
    hooks: {
      PreCompact: [{ hooks: [{ tag: "pre", code: 2, err: "NO-COMPACT-1" }] }],
      PostCompact: [{ hooks: [{ tag: "post" }] }],
    },
    turns: [done, SUMMARY],
  },
  {
    name: "compact: PreCompact decision block blocks",
    prompts: [FIRST, "/compact"],
    hooks: {
      PreCompact: [{ hooks: [{ tag: "pre", out: { decision: "block", reason: "NO-COMPACT-2" } }] }],
      PostCompact: [{ hooks: [{ tag: "post" }] }],
    },
    turns: [done, SUMMARY],
  },
  {
    name: "compact: PreCompact stdout joins the summary's instructions",
    prompts: [FIRST, "/compact keep the names"],
    hooks: { PreCompact: [{ hooks: [{ tag: "pre", out: "PRECOMPACT-INSTR-1" }] }] },
    turns: [done, SUMMARY],
    markers: ["PRECOMPACT-INSTR-1", "keep the names"],
    // Claude Code appends the hook's stdout to the request as is; hookgate marks it as the
    // hook's (a system-reminder naming PreCompact), as it marks every hook text.
    deviation: "the hook's instructions are marked as the hook's, not the user's",
    deviates: ["where", "line"],
  },
  {
    name: "compact: PreCompact exit 1 does not block",
    prompts: [FIRST, "/compact"],
    hooks: {
      PreCompact: [{ hooks: [{ tag: "pre", code: 1, err: "PRE-ERR-1" }] }],
      PostCompact: [{ hooks: [{ tag: "post" }] }],
    },
    turns: [done, SUMMARY],
  },
];
