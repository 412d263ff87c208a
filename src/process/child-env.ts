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

/**
 * Which variables of the agent's environment the processes it starts never see: every known
 * key variable, plus those its owner withholds (e.g. the config's `apiKeyEnv`). One per
 * runtime, so a variable withheld for one agent says nothing about another's.
 */
export class ChildEnvPolicy {
  private readonly withheld: Set<string>;

  constructor(withheld: Iterable<string> = []) {
    this.withheld = new Set([...KNOWN_KEY_VARIABLES, ...withheld]);
  }

  /** Adds a variable to those kept from child processes. */
  withhold(name: string): void {
    this.withheld.add(name);
  }

  /** True when `name` is kept from child processes. */
  isWithheld(name: string): boolean {
    return this.withheld.has(name);
  }

  /**
   * The environment for a process the agent starts: `base` without any withheld variable,
   * plus `extra` (which is trusted: the caller decides what it adds).
   */
  env(
    extra: Readonly<Record<string, string>> = {},
    base: NodeJS.ProcessEnv = process.env,
  ): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {};
    for (const [name, value] of Object.entries(base)) {
      if (value !== undefined && !this.withheld.has(name)) env[name] = value;
    }
    return Object.assign(env, extra);
  }
}
