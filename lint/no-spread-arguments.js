/**
 * No array spread into a call's arguments (`xs.push(...ys)`, `Math.max(...xs)`, `f(...xs)`):
 * every element becomes an argument on the stack, and an array of a few hundred thousand
 * (a long session's history, a file's lines) throws "Maximum call stack size exceeded".
 * Append in a loop, reduce, or pass the array. Forwarding a function's own rest parameter
 * (`(...args) => f(...args)`) is allowed: its length is bounded by a call this rule checks too.
 *
 * A rule in ESLint's plugin format, which oxlint runs as a JS plugin (.oxlintrc.json, through
 * ./no-spread-arguments-plugin.js).
 */
export default {
  meta: {
    type: "problem",
    docs: { description: "disallow spreading an array into call arguments" },
    messages: {
      spread:
        "Spreading an array into a call's arguments overflows the stack when the array is long: append in a loop, reduce, or pass the array.",
    },
    schema: [],
  },
  create(context) {
    /** @param {import("estree").CallExpression | import("estree").NewExpression} node */
    const check = (node) => {
      for (const argument of node.arguments) {
        if (argument.type === "SpreadElement" && !forwardsRestParameter(context, argument)) {
          context.report({ node: argument, messageId: "spread" });
        }
      }
    };
    return { CallExpression: check, NewExpression: check };
  },
};

/**
 * @param {{ sourceCode: { getScope(node: object): any } }} context
 * @param {import("estree").SpreadElement} spread
 */
function forwardsRestParameter(context, spread) {
  const { argument } = spread;
  if (argument.type !== "Identifier") return false;
  for (let scope = context.sourceCode.getScope(spread); scope; scope = scope.upper) {
    const variable = scope.set.get(argument.name);
    if (variable) {
      return variable.defs.some(
        (def) => def.type === "Parameter" && def.name.parent?.type === "RestElement",
      );
    }
  }
  return false;
}
