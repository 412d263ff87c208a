import js from "@eslint/js";
import tseslint from "typescript-eslint";

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
