// Bench-only agent: hookgate as `hookgate` serves it, except that gate callbacks are
// dispatched one after another (`serialGate`), to measure what concurrency buys. This
// switch is reachable only from here, never from the CLI.
import process from "node:process";
import { serveStdio } from "../dist/serve.js";
import { createLogger } from "../dist/log.js";
import { createScriptedModel } from "../dist/model/scripted.js";

const log = createLogger(process.env.HOOKGATE_LOG_LEVEL ?? "info");
const connection = serveStdio({ log, model: createScriptedModel(), serialGate: true });
await connection.closed;
log.flush();
