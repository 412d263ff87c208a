import { fileURLToPath } from "node:url";

/** The fixture MCP server's source (plain ESM: node runs it as is). */
export const FIXTURE_SOURCE = fileURLToPath(new URL("./fixtures/server.mjs", import.meta.url));

/** Its bundle's name in the run's directory, where test/global-setup.ts makes it. */
export const FIXTURE_BUNDLE = "mcp-fixture-server.mjs";

/** The elicitation fixture's source, and its bundle's name beside the other. */
export const ELICIT_SOURCE = fileURLToPath(new URL("./fixtures/elicit.mjs", import.meta.url));
export const ELICIT_BUNDLE = "mcp-elicit-server.mjs";
