import {
  compilePermissionRule,
  covers,
  realPathIn,
  touches,
  type RulePlaces,
} from "../command-hooks/if-rule.js";
import type { PermissionRule, RuleBehavior, RuleSource } from "../command-hooks/settings-policy.js";

/** What the rules say about one call: the behaviour, the rule that decided, and its source. */
export interface RuleVerdict {
  readonly behavior: RuleBehavior;
  readonly rule: string;
  readonly source: RuleSource;
  /** A deny rule could not tell whether it matches (a Bash line hookgate cannot split): ask. */
  readonly unsure?: boolean;
}

/** A rule as a PermissionRequest hook names it (Claude Code's `PermissionRuleValue`). */
export interface RuleValue {
  readonly toolName: string;
  readonly ruleContent?: string | undefined;
}

/** The rule's text as a settings file writes it: `Tool` or `Tool(content)`. */
export function ruleText({ toolName, ruleContent }: RuleValue): string {
  return ruleContent === undefined ? toolName : `${toolName}(${ruleContent})`;
}

/**
 * A session's permission rules: its settings files' and those added while it runs. Precedence
 * deny > ask > allow, whatever the source. The settings files' rules are replaced as a whole
 * when a change to a file is let in (read again through the one loader, so a lower file never
 * removes a more trusted file's deny; the caller keeps a dropped deny or ask rule of a file
 * other than the managed one, `keepInForce`); the session's own are only ever added.
 */
export class RuleBook {
  private settings: readonly PermissionRule[];
  private readonly added: PermissionRule[] = [];
  /** Bumped whenever the rules change (the tool catalog re-reads what is hidden). */
  version = 0;

  constructor(
    settings: readonly PermissionRule[],
    private readonly places: RulePlaces,
  ) {
    this.settings = [...settings];
  }

  /** The settings files' rules then the session's, in the order they were read or added. */
  private get rules(): readonly PermissionRule[] {
    return [...this.settings, ...this.added];
  }

  /** Puts the settings files' rules, as read again, in place of those read before. */
  useSettings(settings: readonly PermissionRule[]): void {
    this.settings = [...settings];
    this.version++;
  }

  /** The rules' verdict on a call, or undefined when no rule is about it. */
  judge(toolName: string, input: unknown): RuleVerdict | undefined {
    const rules = this.rules;
    const of = (behavior: RuleBehavior) => rules.filter((r) => r.behavior === behavior);
    let unsure: PermissionRule | undefined;
    for (const r of of("deny")) {
      const touched = touches(r.rule, toolName, input);
      if (touched === "yes") return verdict(r);
      if (touched === "unsure") unsure ??= r;
    }
    const ask = of("ask").find((r) => touches(r.rule, toolName, input) !== "no");
    if (ask) return verdict(ask);
    // A deny that cannot tell: nothing allows the call unasked, the user decides.
    if (unsure) return { ...verdict(unsure), behavior: "ask", unsure: true };
    const allows = of("allow");
    const allowing = covers(
      allows.map((r) => r.rule),
      toolName,
      input,
    );
    const allow = allows.find((r) => r.rule === allowing);
    return allow && verdict(allow);
  }

  /**
   * The files no Read deny rule with a path covers, as reached or as they really are: what a
   * search may show, as in Claude Code. A tool-wide `Read` deny and ask rules do not count.
   */
  readable(files: readonly string[]): string[] {
    const tests = this.rules.flatMap((r) =>
      r.behavior === "deny" && r.rule.tool === "Read" && r.rule.path ? [r.rule.path] : [],
    );
    if (tests.length === 0) return [...files];
    // A search judges thousands of files: each directory's real path is looked up once.
    const dirs = new Map<string, string>();
    return files.filter((file) => {
      const real = realPathIn(dirs, file);
      return !tests.some((test) => test(file) || (real !== file && test(real)));
    });
  }

  /** Whether a deny rule takes the whole tool away: the model is never offered it. */
  hides(toolName: string): boolean {
    return this.rules.some(
      (r) => r.behavior === "deny" && !r.rule.command && !r.rule.input && r.rule.names(toolName),
    );
  }

  /**
   * Adds rules for the rest of the session; answers the texts that could not be read (a deny
   * or ask among them covers its whole tool).
   */
  add(values: readonly RuleValue[], behavior: RuleBehavior): string[] {
    const problems: string[] = [];
    for (const value of values) {
      const { rule, problem } = compilePermissionRule(ruleText(value), this.places, behavior);
      if (rule) this.added.push({ behavior, rule, source: "session" });
      if (problem !== undefined) problems.push(problem);
    }
    this.version++;
    return problems;
  }
}

function verdict(r: PermissionRule): RuleVerdict {
  return { behavior: r.behavior, rule: r.rule.text, source: r.source };
}
