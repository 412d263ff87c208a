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
    expect(graph.get(join("hooks", "gate.ts"))).toContain(join("hooks", "gate-merge.ts"));
    expect(findCycles(graph).map((cycle) => cycle.join(" → "))).toEqual([]);
  });
});
