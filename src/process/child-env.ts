/**
 * Provider key variables hookgate knows. None of them reaches a process the agent starts
 * (Bash, hooks, slash commands, MCP servers), whichever model is selected.
 */
export const KNOWN_KEY_VARIABLES: readonly string[] = Object.freeze([
  "OPENAI_API_KEY",
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  "HOOKGATE_API_KEY",
]);

const withheld = new Set<string>(KNOWN_KEY_VARIABLES);

/** Adds a variable (e.g. the config's `apiKeyEnv`) to those kept from child processes. */
export function withholdVariable(name: string): void {
  withheld.add(name);
}

/** True when `name` is kept from child processes. */
export function isWithheld(name: string): boolean {
  return withheld.has(name);
}

/**
 * The environment for a process the agent starts: `base` without any key variable, plus
 * `extra` (which is trusted: the caller decides what it adds).
 */
export function childEnv(
  extra: Readonly<Record<string, string>> = {},
  base: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) {
    if (value !== undefined && !withheld.has(name)) env[name] = value;
  }
  return Object.assign(env, extra);
}
