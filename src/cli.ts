#!/usr/bin/env node
// The `hookgate` binary: everything it does lives in cli/.
import { main } from "./cli/main.js";

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(
    `hookgate: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
