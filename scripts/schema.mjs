// `npm run schema`: writes the hook extension's JSON Schema from the built zod schemas.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import process from "node:process";
import { fileURLToPath, URL } from "node:url";
import { JSON_SCHEMA_PATH, wireJsonSchema } from "../dist/wire/json-schema.js";

const file = fileURLToPath(new URL(`../${JSON_SCHEMA_PATH}`, import.meta.url));
mkdirSync(dirname(file), { recursive: true });
writeFileSync(file, `${JSON.stringify(wireJsonSchema(), null, 2)}\n`);
process.stdout.write(`wrote ${JSON_SCHEMA_PATH}\n`);
