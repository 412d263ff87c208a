// The `hookgate` binary as one bundle: dist/cli.js (what `bin` names), with what only a
// session, a prompt or a subcommand needs split into dist/chunks/, loaded when first asked
// for. Node's ES module loader resolves, reads and compiles each module file on its own, so
// the ~180 files the unbundled binary loads before `initialize` cost more than their code
// (docs/performance.md, "Cold start"). Runs after tsc, whose dist/cli.js it replaces: the
// library entry points (`hookgate`, `hookgate/client`, `hookgate/testing`) stay tsc's files.
import { readFile } from "node:fs/promises";
import { rmSync } from "node:fs";
import process from "node:process";
import { fileURLToPath, URL } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));

// Bundled CommonJS (pino and its helpers) calls `require` for Node's built-ins, which an ES
// module does not have: give the bundle one.
const banner = [
  'import { createRequire as __hookgateRequire } from "node:module";',
  "const require = __hookgateRequire(import.meta.url);",
].join("\n");

/**
 * `import { z } from "zod"` (or `"zod/v4"`, as the AI SDK writes it) hands the bundler zod's
 * namespace as one object, and zod's namespace holds its 40-odd locales, so every such import
 * keeps and evaluates all of zod at start-up. The same import written `import * as z` means
 * the same to the code and lets the bundler keep only what is used.
 */
const NAMED_Z = /^import \{ z(?: as (\w+))? \} from "(zod(?:\/v4)?)";?$/gm;
const zodNamespace = {
  name: "zod-namespace",
  setup(build) {
    build.onLoad({ filter: /\.(ts|m?js)$/ }, async ({ path }) => {
      const text = await readFile(path, "utf8");
      if (!text.includes('"zod')) return undefined;
      const contents = text.replace(
        NAMED_Z,
        (_, as, from) => `import * as ${as ?? "z"} from "${from}";`,
      );
      return { contents, loader: path.endsWith(".ts") ? "ts" : "js" };
    });
  },
};

rmSync(`${root}dist/chunks`, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: { cli: "src/cli.ts" },
  outdir: "dist",
  // One level below dist/, as tsc's files are: paths a module finds relative to itself
  // (`../../inspect-page/`, `../cli.js`) lead to the same place from a chunk.
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // Linked maps with the sources inside: a stack trace or a debugger finds the TypeScript.
  sourcemap: "linked",
  // Shorter text to read and compile, names kept: Node parses every byte of a chunk it loads.
  minifyWhitespace: true,
  minifySyntax: true,
  sourcesContent: true,
  // pino-pretty: loaded with createRequire at run time, only when stderr is a terminal.
  // OpenTelemetry: loaded only when telemetry is on, from node_modules, where Node reads its
  // CommonJS exports by name (bundled, its exporters' constructors come out undefined).
  external: ["pino-pretty", "@opentelemetry/*"],
  banner: { js: banner },
  legalComments: "linked",
  plugins: [zodNamespace],
  logLevel: "warning",
  metafile: process.argv.includes("--metafile"),
});
if (result.metafile) {
  const { writeFileSync } = await import("node:fs");
  writeFileSync(`${root}dist/bundle-meta.json`, JSON.stringify(result.metafile));
}
