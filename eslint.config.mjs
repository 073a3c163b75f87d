// ESLint for the browser table's scripts (tminus/web/js): the recommended rules, as modules
// running in a browser. Prettier owns the layout (.prettierrc.json), so no style rules here.
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["tminus/web/js/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser },
    },
    rules: {
      "no-unused-vars": ["error", { args: "after-used", argsIgnorePattern: "^_" }],
    },
  },
];
