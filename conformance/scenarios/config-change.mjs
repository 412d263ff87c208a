// Scenarios of ConfigChange: the model's Bash call rewrites the workspace's
// `.claude/settings.local.json` mid-run, a `sleep` call lets the settings watch settle (both
// sides wait for a file to stop changing before they report it), and a last call shows
// whether the change applied: the hook it added runs on that call, or does not.
import { Buffer } from "node:buffer";
import { URL } from "node:url";

const HOOK = new URL("../hook.mjs", import.meta.url).pathname;
const bash = (command) => ({ tool: "Bash", input: { command, description: "conformance step" } });
const done = { text: "Finished." };

/** A settings file whose one PostToolUse hook logs as `tag`, on the call `echo after` only. */
function addedHook(tag) {
  const action = Buffer.from(JSON.stringify({ tag })).toString("base64");
  const command = `node ${HOOK} $CWD/../hooks.jsonl ${action}`;
  return JSON.stringify({
    hooks: {
      PostToolUse: [
        { matcher: "Bash", hooks: [{ type: "command", command, if: "Bash(echo after*)" }] },
      ],
    },
  });
}

/** The model writes `text` to the local settings file, waits, then makes the call that shows. */
const rewriteLocal = (text) => [
  bash(`cat > .claude/settings.local.json <<'JSON'\n${text}\nJSON`),
  bash("sleep 4"),
  bash("echo after"),
  done,
];

/** A change that adds a deny rule for the call that shows. */
const DENY_AFTER = JSON.stringify({ permissions: { deny: ["Bash(echo after*)"] } });

const common = {
  // The file exists from the start, so both sides watch it (and its folder).
  files: { ".claude/settings.local.json": "{}\n" },
  settingSources: "user,project,local",
  values: ["ConfigChange.source", "ConfigChange.file_path"],
};

export const CONFIG_CHANGE_SCENARIOS = [
  {
    name: "config change: a rewritten local settings file fires ConfigChange (local_settings, its path); its new hook runs",
    ...common,
    hooks: { ConfigChange: [{ hooks: [{ tag: "cc" }] }] },
    turns: rewriteLocal(addedHook("added")),
    fields: ["ConfigChange"],
    deviation: "hookgate keeps permission_mode, common to every hookgate input",
    deviates: ["fields ConfigChange"],
  },
  {
    name: "config change: exit 2 keeps the change out, its new hook never runs",
    ...common,
    hooks: { ConfigChange: [{ hooks: [{ tag: "cc", code: 2, err: "NO-CHANGE" }] }] },
    turns: rewriteLocal(addedHook("added")),
  },
  {
    name: "config change: a deny rule the change adds refuses a later call",
    ...common,
    hooks: { ConfigChange: [{ hooks: [{ tag: "cc" }] }] },
    turns: rewriteLocal(DENY_AFTER),
    show: ["hooks", "results"],
  },
  {
    name: "config change: exit 2 keeps a new deny rule out",
    ...common,
    hooks: { ConfigChange: [{ hooks: [{ tag: "cc", code: 2, err: "NO-CHANGE" }] }] },
    turns: rewriteLocal(DENY_AFTER),
    show: ["hooks", "results"],
  },
  {
    name: "config change: a deny rule the change removes stays in force in hookgate",
    ...common,
    files: { ".claude/settings.local.json": `${DENY_AFTER}\n` },
    hooks: { ConfigChange: [{ hooks: [{ tag: "cc" }] }] },
    // Not a heredoc: a deny rule in force makes hookgate ask about a line it cannot split.
    turns: [
      bash("echo '{}' > .claude/settings.local.json"),
      bash("sleep 4"),
      bash("echo after"),
      done,
    ],
    show: ["hooks", "results"],
    deviation:
      "a reload never removes a deny rule of a user, project or local file mid-session (docs/hooks.md, ConfigChange)",
    deviates: ["results"],
  },
];
