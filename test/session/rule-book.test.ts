import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { settingsPolicy, type PolicyFile } from "../../src/command-hooks/settings-policy.js";
import type { SettingsFile } from "../../src/command-hooks/settings-schema.js";
import { RuleBook } from "../../src/session/rule-book.js";
import { globTool } from "../../src/tools/glob.js";
import { grepTool } from "../../src/tools/grep.js";
import { runTool, tempDir, toolContext } from "../tools/helpers.js";

const places = { cwd: "/repo", home: "/home/u" };

/** A rule book from one `--settings` file's `permissions`. */
function book(permissions: { allow?: string[]; ask?: string[]; deny?: string[] }): RuleBook {
  const files: PolicyFile[] = [
    { source: "explicit", path: "/s.json", trust: 3, data: { permissions } },
  ];
  return new RuleBook(settingsPolicy(files, places).rules, places);
}

const bash = (command: string) => ["Bash", { command }] as const;
const read = (file_path: string) => ["Read", { file_path }] as const;
const behavior = (b: RuleBook, call: readonly [string, unknown]) => b.judge(...call)?.behavior;

describe("permission rules: Claude Code's syntax", () => {
  it("a Bash prefix rule ends at a word, and sees every command of a compound line", () => {
    const deny = book({ deny: ["Bash(rm:*)"] });
    expect(behavior(deny, bash("rm -rf build"))).toBe("deny");
    expect(behavior(deny, bash("rm"))).toBe("deny");
    expect(behavior(deny, bash("rmdir x"))).toBeUndefined();
    expect(behavior(deny, bash("ls && rm -rf build"))).toBe("deny");
    expect(behavior(deny, bash("echo $(rm -rf build)"))).toBe("deny");
  });

  it("an allow rule covers a compound line only when it covers every command in it", () => {
    const one = book({ allow: ["Bash(npm test:*)"] });
    expect(behavior(one, bash("npm test -- --watch"))).toBe("allow");
    expect(behavior(one, bash("npm test && rm -rf /"))).toBeUndefined();
    const two = book({ allow: ["Bash(npm test:*)", "Bash(echo:*)"] });
    expect(behavior(two, bash("npm test; echo done"))).toBe("allow");
  });

  it("a line that cannot be split is never allowed by a pattern, and a pattern deny asks", () => {
    expect(behavior(book({ allow: ["Bash(echo:*)"] }), bash("eval echo hi"))).toBeUndefined();
    const unsure = book({ deny: ["Bash(rm:*)"] }).judge(...bash("eval echo hi"));
    expect(unsure).toMatchObject({ behavior: "ask", unsure: true, rule: "Bash(rm:*)" });
  });

  it("wildcards cross slashes; a tool-wide rule takes every call of the tool", () => {
    expect(behavior(book({ deny: ["Bash(git push *)"] }), bash("git push origin main"))).toBe(
      "deny",
    );
    expect(behavior(book({ allow: ["Bash"] }), bash("anything at all | here"))).toBe("allow");
    expect(behavior(book({ deny: ["Bash(*)"] }), bash("ls"))).toBe("deny");
  });

  it("a Bash * is any text: `/..`, `/.` and newlines cannot dodge a deny", () => {
    const deny = book({ deny: ["Bash(rm -rf *)"] });
    expect(behavior(deny, bash("rm -rf /tmp/../home"))).toBe("deny");
    expect(behavior(deny, bash("rm -rf /tmp/./x"))).toBe("deny");
    expect(behavior(deny, bash('rm -rf "/tmp/x\n/home"'))).toBe("deny");
    expect(behavior(deny, bash("rm -rf .git"))).toBe("deny");
    expect(behavior(deny, bash("rm -r x"))).toBeUndefined();
    const curl = book({ deny: ["Bash(curl *)"] });
    expect(behavior(curl, bash("curl https://evil.com/../x"))).toBe("deny");
    expect(behavior(curl, bash("ls && curl https://evil.com/./x"))).toBe("deny");
  });

  it("a Bash pattern is literal but for *: no other glob or regex syntax", () => {
    expect(behavior(book({ deny: ["Bash(ls ?)"] }), bash("ls a"))).toBeUndefined();
    expect(behavior(book({ deny: ["Bash(ls ?)"] }), bash("ls ?"))).toBe("deny");
    expect(behavior(book({ deny: ["Bash(echo [ab])"] }), bash("echo a"))).toBeUndefined();
    expect(behavior(book({ deny: ["Bash(echo (x|y).*)"] }), bash("echo (x|y).z"))).toBe("deny");
    expect(behavior(book({ deny: ["Bash(git * main)"] }), bash("git push origin main"))).toBe(
      "deny",
    );
    expect(behavior(book({ deny: ["Bash(git * main)"] }), bash("git push main2"))).toBeUndefined();
  });

  it("Read and Edit paths: ./ and / from the project, a bare name anywhere, ~ and //", () => {
    expect(behavior(book({ deny: ["Read(./.env)"] }), read("/repo/.env"))).toBe("deny");
    expect(behavior(book({ deny: ["Read(./.env)"] }), read("/repo/sub/.env"))).toBeUndefined();
    expect(behavior(book({ deny: ["Read(.env)"] }), read("/repo/sub/.env"))).toBe("deny");
    expect(behavior(book({ deny: ["Read(/secrets/**)"] }), read("/repo/secrets/a/b"))).toBe("deny");
    expect(behavior(book({ deny: ["Read(secrets/)"] }), read("/repo/secrets/key"))).toBe("deny");
    expect(behavior(book({ deny: ["Read(~/.ssh/**)"] }), read("/home/u/.ssh/id"))).toBe("deny");
    expect(behavior(book({ deny: ["Read(//etc/passwd)"] }), read("/etc/passwd"))).toBe("deny");
    expect(behavior(book({ deny: ["Read(//etc/passwd)"] }), read("/repo/etc/passwd"))).toBe(
      undefined,
    );
  });

  it("an Edit path rule judges Write too; a tool-wide Edit rule only Edit", () => {
    const write = ["Write", { file_path: "/repo/w.txt", content: "" }] as const;
    expect(behavior(book({ deny: ["Edit(w.txt)"] }), write)).toBe("deny");
    expect(behavior(book({ deny: ["Edit"] }), write)).toBeUndefined();
    expect(book({ deny: ["Edit"] }).hides("Edit")).toBe(true);
    expect(book({ deny: ["Edit"] }).hides("Write")).toBe(false);
  });

  it("a Read path rule judges Glob and Grep on that path; a tool-wide Read rule only Read", () => {
    const grep = (path: string) => ["Grep", { pattern: "s", path }] as const;
    const glob = (path: string) => ["Glob", { pattern: "*", path }] as const;
    expect(behavior(book({ deny: ["Read(./secret.txt)"] }), grep("/repo/secret.txt"))).toBe("deny");
    expect(behavior(book({ deny: ["Read(./priv/**)"] }), glob("/repo/priv"))).toBe("deny");
    expect(behavior(book({ deny: ["Read(./priv/**)"] }), glob("/repo/pub"))).toBeUndefined();
    // A file rule does not refuse a search of its directory; the search leaves the file out.
    expect(behavior(book({ deny: ["Read(./priv/a.txt)"] }), grep("/repo/priv"))).toBeUndefined();
    expect(behavior(book({ deny: ["Read"] }), grep("/repo/secret.txt"))).toBeUndefined();
    expect(book({ deny: ["Read"] }).hides("Grep")).toBe(false);
  });

  it("mcp__server names every tool of the server; mcp__server__tool one", () => {
    const call = ["mcp__github__create_issue", {}] as const;
    expect(behavior(book({ deny: ["mcp__github"] }), call)).toBe("deny");
    expect(behavior(book({ deny: ["mcp__github__*"] }), call)).toBe("deny");
    expect(behavior(book({ deny: ["mcp__github__create_issue"] }), call)).toBe("deny");
    expect(behavior(book({ deny: ["mcp__github__delete"] }), call)).toBeUndefined();
    expect(behavior(book({ deny: ["mcp__git"] }), call)).toBeUndefined();
  });
});

describe("permission rules: precedence deny > ask > allow", () => {
  // Every combination of rules on one call: the most restrictive present wins.
  const kinds = ["allow", "ask", "deny"] as const;
  const combos = [0, 1, 2, 3, 4, 5, 6, 7].map((bits) => kinds.filter((_, i) => bits & (1 << i)));
  it.each(combos.map((c) => [c.join("+") || "none", c] as const))("%s", (_name, present) => {
    const permissions = Object.fromEntries(present.map((k) => [k, ["Bash(rm:*)"]]));
    const expected = present.includes("deny")
      ? "deny"
      : present.includes("ask")
        ? "ask"
        : present.includes("allow")
          ? "allow"
          : undefined;
    expect(behavior(book(permissions), bash("rm -rf x"))).toBe(expected);
  });

  it("a rule added in the session cannot lift a settings file's deny", () => {
    const b = book({ deny: ["Bash(rm:*)"] });
    b.add([{ toolName: "Bash" }], "allow");
    expect(behavior(b, bash("rm -rf x"))).toBe("deny");
    expect(behavior(b, bash("ls"))).toBe("allow");
  });
});

describe("settings policy", () => {
  const file = (source: PolicyFile["source"], trust: number, data: SettingsFile): PolicyFile => ({
    source,
    path: `/${source}.json`,
    trust,
    data,
  });

  it("managed allowManagedPermissionRulesOnly drops every other file's rules", () => {
    const policy = settingsPolicy(
      [
        file("explicit", 3, { permissions: { allow: ["Bash"], deny: ["Read"] } }),
        file("managed", 4, {
          allowManagedPermissionRulesOnly: true,
          permissions: { deny: ["Bash(rm:*)"] },
        }),
      ],
      places,
    );
    expect(policy.rules.map((r) => `${r.behavior} ${r.rule.text} ${r.source}`)).toEqual([
      "deny Bash(rm:*) managed",
    ]);
    expect(policy.notes.get("/explicit.json")?.skipped[0]).toMatch(/managed permission rules/);
  });

  it("defaultMode: the most trusted file's; a project file may only ask more", () => {
    const policy = settingsPolicy(
      [
        file("user", 2, { permissions: { defaultMode: "acceptEdits" } }),
        file("project", 0, { permissions: { defaultMode: "bypassPermissions" } }),
      ],
      places,
    );
    expect(policy.defaultMode).toBe("acceptEdits");
    expect(policy.notes.get("/project.json")?.skipped[0]).toMatch(/may only ask more/);
  });

  it("http hook allowlists: managed settings' own when they set one, else the union of every file's, absent when none sets one", () => {
    const policy = settingsPolicy(
      [
        file("user", 2, { allowedHttpHookUrls: ["https://a/*"] }),
        file("managed", 4, { allowedHttpHookUrls: ["https://b/*"], httpHookAllowedEnvVars: [] }),
      ],
      places,
    );
    expect(policy.http).toEqual({
      allowedHttpHookUrls: ["https://b/*"],
      httpHookAllowedEnvVars: [],
    });
    const unmanaged = settingsPolicy(
      [
        file("user", 2, { allowedHttpHookUrls: ["https://a/*"] }),
        file("project", 0, { allowedHttpHookUrls: ["https://c/*"] }),
      ],
      places,
    );
    expect(unmanaged.http).toEqual({ allowedHttpHookUrls: ["https://a/*", "https://c/*"] });
    expect(settingsPolicy([file("user", 2, {})], places).http).toEqual({});
  });

  it("a deny or ask that cannot be read covers its whole tool, noted; an allow is dropped", () => {
    const policy = settingsPolicy(
      [
        file("user", 2, {
          permissions: {
            deny: ["WebFetch(domain:x.com)", "Bash(rm:*)"],
            ask: ["mcp__github__create_issue(repo:x)"],
            allow: ["Grep(a", "WebSearch(query:y)"],
          },
        }),
      ],
      places,
    );
    expect(policy.rules.map((r) => [r.behavior, r.rule.text])).toEqual([
      ["deny", "WebFetch(domain:x.com)"],
      ["deny", "Bash(rm:*)"],
      ["ask", "mcp__github__create_issue(repo:x)"],
    ]);
    expect(policy.notes.get("/user.json")).toEqual({
      rules: 3,
      skipped: [
        expect.stringMatching(/^permissions\.deny\[0\]: .*widened to every WebFetch call$/),
        expect.stringMatching(
          /^permissions\.ask\[0\]: .*widened to every mcp__github__create_issue/,
        ),
        expect.stringMatching(/^permissions\.allow\[0\]: /),
        expect.stringMatching(/^permissions\.allow\[1\]: /),
      ],
    });
    const b = new RuleBook(policy.rules, places);
    expect(behavior(b, ["WebFetch", { url: "https://elsewhere.org" }])).toBe("deny");
    expect(b.hides("WebFetch")).toBe(true);
    expect(behavior(b, ["mcp__github__create_issue", { repo: "y" }])).toBe("ask");
    expect(behavior(b, ["mcp__github__list", {}])).toBeUndefined();
    expect(behavior(b, ["Grep", { pattern: "a" }])).toBeUndefined();
    expect(behavior(book({ deny: ["Bash(rm -rf"] }), bash("ls"))).toBe("deny");
  });

  it("a session deny that cannot be read covers its whole tool too; an allow does not", () => {
    const b = book({});
    expect(b.add([{ toolName: "WebFetch", ruleContent: "domain:x.com" }], "deny")).toEqual([
      expect.stringMatching(/widened to every WebFetch call$/),
    ]);
    expect(b.add([{ toolName: "WebSearch", ruleContent: "query:y" }], "allow")).toHaveLength(1);
    expect(behavior(b, ["WebFetch", { url: "https://a" }])).toBe("deny");
    expect(behavior(b, ["WebSearch", { query: "y" }])).toBeUndefined();
  });
});

describe("permission rules on a real workspace: links and search results", () => {
  /** A workspace with priv/a.txt, pub -> priv and link.txt -> priv/a.txt. */
  async function workspace(): Promise<string> {
    const cwd = await tempDir("hookgate-rules-");
    await mkdir(join(cwd, "priv"));
    await writeFile(join(cwd, "priv/a.txt"), "TOPSECRET-A\n");
    await writeFile(join(cwd, "open.txt"), "TOPSECRET-NOT\n");
    await symlink("priv", join(cwd, "pub"));
    await symlink("priv/a.txt", join(cwd, "link.txt"));
    return cwd;
  }
  const inWorkspace = (cwd: string, permissions: Parameters<typeof book>[0]) => {
    const files: PolicyFile[] = [
      { source: "explicit", path: "/s.json", trust: 3, data: { permissions } },
    ];
    return new RuleBook(settingsPolicy(files, { cwd }).rules, { cwd });
  };

  it("a deny or ask path rule matches a path whose real path it covers, links followed", async () => {
    const cwd = await workspace();
    const deny = inWorkspace(cwd, { deny: ["Read(./priv/**)", "Edit(./priv/**)"] });
    expect(behavior(deny, read(join(cwd, "pub/a.txt")))).toBe("deny");
    expect(behavior(deny, read(join(cwd, "link.txt")))).toBe("deny");
    expect(behavior(deny, ["Grep", { pattern: "a", path: join(cwd, "pub") }])).toBe("deny");
    // A file about to be written: its nearest existing parent is followed.
    const write = ["Write", { file_path: join(cwd, "pub/new/x.txt"), content: "" }] as const;
    expect(behavior(deny, write)).toBe("deny");
    expect(
      behavior(inWorkspace(cwd, { ask: ["Read(./priv/**)"] }), read(join(cwd, "pub/a.txt"))),
    ).toBe("ask");
  });

  it("an allow path rule covers a path only when it covers it as written and as it really is", async () => {
    const cwd = await workspace();
    const write = (p: string) => ["Write", { file_path: join(cwd, p), content: "" }] as const;
    expect(
      behavior(inWorkspace(cwd, { allow: ["Edit(./pub/**)"] }), write("pub/new.txt")),
    ).toBeUndefined();
    expect(
      behavior(inWorkspace(cwd, { allow: ["Edit(./priv/**)"] }), write("pub/new.txt")),
    ).toBeUndefined();
    expect(behavior(inWorkspace(cwd, { allow: ["Edit(./priv/**)"] }), write("priv/new.txt"))).toBe(
      "allow",
    );
  });

  it("a Read deny with a path keeps the files it covers out of Grep and Glob results", async () => {
    const cwd = await workspace();
    const rules = inWorkspace(cwd, { deny: ["Read(./priv/**)"] });
    const ctx = {
      ...toolContext(cwd),
      readable: (files: readonly string[]) => rules.readable(files),
    };
    const grep = await runTool(grepTool, { pattern: "TOPSECRET", output_mode: "content" }, ctx);
    expect(grep.output).toBe(`${join(cwd, "open.txt")}:1:TOPSECRET-NOT`);
    const glob = await runTool(globTool, { pattern: "**/*.txt" }, ctx);
    expect(glob.output).toBe(join(cwd, "open.txt"));
  });

  it("ask rules and a tool-wide Read deny leave search results whole, as Claude Code's do", async () => {
    const cwd = await workspace();
    const files = ["priv/a.txt", "link.txt", "open.txt"].map((f) => join(cwd, f));
    expect(inWorkspace(cwd, { ask: ["Read(./priv/**)"] }).readable(files)).toEqual(files);
    expect(inWorkspace(cwd, { deny: ["Read"] }).readable(files)).toEqual(files);
    const denied = inWorkspace(cwd, { deny: ["Read(./priv/**)"] });
    expect(denied.readable(files)).toEqual([join(cwd, "open.txt")]);
  });
});

describe("permission rules: the settings files' read again", () => {
  it("settings rules read again replace the old ones; the session's own stay, and hidden tools are re-read", () => {
    const b = book({ deny: ["Bash(rm:*)"] });
    b.add([{ toolName: "Bash", ruleContent: "curl:*" }], "deny");
    const before = b.version;
    const files: PolicyFile[] = [
      { source: "project", path: "/p.json", trust: 1, data: { permissions: { deny: ["Write"] } } },
    ];
    b.useSettings(settingsPolicy(files, places).rules);
    expect(behavior(b, bash("rm -rf build"))).toBeUndefined();
    expect(behavior(b, bash("curl x"))).toBe("deny");
    expect(b.hides("Write")).toBe(true);
    expect(b.version).toBeGreaterThan(before);
  });
});
