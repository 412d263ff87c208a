import js from "@eslint/js";
import tseslint from "typescript-eslint";
import noSpreadArguments from "./lint/no-spread-arguments.js";

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
    // Promise rules need type information: a rejection nobody handles vanishes, or kills the
    // process. Only src/ is linted with types, which keeps `npm test` fast.
    files: ["src/**/*.ts"],
    languageOptions: {
      parserOptions: { project: "./tsconfig.build.json", tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // `void p` is no answer either: detached work goes through `detach`, which logs.
      "@typescript-eslint/no-floating-promises": ["error", { ignoreVoid: false }],
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/await-thenable": "error",
      "@typescript-eslint/promise-function-async": "off",
      "@typescript-eslint/return-await": ["error", "in-try-catch"],
      "@typescript-eslint/only-throw-error": "error",
      "@typescript-eslint/prefer-promise-reject-errors": [
        "error",
        { allowThrowingAny: true, allowThrowingUnknown: true },
      ],
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
