// What an MCP tool's `pattern` costs hookgate: listing the tool (its schema checked, its
// patterns compiled), the first call's validation (the schema compiled) and later calls, for
// short arguments and for 64 KiB ones, on patterns chosen to be costly for a backtracking or
// a linear engine. Each pattern is measured in a fresh process, so one-time costs show.
// Run after `npm run build`: node bench/mcp-pattern.mjs (CPU milliseconds of the agent's side);
// SCHEMA_MODULE=<path of another build's mcp/input-schema.js> measures that build instead.
import { execFileSync } from "node:child_process";
import console from "node:console";
import process from "node:process";
import { fileURLToPath, URL } from "node:url";

const PATTERNS = [
  "^(a+)+$",
  "^(a|aa)+$",
  "^(\\w+\\s?)*$",
  "^[a-z0-9-]{1,64}$",
  "^(a{1,30}){1,30}$",
  "^(\\w{1,30}\\s?){1,30}$",
  "^[\\p{L}\\p{N}]{1,200}$",
  "(x|a{1,400})$",
];

const ONE = `
const { compileInputSchema } = await import(process.env.SCHEMA_MODULE);
const pattern = process.env.PATTERN;
// CPU time of this process, not wall time: on a shared machine the wall clock mostly measures the others.
const ms = (f) => { const t = process.cpuUsage(); const r = f(); const d = process.cpuUsage(t); return [(d.user + d.system) / 1000, r]; };
const [list, c] = ms(() => compileInputSchema({ type: "object", properties: { text: { type: "string", pattern } } }));
if (!c.ok) { console.log(JSON.stringify({ list, refused: c.error })); process.exit(0); }
const call = (text) => ms(() => c.schema.zod.safeParse({ text }));
const short = "a".repeat(25) + "!";
const [first] = call(short);
const [warm] = call("a".repeat(24) + "!");
const long = [];
for (const text of ["a".repeat(65535) + "!", "ab".repeat(32768), "a ".repeat(32768)]) {
  const [t, r] = call(text);
  long.push({ t, ok: r.success, why: r.success ? "" : r.error.issues[0].message.slice(0, 60) });
}
console.log(JSON.stringify({ list, first, warm, long }));
`;

const module =
  process.env.SCHEMA_MODULE ??
  fileURLToPath(new URL("../dist/mcp/input-schema.js", import.meta.url));
const f = (n) => n.toFixed(1).padStart(7);
console.log("CPU ms".padEnd(26), "    list  1st call  warm call  | 64 KiB calls (verdict)");
for (const pattern of PATTERNS) {
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", ONE], {
    env: { ...process.env, SCHEMA_MODULE: module, PATTERN: pattern },
    encoding: "utf8",
  });
  const r = JSON.parse(out);
  if (r.refused) {
    console.log(pattern.padEnd(26), f(r.list), "  refused:", r.refused.slice(0, 90));
    continue;
  }
  const long = r.long.map(
    (l) => `${f(l.t)} (${l.ok ? "ok" : l.why.includes("budget") ? "over budget" : "no match"})`,
  );
  console.log(
    pattern.padEnd(26),
    f(r.list),
    " ",
    f(r.first),
    "  ",
    f(r.warm),
    "  |",
    long.join(" "),
  );
}
