// The repository's own lint rules, as an oxlint JS plugin (`jsPlugins` in .oxlintrc.json).
import noSpreadArguments from "./no-spread-arguments.js";

export default {
  meta: { name: "hookgate" },
  rules: { "no-spread-arguments": noSpreadArguments },
};
