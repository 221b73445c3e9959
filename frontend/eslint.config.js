// ESLint over the dashboard's TypeScript: typescript-eslint's strict, type-aware rules plus its
// stylistic set. `npm test` runs it before vitest, so `make test` fails on a lint error.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "eslint.config.js"] },
  js.configs.recommended,
  tseslint.configs.strictTypeChecked,
  tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // Counts and sizes are interpolated into user-facing text all over the dashboard.
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true }],
      // `() => el.remove()` as an event handler reads better than a braced body.
      "@typescript-eslint/no-confusing-void-expression": ["error", { ignoreArrowShorthand: true }],
      // An empty title or URL falls back to the next label on purpose.
      "@typescript-eslint/prefer-nullish-coalescing": ["error", { ignorePrimitives: { string: true } }],
      // `const { omitted: _omitted, ...rest } = value` is how a key is dropped from a copy.
      "@typescript-eslint/no-unused-vars": ["error", { ignoreRestSiblings: true, varsIgnorePattern: "^_" }],
    },
  },
  {
    // Tests index into values they have just asserted on, and their fakes implement async
    // interfaces with bodies that have nothing to await.
    files: ["src/**/*.test.ts"],
    rules: {
      "@typescript-eslint/no-non-null-assertion": "off",
      "@typescript-eslint/require-await": "off",
    },
  },
);
