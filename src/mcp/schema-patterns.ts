import { isRecord } from "../shared/values.js";

/** Keywords whose value is one subschema. */
const ONE = [
  "additionalProperties",
  "unevaluatedProperties",
  "propertyNames",
  "items",
  "additionalItems",
  "unevaluatedItems",
  "contains",
  "not",
  "if",
  "then",
  "else",
];
/** Keywords whose value is a list of subschemas. */
const LIST = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];
/** Keywords whose value maps names to subschemas. */
const MAP = ["properties", "$defs", "definitions", "dependentSchemas", "dependencies"];

/**
 * Every regular expression a JSON Schema applies to data, at any depth: `pattern` values and
 * `patternProperties` keys, found through the keywords that hold subschemas (keywords a
 * validator ignores are not entered, so a `pattern` inside a `default` is not one).
 */
export function schemaPatterns(schema: unknown): string[] {
  const found: string[] = [];
  const seen = new Set<unknown>();
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!isRecord(node) || seen.has(node)) continue;
    seen.add(node);
    if (typeof node.pattern === "string") found.push(node.pattern);
    if (isRecord(node.patternProperties)) {
      for (const [pattern, sub] of Object.entries(node.patternProperties)) {
        found.push(pattern);
        stack.push(sub);
      }
    }
    for (const key of ONE) stack.push(node[key]);
    for (const key of LIST) {
      const list: unknown = node[key];
      if (Array.isArray(list)) for (const sub of list) stack.push(sub);
    }
    for (const key of MAP) {
      const map = node[key];
      if (isRecord(map)) for (const sub of Object.values(map)) stack.push(sub);
    }
  }
  return found;
}
