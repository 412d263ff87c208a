// Scenarios of FileChanged: a SessionStart hook names a workspace file in `watchPaths`, the
// model's Bash call changes or removes it, a `sleep` call lets the watch settle (both sides
// wait for a file to stop changing before they report it), and a last call ends the turn.
const bash = (command) => ({ tool: "Bash", input: { command, description: "conformance step" } });
const done = { text: "Finished." };

/** SessionStart's answer: watch `watched.txt` of the workspace. */
const WATCH = {
  tag: "ss",
  out: {
    hookSpecificOutput: { hookEventName: "SessionStart", watchPaths: ["$CWD/watched.txt"] },
  },
};

const common = {
  files: { "watched.txt": "one\n" },
  values: ["FileChanged.file_path", "FileChanged.event"],
};

/** The model runs `command` on the watched file, waits, then makes one more call. */
const touch = (command) => [bash(command), bash("sleep 4"), bash("echo after"), done];

export const FILE_CHANGED_SCENARIOS = [
  {
    name: "file changed: a file SessionStart's watchPaths names is rewritten: FileChanged change, its path",
    ...common,
    hooks: { SessionStart: [{ hooks: [WATCH] }], FileChanged: [{ hooks: [{ tag: "fc" }] }] },
    turns: touch("echo two > watched.txt"),
    fields: ["FileChanged"],
    deviation: "hookgate keeps permission_mode, common to every hookgate input",
    deviates: ["fields FileChanged"],
  },
  {
    name: "file changed: a watched file removed fires FileChanged unlink",
    ...common,
    hooks: { SessionStart: [{ hooks: [WATCH] }], FileChanged: [{ hooks: [{ tag: "fc" }] }] },
    turns: touch("rm watched.txt"),
  },
  {
    name: "file changed: the matcher selects on the file's base name",
    ...common,
    hooks: {
      SessionStart: [{ hooks: [WATCH] }],
      FileChanged: [
        { matcher: "watched.txt", hooks: [{ tag: "named" }] },
        { matcher: "other.txt", hooks: [{ tag: "other" }] },
      ],
    },
    turns: touch("echo two > watched.txt"),
  },
  {
    name: "file changed: a file nobody asked to watch fires nothing",
    ...common,
    hooks: {
      SessionStart: [{ hooks: [{ tag: "ss" }] }],
      FileChanged: [{ hooks: [{ tag: "fc" }] }],
    },
    turns: touch("echo two > watched.txt"),
  },
];
