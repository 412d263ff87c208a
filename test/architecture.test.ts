import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../src");

/** `import … from`, `export … from`, bare `import "…"` and `import("…")`; type-only ones included. */
const SPECIFIER =
  /(?:^|\n)\s*(?:import|export)\s[^;]*?\bfrom\s*["']([^"']+)["']|(?:^|\n)\s*import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

/** The relative specifiers one file imports from. */
function relativeSpecifiers(text: string): string[] {
  return [...text.matchAll(SPECIFIER)]
    .map((m) => m[1] ?? m[2] ?? m[3] ?? "")
    .filter((spec) => spec.startsWith("./") || spec.startsWith("../"));
}

/** The source file a specifier names: `./x.js` is `./x.ts` (the compiled name). */
function resolveSpecifier(from: string, spec: string): string | undefined {
  const target = resolve(dirname(from), spec.replace(/\.js$/, ".ts"));
  for (const candidate of [target, `${target}.ts`, join(target, "index.ts")]) {
    if (candidate.endsWith(".ts") && existsSync(candidate)) return candidate;
  }
  return undefined;
}

type Graph = ReadonlyMap<string, readonly string[]>;

/** Every import cycle, each as the path that closes it (`a → b → a`), each reported once. */
function findCycles(graph: Graph): string[][] {
  const cycles: string[][] = [];
  const seen = new Set<string>();
  const done = new Set<string>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const visit = (node: string): void => {
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (onStack.has(next)) {
        const cycle = stack.slice(stack.indexOf(next));
        // The same cycle is met from whichever member the walk entered first: name it once.
        const key = [...cycle].sort().join("|");
        if (!seen.has(key)) {
          seen.add(key);
          cycles.push([...cycle, next]);
        }
      } else if (!done.has(next)) {
        visit(next);
      }
    }
    stack.pop();
    onStack.delete(node);
    done.add(node);
  };
  for (const node of [...graph.keys()].sort()) if (!done.has(node)) visit(node);
  return cycles;
}

/**
 * The folders of src/ and which others each may import, bottom up: the folder list is the
 * architecture (docs/architecture.md says what each holds). A folder not listed here fails the
 * test, so a new one is placed on purpose. The package entry points (`index.ts`, `cli.ts`) sit
 * at the root and may import anything.
 */
const FOLDERS: Readonly<Record<string, readonly string[]>> = {
  wire: [],
  shared: [],
  process: ["shared"],
  hooks: ["shared", "wire"],
  protocol: ["hooks", "shared", "wire"],
  tools: ["process", "shared", "wire"],
  store: ["process", "shared", "wire"],
  slash: ["process", "shared"],
  instructions: ["shared", "wire"],
  model: ["process", "shared", "tools"],
  mcp: ["process", "shared", "tools", "wire"],
  "command-hooks": ["hooks", "process", "shared", "wire"],
  telemetry: ["shared"],
  session: [
    ...["command-hooks", "hooks", "instructions", "mcp", "model", "process", "shared", "slash"],
    ...["store", "tools", "wire"],
  ],
  agent: [
    ...["command-hooks", "hooks", "instructions", "mcp", "model", "process", "protocol"],
    ...["session", "shared", "slash", "store", "tools", "wire"],
  ],
  client: ["hooks", "process", "shared", "store", "wire"],
  examples: ["client", "shared"],
  "policy-test": ["client", "model", "shared", "wire"],
  inspect: ["client", "shared", "wire"],
  cli: [
    ...["agent", "command-hooks", "examples", "hooks", "inspect", "instructions", "model"],
    ...["policy-test"],
    ...["process", "protocol", "session", "shared", "slash", "store", "telemetry"],
  ],
};

/** The top folder of a src/ path, or undefined for the entry points at the root. */
function folderOf(path: string): string | undefined {
  const parts = path.split(/[\\/]/);
  return parts.length > 1 ? parts[0] : undefined;
}

/** Each import that crosses folders against {@link FOLDERS}, as `from → to (file: specifier)`. */
function wrongWays(edges: readonly (readonly [string, string])[]): string[] {
  return edges.flatMap(([from, to]) => {
    const a = folderOf(from);
    const b = folderOf(to);
    if (a === undefined || a === b) return [];
    const allowed = FOLDERS[a];
    if (allowed === undefined) return [`${a}/ is not a known folder (${from})`];
    return b !== undefined && allowed.includes(b)
      ? []
      : [`${a} → ${b ?? "(root)"} (${from} imports ${to})`];
  });
}

/**
 * Calls that end the process or listen to it (`process.exit(`, `process.on(`, `once`...), and
 * assignments to its globals (`console.error = …`, `globalThis.X = …`): only the program that
 * owns the process may make them, never a library path.
 */
const PROCESS_OWNER_CALL =
  /\bprocess\.(?:exit|on|once|addListener|prependListener|prependOnceListener)\(|\b(?:console|globalThis)\.\w+\s*(?:\?\?|\|\||&&)?=(?!=)/g;

/** Files outside cli/ and the entry points that still make such calls, each with its reason. */
const OWNS_THE_PROCESS: Readonly<Record<string, string>> = {
  "inspect/cli.ts":
    "`hookgate inspect` is a subcommand of the CLI: it waits for SIGINT/SIGTERM to close its server",
  "client/kit/workspace.ts":
    "hookgate/testing removes the temporary directories it made when the test process exits",
  "model/step.ts":
    "a default only, set when unset: the AI SDK's warnings never reach stdout (the protocol channel)",
};

/** The process-owner calls in a file's code, by line; comment lines are skipped. */
function processOwnerCalls(text: string): string[] {
  return text.split("\n").flatMap((line, i) => {
    const code = line.trim();
    if (code.startsWith("//") || code.startsWith("*") || code.startsWith("/*")) return [];
    return [...code.matchAll(PROCESS_OWNER_CALL)].map((m) => `line ${i + 1}: ${m[0]}`);
  });
}

/** Every process-owner call in src/ outside cli/, the entry points and the listed exceptions. */
function libraryProcessCalls(): string[] {
  return sourceFiles(SRC).flatMap((file) => {
    const name = relative(SRC, file).split(/[\\/]/).join("/");
    const folder = folderOf(name);
    if (folder === undefined || folder === "cli" || name in OWNS_THE_PROCESS) return [];
    return processOwnerCalls(readFileSync(file, "utf8")).map((call) => `${name} ${call}`);
  });
}

describe("module structure", () => {
  it("the cycle finder names a cycle made by a type-only back-edge, and passes a one-way graph", () => {
    const cyclic = new Map([
      ["gate.ts", ["gate-merge.ts", "outcome.ts"]],
      ["gate-merge.ts", ["outcome.ts", "gate.ts"]],
      ["outcome.ts", []],
    ]);
    expect(findCycles(cyclic)).toEqual([["gate-merge.ts", "gate.ts", "gate-merge.ts"]]);
    const oneWay = new Map([
      ["gate.ts", ["gate-merge.ts", "outcome.ts"]],
      ["gate-merge.ts", ["outcome.ts"]],
      ["outcome.ts", []],
    ]);
    expect(findCycles(oneWay)).toEqual([]);
  });

  it("imports in src/ go one way: no module reaches itself through its imports, type-only ones included", () => {
    const files = sourceFiles(SRC);
    const unresolved: string[] = [];
    const graph = new Map<string, string[]>();
    for (const file of files) {
      const name = relative(SRC, file);
      const targets = relativeSpecifiers(readFileSync(file, "utf8")).flatMap((spec) => {
        const target = resolveSpecifier(file, spec);
        if (target === undefined) unresolved.push(`${name}: ${spec}`);
        return target === undefined ? [] : [relative(SRC, target)];
      });
      graph.set(name, targets);
    }
    // Every relative import must land on a source file, or a missed edge could hide a cycle.
    expect(unresolved).toEqual([]);
    expect(graph.get(join("hooks", "gate.ts"))).toContain(
      join("hooks", "events", "pre-tool-use.ts"),
    );
    expect(findCycles(graph).map((cycle) => cycle.join(" → "))).toEqual([]);
  });

  it("the folder check names an import against the direction and a folder nobody placed", () => {
    expect(wrongWays([["wire/hooks.ts", "hooks/events.ts"]])).toEqual([
      "wire → hooks (wire/hooks.ts imports hooks/events.ts)",
    ]);
    expect(wrongWays([["widgets/a.ts", "shared/log.ts"]])).toEqual([
      "widgets/ is not a known folder (widgets/a.ts)",
    ]);
    expect(
      wrongWays([
        ["hooks/gate.ts", "wire/hooks.ts"],
        ["cli.ts", "agent/agent.ts"],
      ]),
    ).toEqual([]);
  });

  it("folders import one way, bottom up: wire/ and shared/ import nothing of hookgate", () => {
    const edges = sourceFiles(SRC).flatMap((file) =>
      relativeSpecifiers(readFileSync(file, "utf8")).flatMap((spec) => {
        const target = resolveSpecifier(file, spec);
        return target === undefined ? [] : [[relative(SRC, file), relative(SRC, target)] as const];
      }),
    );
    const folders = new Set(edges.flatMap(([from]) => folderOf(from) ?? []));
    expect(folders.has("wire")).toBe(true);
    expect(wrongWays(edges)).toEqual([]);
  });

  it("the process-owner check finds exit, listeners on the process and globals set, not comments", () => {
    const text = [
      "// process.exit(1) in a comment",
      'process.once("exit", done);',
      "  if (bad) process.exit(2);",
      'process.on("SIGTERM", stop);',
      "process.exitCode = 1;",
      "console.error = (...args) => log.warn(args);",
      "globalThis.AI_SDK_LOG_WARNINGS ??= false;",
      "if (console.error === original) return;",
    ].join("\n");
    expect(processOwnerCalls(text)).toEqual([
      "line 2: process.once(",
      "line 3: process.exit(",
      "line 4: process.on(",
      "line 6: console.error =",
      "line 7: globalThis.AI_SDK_LOG_WARNINGS ??=",
    ]);
  });

  it("outside cli/ and the entry points nothing ends the process, listens to it or sets its globals", () => {
    // A library (connectHookgate, two agents in one test) must not exit the process, install
    // exit and signal handlers or replace console.error: the CLI owns the process; the runtime
    // owns what it started.
    expect(libraryProcessCalls()).toEqual([]);
    // Each exception still makes such a call: one that no longer does is taken off the list.
    for (const name of Object.keys(OWNS_THE_PROCESS)) {
      expect(processOwnerCalls(readFileSync(join(SRC, name), "utf8")), name).not.toEqual([]);
    }
  });
});

const TEST = resolve(SRC, "../test");

/**
 * Folders of test/ that mirror no folder of src/, each with its reason; `fixtures` folders
 * (data a test reads) may sit anywhere.
 */
const TEST_ONLY_FOLDERS: Readonly<Record<string, string>> = {
  helpers: "helpers several test folders share",
  bench: "tests of bench/, the benchmarks at the repository's root",
  lint: "tests of lint/, the repository's own lint rules (an oxlint JS plugin)",
  fuzz: "hostile models driven through the whole agent, no one folder's",
  "model/providers": "src/model's provider adapters against recorded provider replies",
};

/** Each folder of test/ (relative, `/`-separated) that mirrors no folder of src/. */
function unmirroredTestFolders(): string[] {
  const folders = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      if (!entry.isDirectory() || entry.name === "fixtures") return [];
      const full = join(dir, entry.name);
      return [full, ...folders(full)];
    });
  return folders(TEST)
    .map((full) => relative(TEST, full).split(/[\\/]/).join("/"))
    .filter((name) => !existsSync(join(SRC, name)))
    .filter(
      (name) => !Object.keys(TEST_ONLY_FOLDERS).some((f) => name === f || name.startsWith(`${f}/`)),
    );
}

/**
 * Module-level mutable state: a top-level `let`/`var`, or a top-level lower-case `const`
 * holding a Map, Set, WeakMap or WeakSet (an UPPER_CASE one is a constant lookup table).
 */
const MODULE_STATE =
  /^(?:export\s+)?(?:(?:let|var)\s+(\w+)|const\s+([a-z]\w*)(?:\s*:[^=]+)?\s*=\s*new\s+(?:Map|Set|WeakMap|WeakSet)\b)/gm;

/** The names of a file's module-level mutable state. */
function moduleState(text: string): string[] {
  return [...text.matchAll(MODULE_STATE)].map((m) => m[1] ?? m[2] ?? "");
}

/**
 * The only module-level state src/ may hold, by `file: name`, each with why it is there.
 * Caches memoise a pure answer (dropping one changes nothing but time); anything else is
 * listed as state still to be moved into the object that owns it.
 */
const ALLOWED_MODULE_STATE: Readonly<Record<string, string>> = {
  "model/ai-internal.ts: loading": "cache: the AI SDK's internals, imported once on first use",
  "model/ai-internal.ts: loadingUtils":
    "cache: the AI SDK's provider utilities, imported once on first use",
  "model/provider-prompt.ts: converted": "cache: a prompt converted once per message list",
  "model/profile.ts: profiles": "cache: a model's profile, attached to the model object",
  "model/step.ts: toolSets": "cache: the AI SDK tool set built once per tool list",
  "model/step.ts: providerTools": "cache: provider tools resolved once per tool set",
  "store/transcript-lines.ts: modelMessageSchema":
    "cache: the AI SDK's message schema, built on first use",
  "store/lock.ts: self": "cache: this process's pid and start time, which cannot change",
  "tools/paths.ts: resolvedRoots": "cache: a session's roots, resolved through symlinks once",
  "mcp/input-schema.ts: dialects": "constant: the JSON Schema dialects' compilers, by URI",
  "wire/hook-reply.ts: replyFields": "constant: REPLY_FIELDS as a set, never written",
  "wire/hook-reply.ts: actingFields": "constant: ACTING_REPLY_FIELDS as a set, never written",
  "mcp/input-schema.ts: checkers": "cache: one compiled validator per dialect",
  "client/kit/workspace.ts: made":
    "process-wide by design: the temporary directories its one exit handler removes",
  "shared/telemetry.ts: current":
    "process-wide by design: one telemetry per process, as OpenTelemetry's own providers are",
};

describe("test layout and module state", () => {
  it("test/ mirrors src/: every test folder is a src/ folder's, or listed with its reason", () => {
    expect(unmirroredTestFolders()).toEqual([]);
    for (const name of Object.keys(TEST_ONLY_FOLDERS)) {
      expect(existsSync(join(TEST, name)), name).toBe(true);
    }
  });

  it("the state finder names top-level lets and lower-case collections, not constant tables", () => {
    const text = [
      "let count = 0;",
      "export let mode: string | undefined;",
      "const cache = new WeakMap<object, string>();",
      "const KINDS = new Set(['a']);",
      "  let local = 1;",
      "const limit = 5;",
    ].join("\n");
    expect(moduleState(text)).toEqual(["count", "mode", "cache"]);
  });

  it("src/ holds no module-level mutable state but the listed caches and process-wide state", () => {
    const found = sourceFiles(SRC).flatMap((file) => {
      const name = relative(SRC, file).split(/[\\/]/).join("/");
      return moduleState(readFileSync(file, "utf8")).map((state) => `${name}: ${state}`);
    });
    expect(found.filter((entry) => !(entry in ALLOWED_MODULE_STATE))).toEqual([]);
    // An entry whose state is gone comes off the list, so the list stays the truth.
    expect(Object.keys(ALLOWED_MODULE_STATE).filter((entry) => !found.includes(entry))).toEqual([]);
  });
});

describe("test files and the shared module graph", () => {
  it("no test file replaces a module: each shares its worker's module graph (vitest.config.ts)", () => {
    const mocking = sourceFiles(TEST)
      .filter((file) => file.endsWith(".test.ts"))
      .filter((file) => /\bvi\.(do)?[mM]ock\(/.test(readFileSync(file, "utf8")))
      .map((file) => relative(TEST, file).split(/[\\/]/).join("/"));
    expect(mocking).toEqual([]);
  });
});

describe("JSON-RPC constants", () => {
  it("the cancel method and every JSON-RPC error code are written in wire/json-rpc.ts only", () => {
    const written = sourceFiles(SRC).flatMap((file) => {
      const name = relative(SRC, file).split(/[\\/]/).join("/");
      const text = readFileSync(file, "utf8");
      const found = text.match(/\$\/cancel_request|-32[0-9]{3}\b/g) ?? [];
      return found.length > 0 ? [name] : [];
    });
    expect(written).toEqual(["wire/json-rpc.ts"]);
  });
});
