import js from "@eslint/js";
import tseslint from "typescript-eslint";
import noSpreadArguments from "./lint/no-spread-arguments.js";

// The rules that need type information (the promise rules on src/) are oxlint's, in
// .oxlintrc.json: `npm run lint` runs both. They run on typescript-go, which builds src's
// program at a fraction of the CPU TypeScript 5.9 took for typescript-eslint.
export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "coverage/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "no-console": ["error"],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
    },
  },
  {
    // A long session's history or a big file must not overflow the stack through `f(...xs)`.
    files: ["src/**/*.ts"],
    plugins: { hookgate: { rules: { "no-spread-arguments": noSpreadArguments } } },
    rules: { "hookgate/no-spread-arguments": "error" },
  },
  {
    files: ["test/**", "bench/**"],
    rules: { "no-console": "off" },
  },
  {
    // The inspector's page runs in the browser.
    files: ["inspect-page/**"],
    languageOptions: {
      globals: Object.fromEntries(
        [
          "Blob",
          "clearInterval",
          "document",
          "DOMParser",
          "EventSource",
          "fetch",
          "location",
          "setInterval",
          "URL",
          "URLSearchParams",
        ].map((name) => [name, "readonly"]),
      ),
    },
  },
);
