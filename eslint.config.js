/**
 * ESLint flat config for the whole repository (issue 14, decision record 007): typescript-eslint's
 * recommended rules, the hooks rules, no import cycles, and `app/` never importing `server/`
 * (browser bundles must not pull server code; server values reach routes through the server context).
 */
import js from "@eslint/js";
import importX from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "build/**",
      ".react-router/**",
      "node_modules/**",
      "**/node_modules/**",
      "test-results/**",
      "playwright-report/**",
      "public/**",
      "drizzle/**",
      "coverage/**",
      "dist/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { "import-x": importX, "react-hooks": reactHooks },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      "import-x/resolver-next": [importX.createNodeResolver({ extensions: [".ts", ".tsx", ".js", ".json"] })],
    },
    rules: {
      // The two classic hooks rules. The React Compiler checks of the plugin's "recommended" set are left
      // off: the project does not compile with it (decision record 007 lists what they found).
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      // `let x; … () => x …; x = create()`: services that need each other are wired this way on purpose.
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
    },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "(^|/)server/|^#server/",
              message:
                "app/ never imports server/: server values reach routes through the server context (app/utils/server-context.ts).",
            },
          ],
        },
      ],
    },
  },
);
