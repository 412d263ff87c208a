import { coldStart } from "./cold-start.mjs";
import { mkdtempSync } from "node:fs"; import { tmpdir, loadavg } from "node:os"; import { join } from "node:path";
const cwd = mkdtempSync(join(tmpdir(), "cs-"));
const entries = Object.fromEntries(process.argv.slice(3).map((p, i) => [`e${i}:${p}`, p]));
console.log(loadavg()[0], JSON.stringify(await coldStart(entries, { cwd }, { rounds: Number(process.argv[2]) }), null, 1), loadavg()[0]);
