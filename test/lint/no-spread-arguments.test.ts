import { RuleTester } from "eslint";
import tseslint from "typescript-eslint";
import { describe, it } from "vitest";
import noSpreadArguments from "../../lint/no-spread-arguments.js";

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const tester = new RuleTester({ languageOptions: { parser: tseslint.parser } });

describe("lint: no array spread into call arguments", () => {
  tester.run("no-spread-arguments", noSpreadArguments, {
    valid: [
      "for (const m of fresh) history.push(m);",
      "const all = [...a, ...b];",
      "const copy = { ...options, cwd };",
      // A rest parameter forwarded: as long as the call that filled it, which is checked too.
      "const issue = (...args: unknown[]) => make(...args);",
      "function log(...parts: string[]) { return format(...parts); }",
    ],
    invalid: [
      "history.push(...fresh);",
      "lines.unshift(...more);",
      "Math.max(0, ...lengths);",
      "transcript.record(...messages);",
      "new Set(...lists);",
      // A name that is not a rest parameter here, even if one of that name exists elsewhere.
      "function f(...args: number[]) { const g = (args: number[]) => Math.min(...args); }",
    ].map((code) => ({ code, errors: [{ messageId: "spread" }] })),
  });
});
